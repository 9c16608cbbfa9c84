"""Fixtures and helpers of the public pages' tests: a started match of one player a side,
hands the referee awards, and a page's running score as it marks it."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.fixture(autouse=True)
def no_language_left_behind():
    """The client's requests activate a language in this thread: leave none active."""
    yield
    translation.deactivate()


def html_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def scores(html: str) -> dict[str, str]:
    """The running score of each side, as the page marks it (``data-score-side``)."""
    return dict(re.findall(r'data-score-side="([AB])">(\d+)<', html))


def singles(names=("Eliana", "Ivan"), **championship) -> Match:
    """A started match of one player a side, each team named after its player."""
    running = ChampionshipFactory(team_size=1, **championship)
    for name in names:
        team = TeamFactory(championship=running, name=name)
        player = team.memberships.get().player
        player.name = name
        player.save()
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


def penalty_hand(match: Match, side: str, points: int) -> dict:
    """A hand the referee awards ``points`` to ``side``, the other side going to the mazo
    (which adds what the engine says a mazo is worth)."""
    match = result_selectors.match_detail(pk=match.pk)
    folders = records.team_keys(match.team_b if side == "A" else match.team_a)
    return {
        "events": [
            {"penalty": {"to": side, "points": points, "reason": "test"}},
            *({"by": folder, "mazo": True} for folder in folders),
        ]
    }
