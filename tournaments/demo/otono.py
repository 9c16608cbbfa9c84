"""The demo's *Relámpago de Otoño*: Argentine truco at one chico a match, five weeks ago,
finished: the Abierto's people in other pairs, a Swiss of three rounds. With the
Abierto's matches they have the five rated matches the Argentine leaderboard asks."""

from __future__ import annotations

import datetime
import random

from tournaments.championships import services as championship_services
from tournaments.demo import abierto
from tournaments.demo.past import finished_swiss, people_of
from tournaments.demo.table import SEED
from tournaments.models import Championship

SLUG = "relampago-de-otono"

PAIRS = [
    "Los de Siempre",
    "Ancho de Espadas",
    "La Envidia",
    "Los Trasnochados",
    "Cuatro de Copas",
    "Las Malas",
    "Siete de Oro",
    "Los Pardos",
]


def build(today: datetime.date, referees: list) -> Championship:
    rng = random.Random(f"{SEED}-otono")
    day = today - datetime.timedelta(days=35)
    championship = championship_services.championship_create(
        name="Relámpago de Otoño",
        slug=SLUG,
        start_date=day,
        end_date=day,
        venue="Club Social de Gràcia",
        preset="argentine",
        options={"best_of": 1},
        team_size=2,
    )
    people = people_of(abierto.SLUG)
    # Paired anew: the first player of an Abierto pair with the second of the next one.
    pairs = [[people[2 * n], people[2 * n + 3]] for n in range(len(PAIRS))]
    return finished_swiss(
        rng=rng,
        championship=championship,
        teams=list(zip(PAIRS, pairs, strict=True)),
        rounds=3,
        day=day,
        referees=referees,
    )
