"""The demo's *Torneig Llampec de Tardor*: Catalan truc at one chico a match, three weeks
ago, finished: the Casal's people in the same squads, a Swiss of three rounds. With the
Casal's matches they have the five rated matches the Catalan leaderboard asks."""

from __future__ import annotations

import datetime
import random

from tournaments.championships import services as championship_services
from tournaments.demo import casal
from tournaments.demo.past import finished_swiss, people_of
from tournaments.demo.table import SEED
from tournaments.models import Championship

SLUG = "torneig-llampec-tardor"


def build(today: datetime.date, referees: list) -> Championship:
    rng = random.Random(f"{SEED}-tardor")
    day = today - datetime.timedelta(days=21)
    championship = championship_services.championship_create(
        name="Torneig Llampec de Tardor",
        slug=SLUG,
        start_date=day,
        end_date=day,
        venue="Casal de Sant Andreu",
        preset="catalan",
        options={"best_of": 1},
        team_size=3,
    )
    people = people_of(casal.SLUG)
    squads = [people[3 * n : 3 * n + 3] for n in range(len(casal.SQUADS))]
    return finished_swiss(
        rng=rng,
        championship=championship,
        teams=list(zip(casal.SQUADS, squads, strict=True)),
        rounds=3,
        day=day,
        referees=referees,
    )
