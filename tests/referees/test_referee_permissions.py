"""Who may see and use the referee pages: the match's referee, its organisers, and staff
allowed to manage every championship (not the bare staff flag)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.referees.conftest import make_match
from tests.tournaments.conftest import play
from tests.tournaments.factories import RefereeFactory
from tournaments.models import Hand
from tournaments.results import services as result_services

MATCH_URLS = [
    ("get", "referees:sheet", {}),
    ("post", "referees:sheet", {"number": "2", "hand": "{}", "action": '{"trick":"A"}'}),
    ("post", "referees:seats", {"seat_0": "p1"}),
    ("get", "referees:undo", {}),
    ("post", "referees:undo", {"number": "1"}),
]


@pytest.fixture
def played(match, referee):
    """A started match with one recorded hand, so that every URL has something to do."""
    result_services.match_start(match=match)
    result_services.hand_record(
        match=match, record={"events": [{"trick": "A"}, {"trick": "A"}]}, recorded_by=referee
    )
    return match


def call(client, method: str, name: str, match, data: dict):
    url = reverse(name, args=[match.pk])
    return getattr(client, method)(url, data)


@pytest.mark.parametrize(("method", "name", "data"), MATCH_URLS)
def test_anonymous_is_sent_to_log_in(client, played, method, name, data):
    response = call(client, method, name, played, data)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=/referee/")
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(("method", "name", "data"), MATCH_URLS)
def test_another_referee_gets_404(client, played, method, name, data):
    client.force_login(RefereeFactory(username="otro"))
    assert call(client, method, name, played, data).status_code == 404
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(("method", "name", "data"), MATCH_URLS)
def test_an_organiser_of_another_championship_gets_404(
    client, played, user_factory, method, name, data
):
    stranger = user_factory("organizadora")
    other = make_match(team_names=("Otros", "Demás"))
    other.stage.championship.organisers.add(stranger)
    client.force_login(stranger)
    assert call(client, method, name, played, data).status_code == 404
    assert Hand.objects.count() == 1


def staff_manager(user_factory, username: str = "jefa"):
    """Staff with the permission to change (so manage) every championship."""
    user = user_factory(username, is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_championship"))
    return user


@pytest.mark.parametrize("who", ["referee", "organiser", "staff", "superuser"])
def test_the_referee_the_organisers_and_staff_may_use_the_sheet(
    client, played, referee, user_factory, who
):
    user = {
        "referee": lambda: referee,
        "organiser": lambda: user_factory("marta"),
        "staff": lambda: staff_manager(user_factory),
        "superuser": lambda: user_factory("root", is_staff=True, is_superuser=True),
    }[who]()
    if who == "organiser":
        played.stage.championship.organisers.add(user)
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    sheet = client.get(reverse("referees:sheet", args=[played.pk]))
    assert sheet.status_code == 200
    assert "Trick to Ana and Alba" in sheet.content.decode()
    step = client.post(
        reverse("referees:sheet", args=[played.pk]),
        {"number": "2", "hand": "{}", "action": json.dumps({"trick": "A"})},
    )
    assert step.status_code == 200
    assert client.get(reverse("referees:undo", args=[played.pk])).status_code == 200
    assert (
        client.post(reverse("referees:undo", args=[played.pk]), {"number": "1"}).status_code == 302
    )
    assert Hand.objects.count() == 0


@pytest.mark.parametrize(("method", "name", "data"), MATCH_URLS)
def test_the_bare_staff_flag_opens_no_match(client, played, user_factory, method, name, data):
    """Staff without the permission to manage every championship is like anyone else."""
    client.force_login(user_factory("becario", is_staff=True))
    assert call(client, method, name, played, data).status_code == 404
    assert Hand.objects.count() == 1


def test_my_matches_lists_only_mine_a_finished_one_waiting_for_confirmation(
    client, played, referee
):
    mine_too = make_match(referee=referee, team_names=("Los Tres", "Los Cuatro"))
    finished = make_match(referee=referee, team_names=("Ya", "Jugado"))
    play(finished, finished.team_a)
    make_match(referee=RefereeFactory(username="otro"), team_names=("Ajenos", "Lejanos"))

    client.force_login(referee)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = client.get(reverse("referees:matches")).content.decode()
    assert "Los Anchos – Las Flores" in page
    assert "Los Tres – Los Cuatro" in page
    waiting = page.index("Waiting for the teams&#x27; confirmation")
    assert page.index("Ya – Jugado") > waiting > page.index("Los Tres – Los Cuatro")
    assert "Ajenos" not in page
    assert reverse("referees:sheet", args=[mine_too.pk]) in page
    assert "Matches of my championships" not in page  # not an organiser


def test_an_organiser_lists_the_matches_of_his_championships(client, played, user_factory):
    marta = user_factory("marta")
    played.stage.championship.organisers.add(marta)
    make_match(team_names=("Ajenos", "Lejanos"))
    client.force_login(marta)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    mine = client.get(reverse("referees:matches")).content.decode()
    assert "No match is assigned to you right now." in mine
    assert reverse("referees:organised") in mine
    listed = client.get(reverse("referees:organised")).content.decode()
    assert "Los Anchos – Las Flores" in listed
    assert "arbitra" in listed  # the assigned referee
    assert "Ajenos" not in listed


@pytest.mark.parametrize("name", ["referees:matches", "referees:organised"])
def test_the_lists_need_a_login(client, db, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
