"""The demo's *Torneig de Truc del Casal*: Catalan truc, 8 squads of three with their caps de
colla, a Swiss of five rounds; two rounds played and half of the third. Three of its
players also played the Abierto: the same people, whose pages show both championships."""

from __future__ import annotations

import datetime
import random

from django.utils import timezone

from tournaments.championships import services as championship_services
from tournaments.demo import abierto
from tournaments.demo.names import CATALAN_FIRST, CATALAN_LAST, draw_names
from tournaments.demo.table import SEED, assign, list_referees, play
from tournaments.models import Championship
from tournaments.people.services import PersonDetails
from tournaments.stages import services as stage_services

SLUG = "torneig-truc-casal"

SQUADS = [
    "Colla del Casal",
    "Els Tres Reis",
    "La Manilla d'Oros",
    "Colla de Sant Andreu",
    "Els Trucaires",
    "Penya del Truc",
    "Colla de Gràcia",
    "Els de la Plaça",
]


def build(today: datetime.date, referees: list) -> Championship:
    rng = random.Random(f"{SEED}-casal")
    championship = championship_services.championship_create(
        name="Torneig de Truc del Casal",
        slug=SLUG,
        start_date=today - datetime.timedelta(days=1),
        end_date=today + datetime.timedelta(days=1),
        venue="Casal de Sant Andreu",
        preset="catalan",
        team_size=3,
        tiebreaks=["points", "buchholz", "median_buchholz", "chico_diff", "lots"],
    )
    list_referees(championship, referees)
    players = draw_names(rng, CATALAN_FIRST, CATALAN_LAST, 24)
    details = [PersonDetails(name=name) for name in players]
    # Three people of the Abierto sit in three squads: one person, two championships.
    for index, person in zip((1, 5, 9), abierto.regulars(), strict=False):
        players[index] = person.name
        details[index] = PersonDetails(name=person.name, person=person)
    for seed, name in enumerate(SQUADS, start=1):
        squad = players[3 * seed - 3 : 3 * seed]
        championship_services.team_create(
            championship=championship,
            name=name,
            seed=seed,
            club=rng.choice(["Sant Andreu", "Gràcia", "Sabadell", "Vic", "Manresa"]),
            players=details[3 * seed - 3 : 3 * seed],
            captain=rng.choice(squad),
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(
        championship=championship,
        format="swiss",
        settings={"rounds": 5},
    )
    start = timezone.make_aware(
        datetime.datetime.combine(championship.start_date, datetime.time(10))
    )
    for number in range(2):
        created = stage_services.round_generate(stage=stage)
        play(rng, created, referees, start + datetime.timedelta(hours=2 * number))
    third = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.pk)
    assign(third, referees, start + datetime.timedelta(hours=4))
    play(rng, third[:2], referees, start + datetime.timedelta(hours=4))
    return championship
