"""A phone keeping the score hand by hand and a report of the result for the same match
(docs/tournaments.md, "No referee at the table"): the first stored wins, the other is
told why, and nothing is lost silently. In turn through the API the phone's sheet uses,
then at once on PostgreSQL (threads behind a barrier)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections
from django.urls import reverse

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import reports, scoresheet
from tournaments.entries import services as entry_services
from tournaments.errors import TournamentError
from tournaments.models import Hand, Match, Scorekeeping, TeamAct, TeamLink
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

A_WINS = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 12}}]


def _match() -> Match:
    championship = ChampionshipFactory(scorekeeping=Scorekeeping.PLAYERS)
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    result_services.match_start(match=match)
    match.refresh_from_db()
    return match


def _link(team) -> tuple[TeamLink, str]:
    token = entry_services.link_issue(team=team, via=TeamAct.Via.ORGANISER)
    return team.links.get(revoked_at__isnull=True), token


def _post_hand(client, match: Match, token: str, record: dict, number: int = 1):
    return client.post(
        reverse("api:hands", args=[match.pk]),
        {"number": number, "device": "phone-of-ana", **record},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"TeamLink {token}",
        HTTP_ACCEPT_LANGUAGE="en",
    )


@pytest.mark.django_db
def test_a_result_reported_while_the_phone_was_offline_refuses_its_hand_saying_why(client):
    match = _match()
    _link_a, token_a = _link(match.team_a)
    link_b, _token_b = _link(match.team_b)
    record = chico_hand(match, "A")  # kept on the phone, not sent yet
    reports.link_report(team=match.team_b, match=match, games=A_WINS, link=link_b)
    response = _post_hand(client, match, token_a, record)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "result_reported"
    assert error["message"].startswith("The result of this match has been reported")
    assert not Hand.objects.filter(match=match).exists()
    assert not TeamAct.objects.filter(action=TeamAct.Action.HAND_RECORDED).exists()
    match.refresh_from_db()
    assert match.recorded == Match.Recorded.RESULT and match.status == Match.Status.FINISHED


@pytest.mark.django_db
def test_a_hand_stored_first_refuses_the_report_saying_why(client):
    match = _match()
    _link_a, token_a = _link(match.team_a)
    link_b, _token_b = _link(match.team_b)
    assert _post_hand(client, match, token_a, chico_hand(match, "A")).status_code == 201
    with pytest.raises(TournamentError) as refused:
        reports.link_report(team=match.team_b, match=match, games=A_WINS, link=link_b)
    assert refused.value.code == "kept_hand_by_hand"
    assert "is being kept hand by hand" in refused.value.text
    assert Hand.objects.filter(match=match).count() == 1
    assert TeamAct.objects.filter(action=TeamAct.Action.HAND_RECORDED).count() == 1
    assert not TeamAct.objects.filter(action=TeamAct.Action.REPORTED).exists()


@pytest.mark.django_db
def test_the_phones_hand_sent_twice_is_stored_and_logged_once(client):
    match = _match()
    _link_a, token_a = _link(match.team_a)
    record = chico_hand(match, "A")
    assert _post_hand(client, match, token_a, record).status_code == 201
    # The answer lost on the way: the outbox sends the same hand again.
    again = _post_hand(client, match, token_a, record)
    assert again.status_code == 200
    assert Hand.objects.filter(match=match).count() == 1
    assert TeamAct.objects.filter(action=TeamAct.Action.HAND_RECORDED).count() == 1


@pytest.mark.django_db
def test_the_api_refuses_a_phone_where_it_may_not_keep_the_score(client):
    match = _match()
    _link_a, token_a = _link(match.team_a)
    outsider = TeamFactory(championship=match.stage.championship, seed=3)
    _link_c, token_c = _link(outsider)
    draft = reverse("api:draft", args=[match.pk])
    auth = {"HTTP_AUTHORIZATION": f"TeamLink {token_c}", "HTTP_ACCEPT_LANGUAGE": "en"}
    assert client.get(draft, **auth).status_code == 404
    championship = match.stage.championship
    championship.scorekeeping = Scorekeeping.REFEREES
    championship.save(update_fields=["scorekeeping"])
    response = _post_hand(client, match, token_a, chico_hand(match, "A"))
    assert response.status_code == 403
    assert "the referees keep the score" in response.json()["error"]["message"]
    entry_services.link_revoke(team=match.team_a)
    assert _post_hand(client, match, token_a, chico_hand(match, "A")).status_code == 401
    assert not Hand.objects.exists()


def _race(*writes: Callable[[], object]) -> list[str]:
    barrier = threading.Barrier(len(writes))
    outcomes: list[str] = [""] * len(writes)

    def run(index: int, write: Callable[[], object]) -> None:
        try:
            barrier.wait()
            write()
            outcomes[index] = "stored"
        except TournamentError as error:
            outcomes[index] = error.code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate(writes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_the_phones_hand_and_a_report_at_once_store_one_way_of_recording():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    match = _match()
    link_a, _token_a = _link(match.team_a)
    link_b, _token_b = _link(match.team_b)
    record = chico_hand(match, "A")
    outcomes = _race(
        lambda: scoresheet.link_hand_record(
            team=match.team_a, link=link_a, match=match, number=1, record=record, device="ph"
        ),
        lambda: reports.link_report(team=match.team_b, match=match, games=A_WINS, link=link_b),
    )
    match.refresh_from_db()
    hands = Hand.objects.filter(match=match).count()
    logged = set(TeamAct.objects.values_list("action", flat=True))
    if outcomes[0] == "stored":
        assert outcomes[1] == "kept_hand_by_hand"
        assert match.recorded == Match.Recorded.HANDS and hands == 1
        assert TeamAct.Action.REPORTED not in logged
    else:
        assert outcomes == ["result_reported", "stored"]
        assert match.recorded == Match.Recorded.RESULT and hands == 0
        assert TeamAct.Action.HAND_RECORDED not in logged
