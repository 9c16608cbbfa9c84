"""A refused entry stays refused: the team's page opened before the refusal, its acts
posted after it (withdraw, check in, confirm, dispute) are refused with a sentence in the
team's language, and the organiser's reason is kept. The organiser's own withdrawal of a
refused entry is refused too (the API answers 409)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.api.conftest import V1, client_for
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tournaments.entries import acts
from tournaments.entries import services as entry_services
from tournaments.models import Championship, CheckIn, Entry, MatchConfirmation, TeamAct
from tournaments.stages import services as stage_services

REASON = "Two of your players play for another team"
SENTENCES = {
    "en": "was refused: it stays refused",
    "es": "fue rechazada: sigue rechazada",
    "ca": "va ser rebutjada: continua rebutjada",
}


def _entered(status: Championship.Status = Championship.Status.REGISTRATION):
    championship = ChampionshipFactory(slug="copa", status=status)
    team = TeamFactory(championship=championship, seed=1)
    entry = Entry.objects.create(
        championship=championship, team=team, status="accepted", position=1
    )
    return championship, team, entry


def _url(championship, team) -> str:
    token = entry_services.link_issue(team=team, via="organiser")
    return reverse("tournaments:team_link", args=[championship.slug, token])


def _refuse(entry) -> None:
    entry_services.entry_refuse(entry=entry, by=None, via="organiser", reason=REASON)


@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_a_withdrawal_posted_from_a_page_opened_before_the_refusal_changes_nothing(
    client, db, language
):
    championship, team, entry = _entered()
    url = _url(championship, team)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'value="withdraw"' in page  # opened while the team was still entered
    _refuse(entry)
    answer = client.post(
        url,
        {"action": "withdraw", "reason": "We cannot come"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 200
    assert SENTENCES[language] in answer.content.decode()
    entry.refresh_from_db()
    assert (entry.status, entry.reason) == ("refused", REASON)
    assert not TeamAct.objects.filter(action="withdrawn").exists()


def test_no_act_of_a_refused_team_goes_through_its_link(client, db):
    championship, team, entry = _entered(Championship.Status.RUNNING)
    rival = TeamFactory(championship=championship, seed=2)
    Entry.objects.create(championship=championship, team=rival, status="accepted", position=2)
    league = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=league)[0]
    play(match, rival)
    stage_services.stage_create(championship=championship, format="swiss", name="Final")
    acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=1)
    )
    url = _url(championship, team)
    _refuse(entry)
    for data in (
        {"action": "check_in"},
        {"action": "confirm", "match": match.pk},
        {"action": "dispute", "match": match.pk, "comment": "It was ours"},
        {"action": "withdraw"},
    ):
        answer = client.post(url, data, follow=True, HTTP_ACCEPT_LANGUAGE="en")
        assert SENTENCES["en"] in answer.content.decode(), data
    entry.refresh_from_db()
    assert (entry.status, entry.reason) == ("refused", REASON)
    assert not CheckIn.objects.filter(team=team).exists()
    assert not MatchConfirmation.objects.exists()
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The page no longer offers what the team may not do.
    for act in ("check_in", "confirm", "dispute", "withdraw"):
        assert f'value="{act}"' not in page


def test_the_organisers_api_cannot_turn_a_refusal_into_a_withdrawal(db):
    championship, _team, entry = _entered()
    organiser = UserFactory(username="organiser")
    championship.organisers.add(organiser)
    _refuse(entry)
    api = client_for(organiser, language="es")
    answer = api.post(f"{V1}/entries/{entry.pk}/withdraw/", {"reason": "x"}, format="json")
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert error["code"] == "entry_refused" and SENTENCES["es"] in error["message"]
    entry.refresh_from_db()
    assert (entry.status, entry.reason) == ("refused", REASON)


def test_a_withdrawn_team_can_still_tap_withdraw_again(client, db):
    championship, team, entry = _entered()
    url = _url(championship, team)
    client.post(url, {"action": "withdraw", "reason": "Ill"})
    again = client.post(url, {"action": "withdraw"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "has withdrawn from" in again.content.decode()
    entry.refresh_from_db()
    assert (entry.status, entry.reason) == ("withdrawn", "Ill")
    assert TeamAct.objects.filter(action="withdrawn").count() == 1
