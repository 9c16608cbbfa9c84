"""The league demo: *Liga de Clubes de Truco*, six clubs of Buenos Aires, Argentine truco,
home and away, a matchday a week on weekday evenings at the clubs' own venues.

Halfway through its first round: matchdays 1 and 2 played, matchday 3 partly (one match
played, one postponed for a reason, one still to come). Every hand is played by the
package's random walk over the engine's legal actions (``play``, given by
``tournaments.demo``, which imports this module: no import back).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError
from tournaments.models import Championship, Match
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import league
from tournaments.stages import services as stage_services

SLUG = "liga-de-clubes"
ZONE = "America/Argentina/Buenos_Aires"
# (team, club, venue, address, its own night: weekday and hour, or None for the league's)
CLUBS = [
    ("Club Atlético Boedo", "Boedo", "Sede Boedo", "Av. Boedo 1050, Boedo, CABA", None),
    (
        "Social y Deportivo Almagro",
        "Almagro",
        "Salón Almagro",
        "Bulnes 820, Almagro, CABA",
        (1, 20),
    ),
    (
        "Centro Gallego de Flores",
        "Flores",
        "Buffet del Centro",
        "Rivera Indarte 160, Flores, CABA",
        None,
    ),
    (
        "Club Villa Crespo",
        "Villa Crespo",
        "Sede Social",
        "Serrano 450, Villa Crespo, CABA",
        (3, 21),
    ),
    ("Asociación Vecinal Caballito", "Caballito", "La Vecinal", "Rojas 290, Caballito, CABA", None),
    (
        "Club Parque Chas",
        "Parque Chas",
        "Cantina del Club",
        "Berlín 4290, Parque Chas, CABA",
        (4, 20),
    ),
]
FIRST = ["Rubén", "Norma", "Osvaldo", "Graciela", "Héctor", "Susana", "Carlos", "Mirta"]
LAST = ["Fernández", "Gómez", "Ruiz", "Sosa", "Acosta", "Benítez", "Medina", "Herrera"]


def _play_one(rng: random.Random, match: Match, referee, play: Callable) -> None:
    result_services.match_assign(match=match, referee=referee)
    match = result_services.match_start(match=match)
    wanted = "A" if rng.random() < 0.6 else "B"  # home advantage, a little
    match = result_selectors.match_detail(pk=match.pk)
    hands = play(rng, match, wanted)
    result_services.match_hands_import(match=match, records=hands, recorded_by=referee)


def build(today: datetime.date, referees: list, *, play: Callable) -> Championship:
    """Create the league and play it to the middle of matchday 3."""
    rng = random.Random(f"2026-{SLUG}")
    championship = championship_services.championship_create(
        name="Liga de Clubes de Truco",
        slug=SLUG,
        start_date=today - datetime.timedelta(days=21),
        end_date=today + datetime.timedelta(days=120),
        venue="Buenos Aires",
        preset="argentine",
        team_size=2,
        time_zone=ZONE,
    )
    for user in referees:
        championship_services.referee_add(championship=championship, user=user, added_by=None)
    names: list[str] = []
    while len(names) < 2 * len(CLUBS):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in names:
            names.append(name)
    for seed, (team, club, venue, address, night) in enumerate(CLUBS, start=1):
        created = championship_services.team_create(
            championship=championship,
            name=team,
            seed=seed,
            club=club,
            players=names[2 * seed - 2 : 2 * seed],
        )
        championship_services.team_home_set(
            team=created,
            venue_name=venue,
            venue_address=address,
            home_weekday=night[0] if night else None,
            home_time=datetime.time(night[1], 30) if night else None,
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    # Matchday 3 is this week: the league's night is today's weekday, two weeks back.
    stage = stage_services.stage_create(
        championship=championship,
        format="league",
        settings={
            "cycles": 2,
            "first_date": (today - datetime.timedelta(days=14)).isoformat(),
            "interval": 7,
            "time": "21:00",
        },
    )
    stage_services.round_generate(stage=stage)
    for number in (1, 2):
        for match in stage.matches.filter(round__number=number).exclude(team_b=None):
            _play_one(rng, match, referees[match.pk % len(referees)], play)
    third = list(stage.matches.filter(round__number=3).exclude(team_b=None).order_by("pk"))
    _play_one(rng, third[0], referees[0], play)
    for days in range(9, 20):  # the first evening both clubs are free
        moved = datetime.datetime.combine(
            today + datetime.timedelta(days=days), datetime.time(20, 30)
        ).replace(tzinfo=league.zone_of(championship))
        try:
            league.match_postpone(
                match=third[1],
                to=moved,
                reason="La sede local no está disponible: se juega el campeonato del barrio.",
            )
            break
        except TournamentError:
            continue
    # A demo referee given a password finds the matches still to play (README).
    waiting = stage.matches.exclude(team_b=None).exclude(status__in=Match.DECIDED)
    for index, match in enumerate(waiting.filter(referee__isnull=True).order_by("pk")):
        result_services.match_assign(match=match, referee=referees[index % len(referees)])
    return championship
