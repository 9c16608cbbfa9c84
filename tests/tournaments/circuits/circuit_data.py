"""A small circuit played through the services, for the circuit pages' tests: the Open
Truc Mallorca with a qualifier (Inca), a ranking event worth double (Palma), a qualifier
(Manacor), played in that order, and a final taking entries; the same four teams of two
play each event (a four-team bracket: the semi-finals' losers share the 3rd place), the
best two results count.

Points (100, 70, 50, 40; Palma's doubled), the counted ones first:
Los Anchos 200 + 100 (70 left out) = 300, 1st: won Inca, entered in the final;
Colla Blava 100 + 100 (70 left out) = 200, 2nd: won Manacor, entered;
Truquers 140 + 50 (50 left out) = 190, 3rd: entered by circuit points;
Sa Pobla 100 + 50 (50 left out) = 150, 4th.
Each team's two players share its points: they are tied in the players' ranking.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, PersonFactory, PlayerFactory
from tournaments.circuits import qualification
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    Match,
    Membership,
    Person,
    Team,
)
from tournaments.stages import services as stage_services

# The teams' players by team name; each event's seeds (the favourite wins every match).
TEAMS = {
    "Los Anchos": ("Ana Ruiz Soler", "Bruno Pons"),
    "Colla Blava": ("Carme Vidal", "Dani Mas"),
    "Truquers": ("Eva Font", "Ferran Coll"),
    "Sa Pobla": ("Gina Rosselló", "Hugo Sastre"),
}
SEEDS = {
    "inca": ["Los Anchos", "Colla Blava", "Truquers", "Sa Pobla"],
    "manacor": ["Colla Blava", "Los Anchos", "Sa Pobla", "Truquers"],
    "palma": ["Los Anchos", "Truquers", "Colla Blava", "Sa Pobla"],
}


@dataclass
class Played:
    circuit: Circuit
    events: dict[str, CircuitEvent]
    persons: dict[str, Person]
    final: CircuitEvent


def _team(championship: Championship, name: str, seed: int, persons: dict[str, Person]) -> Team:
    team = Team.objects.create(championship=championship, name=name, seed=seed)
    for order, player_name in enumerate(TEAMS[name], start=1):
        person = persons[player_name]
        Membership.objects.create(
            team=team, player=PlayerFactory(name=person.name, person=person), order=order
        )
    return team


def _favourite(match: Match) -> Team:
    return match.team_a if match.team_a.seed < match.team_b.seed else match.team_b


def play_event(championship: Championship) -> None:
    """Play a four-team bracket to its end, the better seed winning, and finish it."""
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    stage_services.round_generate(stage=stage)
    while True:
        waiting = [m for m in stage.matches.all() if not m.is_bye and not m.is_decided]
        if waiting:
            for match in waiting:
                play(match, _favourite(match))
            continue
        try:
            stage_services.round_generate(stage=stage)
        except Exception:
            break
    Championship.objects.filter(pk=championship.pk).update(status=Championship.Status.FINISHED)


def circuit_played() -> Played:
    persons = {name: PersonFactory(name=name) for pair in TEAMS.values() for name in pair}
    circuit = Circuit.objects.create(
        name="Open Truc Mallorca",
        slug="open-truc",
        start_date=datetime.date(2026, 4, 1),
        end_date=datetime.date(2026, 7, 1),
        points=[100, 70, 50, 40],
        best_of=2,
        qualify_per_event=1,
        qualify_by_points=1,
    )
    events = {}
    for day, (key, place, kind, weight) in enumerate(
        [
            ("inca", "Inca", CircuitEvent.Kind.QUALIFIER, 1),
            ("palma", "Palma", CircuitEvent.Kind.RANKING, 2),
            ("manacor", "Manacor", CircuitEvent.Kind.QUALIFIER, 1),
        ]
    ):
        championship = ChampionshipFactory(
            name=f"Truc {place} 2026",
            slug=f"truc-{key}",
            start_date=datetime.date(2026, 5, 1 + 7 * day),
            status=Championship.Status.RUNNING,
        )
        events[key] = CircuitEvent.objects.create(
            circuit=circuit, championship=championship, kind=kind, place=place, weight=weight
        )
    final = CircuitEvent.objects.create(
        circuit=circuit,
        championship=ChampionshipFactory(
            name="Final Open Truc 2026",
            slug="truc-final",
            start_date=datetime.date(2026, 6, 20),
            status=Championship.Status.REGISTRATION,
        ),
        kind=CircuitEvent.Kind.FINAL,
        place="Mallorca",
        weight=Decimal(2),
    )
    for key, event in events.items():
        for seed, name in enumerate(SEEDS[key], start=1):
            _team(event.championship, name, seed, persons)
        play_event(event.championship)
        qualification.circuit_event_refresh(event=event)
    return Played(circuit=circuit, events=events, persons=persons, final=final)
