"""Two reports of one match at once (two teams, or a team and the organiser's desk) give
one result, and the other report becomes an answer to it (PostgreSQL, threads behind a
barrier)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.errors import TournamentError
from tournaments.models import HandRevision, Match, MatchConfirmation, Scorekeeping
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

A_WINS = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 12}}]
B_WINS = [{"score": {"A": 20, "B": 30}}, {"score": {"A": 11, "B": 30}}]


def _match() -> tuple[Match, object]:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    organiser = get_user_model().objects.create_user(username="organiser")
    championship = ChampionshipFactory(scorekeeping=Scorekeeping.RESULTS)
    championship.organisers.add(organiser)
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    return stage_services.round_generate(stage=stage)[0], organiser


def _race(*writes: Callable[[], object]) -> list[str]:
    barrier = threading.Barrier(len(writes))
    outcomes: list[str] = []

    def run(write: Callable[[], object]) -> None:
        try:
            barrier.wait()
            write()
            outcomes.append("stored")
        except TournamentError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(write,)) for write in writes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", [True, False])
def test_both_teams_reporting_at_once_give_one_result(same):
    match, _ = _match()
    _race(
        lambda: result_services.match_result_report(match=match, side="A", games=A_WINS),
        lambda: result_services.match_result_report(
            match=match, side="B", games=A_WINS if same else B_WINS
        ),
    )
    match.refresh_from_db()
    assert match.games.count() == 2
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    answers = dict(match.confirmations.values_list("side", "status"))
    assert set(answers) == {"A", "B"}
    if same:
        assert set(answers.values()) == {MatchConfirmation.Status.CONFIRMED}
        assert match.confirmed_at is not None
    else:
        # The first stored is the result; the other side's report is its dispute.
        reporter = match.reported_side
        other = "B" if reporter == "A" else "A"
        assert answers == {
            reporter: MatchConfirmation.Status.CONFIRMED,
            other: MatchConfirmation.Status.DISPUTED,
        }
        assert match.winner_id == (match.team_a_id if reporter == "A" else match.team_b_id)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", [True, False])
def test_a_report_racing_the_desk_gives_one_result(same):
    match, organiser = _match()
    outcomes = _race(
        lambda: result_services.match_result_report(match=match, side="B", games=B_WINS),
        lambda: result_services.match_result_record(
            match=match, games=B_WINS if same else A_WINS, by=organiser
        ),
    )
    match.refresh_from_db()
    assert match.games.count() == 2
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    if same:
        assert outcomes == ["stored", "stored"]
        assert match.confirmed_at is not None
    else:
        # Whichever came first holds and the other is told why: the desk never overwrites
        # a team's report, and the desk's result (the sheet both teams signed) is already
        # every side's answer when a team's report comes after it.
        assert sorted(outcomes) in (["result_differs", "stored"], ["already_answered", "stored"])
        if "result_differs" in outcomes:
            assert match.winner_id == match.team_b_id and match.reported_side == "B"
        else:
            assert match.winner_id == match.team_a_id and match.reported_side == ""
            assert match.confirmed_at is not None
