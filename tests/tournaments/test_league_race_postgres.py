"""Two organisers moving two matches of one league team to the same day at once: one
move goes through, the other is refused (``team_busy``), as one after the other.

Each kind of move that reads the other matches to decide (a postponement, a match's new
date, a matchday's new date, a time assigned on the round's page or through the API)
races a postponement. A pause after the check (both wait there for each other) makes the
race certain rather than likely: without a lock both pass the check; with the
championship's lock the second cannot reach its check before the first commits, so the
first waits out the pause alone.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import threading

import pytest
from django.db import connection, connections
from django.db.models import Q
from django.utils import timezone

from tests.tournaments.test_league import ZONE, make_league
from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.results import services as result_services
from tournaments.stages import league

PAUSE = 3  # seconds a move waits, after its check, for the other to pass its own


def _two_matches_of_one_team():
    """A league of four; matchdays 1 and 2's matches of one team, and a free day."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    _championship, stage, teams = make_league(4)
    team = teams[0]
    mine = Q(team_a=team) | Q(team_b=team)
    first = stage.matches.filter(mine, round__number=1).get()
    second = stage.matches.filter(mine, round__number=2).get()
    return stage, first, second, dt.date(2026, 3, 27)  # a Friday no match is played


def _race(monkeypatch, *moves) -> list[str]:
    """Run each move in its own thread, released together; their outcomes."""
    start, after_check = threading.Barrier(len(moves)), threading.Barrier(len(moves))
    check = league._check_free

    def paused(*args, **kwargs):
        check(*args, **kwargs)
        # Broken: the other is waiting for this one's lock, there is no race to wait for.
        with contextlib.suppress(threading.BrokenBarrierError):
            after_check.wait(timeout=PAUSE)

    monkeypatch.setattr(league, "_check_free", paused)
    outcomes = [""] * len(moves)

    def run(index: int, move) -> None:
        try:
            start.wait()
            move()
            outcomes[index] = "moved"
        except TournamentError as error:
            outcomes[index] = error.code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, m)) for i, m in enumerate(moves)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def _at(day: dt.date, hour: int = 21) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour), tzinfo=ZONE)


def _days_of(*matches: Match) -> list[dt.date]:
    found = Match.objects.filter(pk__in=[m.pk for m in matches]).order_by("pk")
    return [timezone.localtime(m.scheduled_at, ZONE).date() for m in found]


def _postpone(match: Match, day: dt.date):
    return lambda: league.match_postpone(match=match, to=_at(day), reason="Lluvia")


@pytest.mark.django_db(transaction=True)
def test_two_postponements_to_one_day_at_once(monkeypatch):
    _stage, first, second, day = _two_matches_of_one_team()
    outcomes = _race(monkeypatch, _postpone(first, day), _postpone(second, day))
    assert sorted(outcomes) == ["moved", "team_busy"]
    assert sorted(_days_of(first, second)).count(day) == 1


@pytest.mark.django_db(transaction=True)
def test_a_reschedule_and_a_postponement_at_once(monkeypatch):
    _stage, first, second, day = _two_matches_of_one_team()
    reschedule = lambda: league.match_schedule(match=first, scheduled_at=_at(day, 20))  # noqa: E731
    outcomes = _race(monkeypatch, reschedule, _postpone(second, day))
    assert sorted(outcomes) == ["moved", "team_busy"]
    assert _days_of(first, second).count(day) == 1


@pytest.mark.django_db(transaction=True)
def test_a_matchday_moved_and_a_postponement_at_once(monkeypatch):
    stage, first, second, day = _two_matches_of_one_team()
    matchday = lambda: league.matchday_set_date(stage=stage, number=2, date=day)  # noqa: E731
    outcomes = _race(monkeypatch, matchday, _postpone(first, day))
    assert sorted(outcomes) == ["moved", "team_busy"]
    assert _days_of(first, second).count(day) == 1


@pytest.mark.django_db(transaction=True)
def test_a_time_assigned_and_a_postponement_at_once(monkeypatch):
    _stage, first, second, day = _two_matches_of_one_team()
    assign = lambda: result_services.match_assign(match=first, scheduled_at=_at(day, 19))  # noqa: E731
    outcomes = _race(monkeypatch, assign, _postpone(second, day))
    assert sorted(outcomes) == ["moved", "team_busy"]
    assert _days_of(first, second).count(day) == 1


@pytest.mark.django_db(transaction=True)
def test_crossed_moves_of_two_teams_end_without_a_deadlock(monkeypatch):
    """Each organiser moves a match the other's also touches (a matchday's and a single
    match): whatever the order, both finish, one refused; a deadlock would be an error."""
    stage, _first, second, day = _two_matches_of_one_team()
    outcomes = _race(
        monkeypatch,
        lambda: league.matchday_set_date(stage=stage, number=1, date=day),
        lambda: result_services.match_assign(match=second, scheduled_at=_at(day, 19), table="3"),
    )
    assert sorted(outcomes) == ["moved", "team_busy"]
