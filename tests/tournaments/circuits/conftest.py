"""Circuits for the tests: events whose teams share people, played through the services."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import pytest
from django.utils import translation

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    Match,
    Membership,
    Person,
    Player,
    Team,
)
from tournaments.stages import services as stage_services


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def make_circuit(**rules) -> Circuit:
    values = {
        "name": "Circuit",
        "slug": "circuit",
        "start_date": datetime.date(2026, 1, 1),
        "end_date": datetime.date(2026, 12, 31),
        "points": [100, 70, 50, 40, 30],
    }
    values.update(rules)
    return Circuit.objects.create(**values)


def make_event(
    circuit: Circuit,
    *,
    day: int,
    kind: str = CircuitEvent.Kind.QUALIFIER,
    place: str = "",
    status: str = Championship.Status.RUNNING,
) -> CircuitEvent:
    championship = ChampionshipFactory(
        name=f"{place or kind} {day}", status=status, start_date=datetime.date(2026, 3, day)
    )
    return CircuitEvent.objects.create(
        circuit=circuit, championship=championship, kind=kind, place=place
    )


def enter(event: CircuitEvent, pairs: Sequence[tuple[Person, Person]]) -> list[Team]:
    """A team for each pair of people, seeded in the order given."""
    teams = []
    for seed, pair in enumerate(pairs, start=1):
        team = Team.objects.create(
            championship=event.championship,
            name=" & ".join(p.name for p in pair) + f" ({event.championship.pk})",
            seed=seed,
        )
        for order, person in enumerate(pair, start=1):
            player = Player.objects.create(name=person.name, person=person)
            Membership.objects.create(team=team, player=player, order=order)
        teams.append(team)
    return teams


def play_knockout(event: CircuitEvent) -> None:
    """A single elimination the better seed always wins, every result from hands."""
    stage = stage_services.stage_create(
        championship=event.championship, format="single_elimination"
    )
    stage_services.round_generate(stage=stage)
    while stage.matches.filter(status=Match.Status.SCHEDULED).exists():
        for match in stage.matches.filter(status=Match.Status.SCHEDULED):
            if not match.is_bye and not match.is_decided:
                a, b = match.team_a, match.team_b
                play(match, a if a.seed < b.seed else b)


@pytest.fixture
def people(db) -> dict[str, Person]:
    names = ["Ana", "Bea", "Cai", "Dan", "Eva", "Fer", "Gil", "Hug", "Ina", "Joan", "Kai", "Lia"]
    return {name[0].lower(): Person.objects.create(name=name) for name in names}
