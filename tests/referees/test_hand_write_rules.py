"""Who may write hands, and when: the championship's list of referees and its status.

The rule lives in the results services (``results.selectors.hand_write_problem``); the
tablet pages show it before the referee taps a hand, and the save or undo is refused with
the same translated message.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from tests.referees.conftest import Tablet, html_of
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory
from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError
from tournaments.models import Championship, ChampionshipReferee, Hand, Match
from tournaments.results import services as result_services

TWO_TRICKS_A = {"events": [{"trick": "A"}, {"trick": "A"}]}
NO_LONGER = "Your account may not referee"


def leave_referees(user) -> None:
    """Take ``user`` off every list of referees, leaving his matches assigned to him (as
    deleting his entry in the admin would; the organiser's removal unassigns them too)."""
    ChampionshipReferee.objects.filter(user=user).delete()


def site_wide_referee(username: str, assigned_to) -> Any:
    """A user of the Django group ``referees`` (which once made a referee everywhere), on
    another championship's list, assigned to ``assigned_to`` behind the services' back (as
    an assignment made before the rule, or in the admin)."""
    user = RefereeFactory(username=username, championships=[ChampionshipFactory()])
    user.groups.add(Group.objects.get_or_create(name="referees")[0])
    Match.objects.filter(pk=assigned_to.pk).update(referee=user)
    return user


def set_status(match, status: str) -> None:
    Championship.objects.filter(pk=match.stage.championship_id).update(status=status)
    match.stage.championship.refresh_from_db()


@pytest.fixture
def one_hand(started, referee):
    """A started match of ``referee`` with one hand recorded."""
    result_services.hand_record(match=started, record=TWO_TRICKS_A, recorded_by=referee)
    return started


# --- Through the tablet -----------------------------------------------------------------


def test_a_referee_taken_off_the_list_cannot_save_a_hand(started, tablet, referee):
    page = tablet(started)
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    leave_referees(referee)  # the organiser removes him while he is at the table
    page.op("save", status=400)
    assert NO_LONGER in page.page
    assert Hand.objects.count() == 0
    # Opening the sheet again says so before he taps anything.
    assert NO_LONGER in page.open().page


def test_a_referee_taken_off_the_list_cannot_undo(one_hand, client, referee):
    leave_referees(referee)
    client.force_login(referee)
    response = client.post(
        reverse("referees:undo", args=[one_hand.pk]),
        {"number": "1"},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert NO_LONGER in html_of(response)
    assert Hand.objects.count() == 1


def test_a_referee_taken_off_the_list_cannot_seat_the_players(match, client, referee):
    leave_referees(referee)
    client.force_login(referee)
    seats = client.get(reverse("referees:sheet", args=[match.pk]))
    assert seats.status_code == 200
    response = client.post(
        reverse("referees:seats", args=[match.pk]), {}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert NO_LONGER in html_of(response)
    match.refresh_from_db()
    assert match.seats == []


def test_a_referee_of_another_championship_cannot_seat_the_players(match, client):
    """Only the championship's list makes a referee there: not the site-wide group, nor
    another championship's list. The sheet says so; the seats are refused."""
    outsider = site_wide_referee("forastero", assigned_to=match)
    client.force_login(outsider)
    sheet = client.get(reverse("referees:sheet", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert NO_LONGER in html_of(sheet)
    response = client.post(
        reverse("referees:seats", args=[match.pk]), {}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert NO_LONGER in html_of(response)
    match.refresh_from_db()
    assert match.seats == []


def test_back_on_the_list_he_records_again(started, tablet, referee):
    leave_referees(referee)
    championship_services.referee_add(
        championship=started.stage.championship, user=referee, added_by=None
    )
    page = tablet(started)
    assert NO_LONGER not in page.page
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    page.save()
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    ("status", "label"),
    [("draft", "Draft"), ("registration", "Registration open"), ("finished", "Finished")],
)
def test_no_hand_is_saved_unless_the_championship_is_running(started, tablet, status, label):
    page = tablet(started)
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    set_status(started, status)
    page.op("save", status=400)
    message = f"is “{label}”: nothing was saved"
    assert message in page.page
    assert "only while the championship is in play" in page.page
    assert Hand.objects.count() == 0
    assert message in page.open().page


def test_no_hand_is_undone_in_a_finished_championship(one_hand, client, referee):
    set_status(one_hand, "finished")
    client.force_login(referee)
    response = client.post(
        reverse("referees:undo", args=[one_hand.pk]), {"number": "1"}, follow=True
    )
    assert "Las manos solo se pueden registrar, corregir o borrar" in html_of(response)
    assert Hand.objects.count() == 1


def test_an_organiser_off_the_list_of_referees_still_records(started, client, user_factory):
    marta = user_factory("marta")
    started.stage.championship.organisers.add(marta)
    client.force_login(marta)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = Tablet(client, started).open()
    assert NO_LONGER not in page.page
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    page.save()
    assert Hand.objects.get().recorded_by == marta


# --- Through the services ---------------------------------------------------------------


@contextmanager
def refused(code: str):
    """The block raises the TournamentError of ``code``."""
    with pytest.raises(TournamentError) as info:
        yield
    assert info.value.code == code, info.value.code


@pytest.mark.parametrize(
    "how", ["off_the_list", "site_wide_group", "inactive", "bare_staff", "nobody"]
)
def test_the_services_refuse_whoever_may_not_referee(one_hand, referee, user_factory, how):
    if how == "off_the_list":
        user = referee
        leave_referees(user)
    elif how == "site_wide_group":
        user = site_wide_referee("forastero", assigned_to=one_hand)
    elif how == "inactive":
        user = referee
        user.is_active = False
        user.save()
    elif how == "bare_staff":
        user = user_factory("becario", is_staff=True)
    else:
        user = user_factory("cualquiera")
    hand = one_hand.hands.get()
    with refused("not_referee"):
        result_services.hand_record(match=one_hand, record=TWO_TRICKS_A, recorded_by=user)
    with refused("not_referee"):
        result_services.hand_correct(hand=hand, record=TWO_TRICKS_A, corrected_by=user, reason="x")
    with refused("not_referee"):
        result_services.hand_delete_last(match=one_hand, deleted_by=user)
    with refused("not_referee"):
        result_services.match_hands_import(match=one_hand, records=[TWO_TRICKS_A], recorded_by=user)
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("status", ["draft", "registration", "finished"])
def test_the_services_write_no_hand_unless_running(one_hand, referee, status):
    set_status(one_hand, status)
    hand = one_hand.hands.get()
    # Not even the system (user None: demo data, commands).
    for user in (referee, None):
        with refused("championship_not_running"):
            result_services.hand_record(match=one_hand, record=TWO_TRICKS_A, recorded_by=user)
        with refused("championship_not_running"):
            result_services.hand_correct(
                hand=hand, record=TWO_TRICKS_A, corrected_by=user, reason="x"
            )
        with refused("championship_not_running"):
            result_services.hand_delete_last(match=one_hand, deleted_by=user)
    assert Hand.objects.count() == 1
    set_status(one_hand, "running")
    result_services.hand_delete_last(match=one_hand, deleted_by=referee)
    assert Hand.objects.count() == 0


def test_superusers_and_managing_staff_may_write(one_hand, user_factory):
    root = user_factory("root", is_staff=True, is_superuser=True)
    boss = user_factory("jefa", is_staff=True)
    boss.user_permissions.add(Permission.objects.get(codename="change_championship"))
    result_services.hand_delete_last(match=one_hand, deleted_by=root)
    result_services.hand_record(match=one_hand, record=TWO_TRICKS_A, recorded_by=boss)
    assert Hand.objects.get().recorded_by == boss


def test_the_migration_lists_the_referees_assigned_before_the_lists_counted(match, referee):
    migration = importlib.import_module(
        "tournaments.migrations.0003_assigned_referees_on_the_lists"
    )
    championship = match.stage.championship
    # As a site that assigned matches through the old site-wide group left it.
    ChampionshipReferee.objects.filter(championship=championship).delete()
    Match.objects.filter(pk=match.pk).update(referee=referee)
    migration.list_assigned_referees(django_apps, None)
    migration.list_assigned_referees(django_apps, None)  # twice: nothing doubled
    assert list(championship.referee_entries.values_list("user", flat=True)) == [referee.pk]
