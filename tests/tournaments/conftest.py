"""Fixtures of the championships tests: teams, and matches played through real hands."""

from collections.abc import Callable

import pytest

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.models import Championship, Match, Team
from tournaments.results import services as result_services


def chico_hand(match: Match, winner: str) -> dict:
    """A real hand that ends a chico at once: the mano sings falta envido (worth the whole
    chico in the factory's rules), it is accepted and the referee gives it to ``winner``."""
    match.refresh_from_db()
    seats = match.seats
    mano = seats[match.hands.exclude(status__in=["void", "redeal"]).count() % len(seats)]
    side_a = {m.player.record_key for m in match.team_a.memberships.all()}
    other = next(p for p in seats if (p in side_a) != (mano in side_a))
    return {
        "events": [
            {"by": mano, "call": "falta_envido"},
            {"by": other, "answer": "quiero"},
            {"envido_winner": winner},
        ]
    }


def play(match: Match, winner: Team, *, games: int | None = None, referee=None) -> Match:
    """Play ``match`` through the services until ``winner`` wins (2-1 unless ``games``=2)."""
    side = "A" if winner.pk == match.team_a_id else "B"
    loser = "B" if side == "A" else "A"
    if not match.seats:
        result_services.match_start(match=match)
    sequence = [side, side] if games == 2 else [side, loser, side]
    if match.best_of == 1:
        sequence = [side]
    for chico_winner in sequence:
        result_services.hand_record(
            match=match, record=chico_hand(match, chico_winner), recorded_by=referee
        )
    match.refresh_from_db()
    assert match.winner_id == winner.pk
    return match


@pytest.fixture
def championship(db) -> Championship:
    return ChampionshipFactory()


@pytest.fixture
def make_teams(db) -> Callable[..., list[Team]]:
    def make(championship: Championship, count: int) -> list[Team]:
        return [TeamFactory(championship=championship, seed=n) for n in range(1, count + 1)]

    return make


@pytest.fixture
def referee(db):
    return RefereeFactory()


@pytest.fixture
def play_match():
    return play
