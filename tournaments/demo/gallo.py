"""The demo's gallo championship: nine players at tables of three, gallo por turno.

A round robin of tables (``tables_round_robin``): rounds one and two played, the third
under way (one table played, the others waiting for their referee). Each hand is played
through the engine like the other demos' (:func:`tournaments.demo.table.play_match_hands`, which
asks the engine what the next hand is: at a table of three its gallo, who changes every
hand)."""

from __future__ import annotations

import datetime
import random

from django.utils import timezone

from tournaments.championships import services as championship_services
from tournaments.demo.table import SEED, assign, list_referees, play_match_hands
from tournaments.models import Championship
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

SLUG = "gallo-de-los-jueves"
PLAYERS = [
    "Ramiro Acosta",
    "Lucía Benítez",
    "Nahuel Ferreyra",
    "Carmen Roldán",
    "Tomás Quiroga",
    "Inés Paredes",
    "Julián Sosa",
    "Marta Villalba",
    "Ezequiel Godoy",
]


def build(today: datetime.date, referees: list) -> Championship:
    rng = random.Random(f"{SEED}-gallo")
    championship = championship_services.championship_create(
        name="Gallo de los Jueves",
        slug=SLUG,
        start_date=today - datetime.timedelta(days=1),
        end_date=today + datetime.timedelta(days=1),
        venue="Bar La Esquina",
        preset="argentine",
        options={"gallo": "por_turno", "target": 15},
        team_size=1,
    )
    list_referees(championship, referees)
    for seed, name in enumerate(PLAYERS, start=1):
        championship_services.team_create(
            championship=championship, name=name, seed=seed, players=[name]
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    start = timezone.make_aware(
        datetime.datetime.combine(championship.start_date, datetime.time(20))
    )
    for number in range(3):
        created = stage_services.round_generate(stage=stage)
        when = start + datetime.timedelta(hours=number)
        assign(created, referees, when)
        # Round three is under way: its first table is played, the others wait.
        for match in created if number < 2 else created[:1]:
            if match.is_bye:
                continue
            match.refresh_from_db()
            referee = match.referee
            result_services.match_start(match=match)
            shown = result_selectors.match_detail(pk=match.pk)
            hands = play_match_hands(rng, shown)
            result_services.match_hands_import(match=shown, records=hands, recorded_by=referee)
    return championship
