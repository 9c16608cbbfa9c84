"""Forty teams entering at once for sixteen places; the same form sent twice at once.

The championship lock serialises the writers: places and arrival numbers are counted
under it, so no two entries share a number and no place is given twice.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.tournaments.factories import ChampionshipFactory
from tournaments.entries import services
from tournaments.errors import TournamentError
from tournaments.models import Championship, Entry, Team, TeamAct
from tournaments.people.services import PersonDetails


def _championship(capacity: int) -> Championship:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=capacity,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    return championship


def _at_once(count: int, submit) -> list[str]:
    """Run ``submit(n)`` in ``count`` threads released together; their outcomes."""
    barrier = threading.Barrier(count)
    outcomes: list[str] = []

    def run(number: int) -> None:
        try:
            barrier.wait()
            submit(number)
            outcomes.append("entered")
        except TournamentError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_forty_teams_at_once_fill_sixteen_places_and_wait_in_arrival_order():
    championship = _championship(capacity=16)

    def submit(number: int) -> None:
        services.entry_submit(
            championship=championship,
            team_name=f"Equipo {number}",
            players=[PersonDetails(name=f"J{number}a"), PersonDetails(name=f"J{number}b")],
            form_key=f"form-{number}",
        )

    assert _at_once(40, submit) == ["entered"] * 40
    entries = list(Entry.objects.filter(championship=championship).order_by("position"))
    assert [e.position for e in entries] == list(range(1, 41))
    statuses = [e.status for e in entries]
    # Places go by arrival: the first sixteen to take the lock hold them.
    assert statuses == ["pending"] * 16 + ["waiting"] * 24
    assert Team.objects.filter(championship=championship).count() == 40
    assert TeamAct.objects.filter(championship=championship, action="entered").count() == 16
    assert TeamAct.objects.filter(championship=championship, action="waiting").count() == 24

    # A withdrawal gives its place to the first waiting team: arrival 17.
    promoted = services.entry_withdraw(team=entries[3].team, via=TeamAct.Via.ORGANISER)
    assert [e.position for e in promoted] == [17]
    assert Entry.objects.get(pk=entries[16].pk).status == "pending"
    assert Entry.objects.filter(championship=championship, status="waiting").count() == 23


@pytest.mark.django_db(transaction=True)
def test_the_same_form_sent_twice_at_once_enters_one_team():
    championship = _championship(capacity=16)

    def submit(_number: int) -> None:
        services.entry_submit(
            championship=championship,
            team_name="Los Pardos",
            players=[PersonDetails(name="Ana"), PersonDetails(name="Juan")],
            form_key="one-form",
        )

    assert _at_once(2, submit) == ["entered", "entered"]
    assert Team.objects.filter(championship=championship).count() == 1
    assert Entry.objects.filter(championship=championship).count() == 1
