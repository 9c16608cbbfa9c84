"""The demo's *Torneo Sin Árbitros de Sants*: a bar's Swiss of sixteen pairs with no
referee at any table (docs/tournaments.md, "No referee at the table"). A player of the
table may keep the score on his phone; otherwise the teams report their result from their
links and the other team confirms it.

- Round one came back on paper: every result typed at the organiser's desk.
- Round two was reported by the teams: each result confirmed by the other team, one
  disputed (the other team reported another result) and waiting for the organiser, and
  one match kept hand by hand on a player's phone.
- Round three is under way: three results reported and waiting for the other team's
  answer (one past the time to answer), a match being kept on a phone, the rest to play.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.utils import timezone

import scoring
from tournaments.championships import services as championship_services
from tournaments.demo.names import SPANISH_FIRST, SPANISH_LAST, draw_names
from tournaments.demo.table import SEED, play_match_hands
from tournaments.entries import reports
from tournaments.entries import services as entry_services
from tournaments.models import Championship, Match, Scorekeeping, Team, TeamAct
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

SLUG = "sin-arbitros-sants"

PAIRS = [
    "Los del Mostrador",
    "Ancho de Bastos",
    "Las Cuatro Reinas",
    "El Envido Perdido",
    "Los Porotos",
    "Tiza y Pizarra",
    "La Mesa del Fondo",
    "Siete de Oros",
    "Los Callados",
    "Truco y Vermut",
    "La Última Mano",
    "Los de Sants",
    "Real Envido",
    "Las Bazas",
    "El Quiero",
    "Los Mazos",
]


def _games(match: Match, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chicos that ``hands`` make, as the teams report them (each one's final score)."""
    base = records.match_record(match, [])
    scored = scoring.score_match_result({**base, "hands": hands})
    return [{"score": dict(game.score)} for game in scored.state.games]


def _flipped(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same chicos with the sides' scores swapped: what a team that misremembers who
    won them reports."""
    return [{"score": {"A": g["score"]["B"], "B": g["score"]["A"]}} for g in games]


def _played(rng: random.Random, match: Match) -> tuple[Match, list[dict[str, Any]]]:
    shown = result_selectors.match_detail(pk=match.pk)
    return shown, play_match_hands(rng, shown)


def _on_a_phone(match: Match, hands: list[dict[str, Any]]) -> None:
    """Hands kept on a player's phone: recorded through the services with no account."""
    result_services.match_start(match=match)
    shown = result_selectors.match_detail(pk=match.pk)
    result_services.match_hands_import(match=shown, records=hands, recorded_by=None)


def build(today: datetime.date, referees: list) -> Championship:
    """The championship, its teams with their personal links, and three rounds (the
    module's docstring). ``referees`` are not used: nobody referees here."""
    rng = random.Random(f"{SEED}-sin-arbitros")
    championship = championship_services.championship_create(
        name="Torneo Sin Árbitros de Sants",
        slug=SLUG,
        start_date=today,
        venue="Bar La Esquina de Sants",
        preset="argentine",
        team_size=2,
    )
    championship_services.championship_scorekeeping_set(
        championship=championship, scorekeeping=Scorekeeping.PLAYERS, confirm_within=20
    )
    players = draw_names(rng, SPANISH_FIRST, SPANISH_LAST, 2 * len(PAIRS))
    teams: list[Team] = []
    for seed, name in enumerate(PAIRS, start=1):
        teams.append(
            championship_services.team_create(
                championship=championship,
                name=name,
                seed=seed,
                club="Sants",
                players=players[2 * seed - 2 : 2 * seed],
            )
        )
    for team in teams:
        entry_services.link_issue(team=team, via=TeamAct.Via.ORGANISER)
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 3}
    )

    # Round one: the paper sheets typed at the desk.
    for match in _real(stage_services.round_generate(stage=stage)):
        shown, hands = _played(rng, match)
        result_services.match_result_record(match=shown, games=_games(shown, hands), by=None)

    # Round two: reported by the teams, one disputed, one kept on a phone.
    second = _real(stage_services.round_generate(stage=stage))
    for index, match in enumerate(second):
        shown, hands = _played(rng, match)
        if index == 0:
            _on_a_phone(shown, hands)
            reports.link_answer(team=shown.team_b, match=shown)
            reports.link_answer(team=shown.team_a, match=shown)
            continue
        games = _games(shown, hands)
        reports.link_report(team=shown.team_a, match=shown, games=games)
        if index == 1:
            # The other team remembers it the other way round: a dispute for the organiser.
            reports.link_report(team=shown.team_b, match=shown, games=_flipped(games))
        else:
            reports.link_answer(team=shown.team_b, match=shown)

    # Round three, under way.
    third = _real(stage_services.round_generate(stage=stage))
    for index, match in enumerate(third[:4]):
        shown, hands = _played(rng, match)
        if index == 0:
            # Being kept on a phone: the first hands are in.
            _on_a_phone(shown, hands[:5])
            continue
        reports.link_report(team=shown.team_b, match=shown, games=_games(shown, hands))
    # The first report of the round is past the time to answer: the organiser's to settle.
    late = timezone.now() - datetime.timedelta(minutes=championship.confirm_within + 10)
    Match.objects.filter(pk=third[1].pk).update(reported_at=late)
    return championship


def _real(matches: list[Match]) -> list[Match]:
    """The matches of a round that are played (a bye is not)."""
    return sorted((m for m in matches if not m.is_bye), key=lambda m: m.pk)
