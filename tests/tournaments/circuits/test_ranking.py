"""The circuit ranking's rules: points per place times the weight, shared places, best N,
the tie-breaks; the pure computation, then the selector over stored placements."""

import datetime
from decimal import Decimal

import pytest
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, PersonFactory
from tournaments.circuits import ranking
from tournaments.circuits.selectors import circuit_ranking, person_circuit_lines
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    CircuitPlacement,
    CircuitQualification,
)

TABLE = [100, 70, 50, 40, 30]


def events(*weights):
    return [ranking.EventRule(id=n, weight=Decimal(w), order=(n,)) for n, w in enumerate(weights)]


def test_points_times_weight_and_shared_places_score_the_shared_place():
    persons, teams = ranking.rank(
        events=events("1", "2"),
        rows=[
            ranking.Row(0, "1-2", 1, False),
            ranking.Row(0, "3-4", 3, True),
            ranking.Row(0, "5-6", 3, True),
            ranking.Row(1, "3-4", 2, False),
            ranking.Row(1, "7-8", 9, False),  # past the end of the table: nothing
        ],
        table=TABLE,
        best_of=None,
    )
    by_key = {line.key: line for line in teams}
    assert by_key["3-4"].points == Decimal(50 + 140)
    assert by_key["5-6"].points == 50  # tied 3rd: the 3rd's points, not the average of 3rd-4th
    assert by_key["7-8"].points == 0
    assert [line.key for line in teams] == ["3-4", "1-2", "5-6", "7-8"]
    # Every player of a team scores the team's points.
    assert {line.key: line.points for line in persons}["4"] == 190


def test_only_the_best_n_count_and_the_rest_are_shown_uncounted():
    _, teams = ranking.rank(
        events=events("1", "1", "1"),
        rows=[
            ranking.Row(0, "1-2", 5, False),
            ranking.Row(1, "1-2", 1, False),
            ranking.Row(2, "1-2", 2, False),
        ],
        table=TABLE,
        best_of=2,
    )
    (line,) = teams
    assert line.points == 170
    assert [(r.event_id, r.counted) for r in line.results] == [(0, False), (1, True), (2, True)]


def test_tie_breaks_better_results_then_more_events_then_shared_rank():
    _, teams = ranking.rank(
        events=events("1", "1", "1", "1"),
        rows=[
            # 100 in all: 100 beats 70 + 30 on the best result.
            ranking.Row(0, "1-2", 1, False),
            ranking.Row(1, "3-4", 2, False),
            ranking.Row(2, "3-4", 5, False),
            # 70 + 30 too, and one more event played (past the table): ahead of 3-4.
            ranking.Row(0, "5-6", 2, False),
            ranking.Row(1, "5-6", 5, False),
            ranking.Row(3, "5-6", 8, False),
            # Equal on everything: they share their rank.
            ranking.Row(3, "7-8", 3, True),
            ranking.Row(3, "9-10", 3, True),
        ],
        table=TABLE,
        best_of=None,
    )
    assert [(line.key, line.rank, line.tied) for line in teams] == [
        ("1-2", 1, False),
        ("5-6", 2, False),
        ("3-4", 3, False),
        ("7-8", 4, True),
        ("9-10", 4, True),
    ]


@pytest.fixture
def circuit(db):
    return Circuit.objects.create(
        name="Circuit",
        slug="circuit",
        start_date=datetime.date(2026, 1, 1),
        end_date=datetime.date(2026, 12, 31),
        points=TABLE,
        best_of=2,
    )


def event(circuit, day, status=Championship.Status.FINISHED, weight="1", kind="qualifier"):
    championship = ChampionshipFactory(status=status, start_date=datetime.date(2026, 3, day))
    return CircuitEvent.objects.create(
        circuit=circuit, championship=championship, weight=Decimal(weight), kind=kind
    )


def place(event, team_people, place, tied=False):
    from tests.tournaments.factories import TeamFactory

    team = TeamFactory(championship=event.championship)
    CircuitPlacement.objects.create(
        event=event,
        team=team,
        people_key=ranking.people_key(p.pk for p in team_people),
        place=place,
        tied=tied,
    )


def test_the_selector_counts_finished_and_running_events_not_those_to_come(circuit):
    ana, bea, cai, dan = (PersonFactory(name=n) for n in ("Ana Ruiz", "Bea Sol", "Cai Mar", "Dan"))
    first = event(circuit, 1)
    second = event(circuit, 2, status=Championship.Status.RUNNING, weight="2")
    third = event(circuit, 3, status=Championship.Status.REGISTRATION)
    place(first, [ana, bea], 1)
    place(first, [cai, dan], 2)
    place(second, [ana, cai], 1)
    place(third, [dan, bea], 1)
    CircuitQualification.objects.create(
        circuit=circuit, people_key=ranking.people_key([ana.pk, bea.pk]), place=1, event=first
    )
    with translation.override("en"):
        result = circuit_ranking(circuit=circuit)
    persons = {line.name: line for line in result.persons}
    assert persons["Ana Ruiz"].points == 300 and persons["Ana Ruiz"].rank == 1
    assert persons["Cai Mar"].points == 270
    assert persons["Dan"].points == 70  # the event to come scores nothing
    assert persons["Ana Ruiz"].qualified and not persons["Dan"].qualified
    assert [r.provisional for r in persons["Ana Ruiz"].results] == [False, True]
    team = result.teams[0]
    assert team.name == "Ana Ruiz / Cai Mar"  # person ids in order
    assert team.points == 200 and not team.qualified
    assert "Only the best 2 results of each player and team count." in result.tiebreaks
    lines = person_circuit_lines(person=cai)
    assert [(c, line.points) for c, line in lines] == [(circuit, Decimal(270))]
