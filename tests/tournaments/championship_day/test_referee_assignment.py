"""A championship's referees: added from existing users, assigned per match or per round,
only those on its list offered and accepted, each seeing only his own matches."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.tournaments.championship_day.conftest import PASSWORD, User, url
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.models import Match
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


def test_add_an_existing_user_the_list_shows_full_names_not_the_organiser(
    organiser_client, organiser, championship, teams
):
    User.objects.create_superuser(username="root", password=PASSWORD)
    ana = User.objects.create_user(
        username="ana", email="ana@example.org", first_name="Ana", last_name="Gil"
    )
    response = organiser_client.post(
        url("referees", championship.slug),
        {"action": "add", "add-user": "ANA@example.org"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Ana Gil (ana) referees in this championship." in response.content.decode()
    missing = organiser_client.post(
        url("referees", championship.slug),
        {"action": "add", "add-user": "nobody"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "No active account" in missing.content.decode()

    stage = stage_services.stage_create(championship=championship, format="round_robin")
    round_ = stage_services.round_generate(stage=stage)[0].round
    page = organiser_client.get(url("round_assign", championship.slug, stage.pk, round_.number))
    html = page.content.decode()
    assert "Ana Gil (ana)" in html
    # The organiser (and a superuser) act on every match, but are not offered as referees.
    choices = championship_selectors.referee_choices(championship)
    assert list(choices) == [ana]
    assert ">root<" not in html and ">marta<" not in html


def test_the_round_offers_and_accepts_only_the_championships_referees(
    organiser_client, championship, teams
):
    """Neither a member of the site-wide ``referees`` group nor a referee of another
    championship is offered; sent anyway, the form refuses him and nothing is assigned."""
    ours = RefereeFactory(username="nuestra", championships=[championship])
    grouped = RefereeFactory(username="del.grupo")
    grouped.groups.add(Group.objects.get_or_create(name="referees")[0])
    theirs = RefereeFactory(username="ajena", championships=[ChampionshipFactory()])
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    page_url = url("round_assign", championship.slug, stage.pk, 1)
    html = organiser_client.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">nuestra<" in html
    assert "del.grupo" not in html and "ajena" not in html
    assert "Only this championship's referees are listed" in html

    for outsider in (grouped, theirs):
        whole = organiser_client.post(
            page_url, {"action": "round", "round-referee": outsider.pk}, HTTP_ACCEPT_LANGUAGE="en"
        )
        assert whole.status_code == 200
        assert "Select a valid choice" in whole.content.decode()
        one = organiser_client.post(
            page_url,
            {
                "form-TOTAL_FORMS": "1",
                "form-INITIAL_FORMS": "1",
                "form-0-match": matches[0].pk,
                "form-0-referee": outsider.pk,
            },
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert one.status_code == 200
        assert "Select a valid choice" in one.content.decode()
        assert not Match.objects.filter(referee__isnull=False).exists()
        # The services refuse him too, whoever calls them (the API, a command).
        with pytest.raises(ValidationError) as refused:
            result_services.match_assign(match=matches[0], referee=outsider)
        assert refused.value.code == "not_championship_referee"
        with pytest.raises(ValidationError) as refused:
            result_services.round_assign_referee(round=matches[0].round, referee=outsider)
        assert refused.value.code == "not_championship_referee"
    assert result_services.round_assign_referee(round=matches[0].round, referee=ours) == 2


def test_assign_a_whole_round_then_the_referee_sees_only_his_matches(
    organiser_client, client, championship, teams
):
    jordi = User.objects.create_user(username="jordi", password=PASSWORD, first_name="Jordi")
    championship_services.referee_add(championship=championship, user=jordi, added_by=None)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    second = stage_services.round_generate(stage=stage)
    response = organiser_client.post(
        url("round_assign", championship.slug, stage.pk, 1),
        {"action": "round", "round-referee": jordi.pk},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "referees the 2 matches of this round" in response.content.decode()
    assert {m.referee_id for m in Match.objects.filter(round=first[0].round)} == {jordi.pk}
    assert not Match.objects.filter(round=second[0].round, referee__isnull=False).exists()

    # Per match, from the same page's formset, a match of round 2.
    match = second[0]
    result_services.match_assign(match=match, referee=jordi)

    client.force_login(jordi)
    listed = client.get(reverse("referees:matches"))
    rows = [row for section in listed.context["sections"] for row in section["rows"]]
    assert {row["match"].pk for row in rows} == {
        *(m.pk for m in first),
        match.pk,
    }
    assert client.get(reverse("referees:sheet", args=[match.pk])).status_code == 200
    other = second[1]
    assert client.get(reverse("referees:sheet", args=[other.pk])).status_code == 404
    # A referee of the championship (on its list) records hands of his match.
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=jordi)
    # Taken off the list: his matches still to play lose him.
    assert championship_services.referee_remove(championship=championship, user=jordi) == 3
    assert not championship_selectors.is_referee(jordi, championship)
