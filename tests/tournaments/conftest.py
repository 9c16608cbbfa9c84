"""Fixtures of the championships tests: teams, and matches played through real hands."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db.models.signals import post_save

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.models import Championship, ChampionshipReferee, Match, Team
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services


def chico_hand(match: Match, winner: str) -> dict:
    """A real hand that ends a chico at once: the mano sings falta envido (worth the whole
    chico in the factory's rules), it is accepted and the referee gives it to ``winner``."""
    match = result_selectors.match_detail(pk=match.pk)
    hands = [h.record for h in match.hands.order_by("number")]
    # The engine says who is mano of the next hand; the test does not work it out.
    # (A match already decided has no next hand: any seat will do, the hand is refused.)
    upcoming = records.score(match, hands).next
    order = list(upcoming.order) if upcoming is not None else list(match.seats)
    mano = order[0]
    side_a = set(records.lineup(match)["A"])
    other = next(p for p in order if (p in side_a) != (mano in side_a))
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
def referee(db) -> Iterator[Any]:
    """A referee of every championship of the test: on the list of each one there is and
    each one made later. Most tests need someone who may record hands, not the list's
    rule (a referee acts only where he is on it: tests/tournaments/championship_day/
    test_referee_assignment.py and tests/referees/test_hand_write_rules.py try that rule)."""
    user = RefereeFactory()

    def listed(sender: Any, instance: Championship, created: bool, **kwargs: Any) -> None:
        if created:
            ChampionshipReferee.objects.get_or_create(championship=instance, user=user)

    for championship in Championship.objects.all():
        ChampionshipReferee.objects.get_or_create(championship=championship, user=user)
    post_save.connect(listed, sender=Championship, weak=False, dispatch_uid="test-referee")
    try:
        yield user
    finally:
        post_save.disconnect(sender=Championship, dispatch_uid="test-referee")


@pytest.fixture
def play_match():
    return play


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a write as if its transaction committed: its announcement is sent."""

    def run(write, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return write(**kwargs)

    return run
