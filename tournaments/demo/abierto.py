"""The demo's *Abierto de Truco de Gràcia*: Argentine truco, 16 pairs, four groups of four
then a knockout of eight; the groups are played, two quarter-finals too."""

from __future__ import annotations

import datetime
import random

from django.utils import timezone

from tournaments.championships import services as championship_services
from tournaments.demo.names import SPANISH_FIRST, SPANISH_LAST, draw_names
from tournaments.demo.table import SEED, assign, list_referees, play
from tournaments.models import Championship, Match, Person
from tournaments.stages import services as stage_services

SLUG = "abierto-de-truco"

PAIRS = [
    "Los Anchos",
    "Las Sotas",
    "Siete Bravo",
    "Flor de Ceibo",
    "La Falta Envido",
    "Los Matungos",
    "Vale Cuatro",
    "Mate Amargo",
    "La Parda",
    "Retruco",
    "Las Bravas",
    "Los Tanteros",
    "El Mazo",
    "Quiero Vale",
    "La Ñata",
    "Caballo de Copas",
]


def build(today: datetime.date, referees: list) -> Championship:
    rng = random.Random(f"{SEED}-abierto")
    championship = championship_services.championship_create(
        name="Abierto de Truco de Gràcia",
        slug=SLUG,
        start_date=today - datetime.timedelta(days=2),
        end_date=today + datetime.timedelta(days=3),
        venue="Club Social de Gràcia",
        preset="argentine",
        team_size=2,
    )
    list_referees(championship, referees)
    players = draw_names(rng, SPANISH_FIRST, SPANISH_LAST, 32)
    for seed, name in enumerate(PAIRS, start=1):
        championship_services.team_create(
            championship=championship,
            name=name,
            seed=seed,
            club=rng.choice(["Gràcia", "Sants", "Rosario", "Córdoba", "Buenos Aires"]),
            players=players[2 * seed - 2 : 2 * seed],
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    # Named by its format, as most stages are: each reader sees that name in his language.
    stage = stage_services.stage_create(
        championship=championship,
        format="groups_knockout",
        settings={"group_count": 4, "advance": 2},
    )
    start = timezone.make_aware(
        datetime.datetime.combine(championship.start_date, datetime.time(17))
    )
    for number in range(3):
        created = stage_services.round_generate(stage=stage)
        play(rng, created, referees, start + datetime.timedelta(hours=2 * number))
    quarters = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.bracket_id)
    assign(quarters, referees, start + datetime.timedelta(days=1))
    play(rng, quarters[:2], referees, start + datetime.timedelta(days=1))
    # The semi-final the two played quarter-finals made: a table and a referee too.
    waiting = stage.matches.filter(referee__isnull=True, team_b__isnull=False).exclude(
        status__in=Match.DECIDED
    )
    assign(list(waiting.order_by("pk")), referees, start + datetime.timedelta(days=1, hours=2))
    return championship


def regulars() -> list[Person]:
    """Three people who played the Abierto, the first of its first three teams."""
    return [
        team.memberships.order_by("order").first().player.person
        for team in Championship.objects.get(slug=SLUG).teams.order_by("seed")[:3]
    ]
