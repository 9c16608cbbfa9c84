"""Fixtures of the archive import's hostile tests (docs/archive.md, "Limits").

The files are made from a small championship played through the services: four
pairs with their entries, a round robin's first round (one match played, a hand
corrected, one side confirming and the other disputing, a substitution) and a walkover.
Each test module gets its archive once, and every test runs in English unless it says
otherwise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.apps import apps
from django.db import transaction
from django.utils import translation

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, PlayerFactory, TeamFactory
from tests.tournaments.test_result_revisions import five_hands, to_b
from tournaments.io.archive import archive_export
from tournaments.models import Entry, Substitution
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

# A refusal names its path and says what is wrong in a sentence: never a page of text.
MAX_MESSAGE = 300


def _played() -> dict[str, Any]:
    """The championship described in the module docstring, as its archive."""
    championship = ChampionshipFactory(slug="hostil", name="Hostil")
    teams = [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]
    for position, team in enumerate(teams, 1):
        Entry.objects.create(
            championship=championship, team=team, status="accepted", position=position
        )
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    played, walkover = stage_services.round_generate(stage=stage)
    played = result_services.match_start(match=played)
    hands = five_hands(played)
    result_services.hand_correct(
        hand=hands[1], record=to_b(hands[1]), corrected_by=None, reason="El envido\nera de B"
    )
    result_services.hand_record(match=played, record=chico_hand(played, "A"), recorded_by=None)
    played.refresh_from_db()
    result_services.match_confirm(match=played, side="A", by=None)
    result_services.match_dispute(match=played, side="B", comment="Mal contado", by=None)
    result_services.match_walkover(match=walkover, winner=walkover.team_a, reason="No vino")
    membership = teams[0].memberships.order_by("order").first()
    Substitution.objects.create(
        team=teams[0], player_out=membership.player, player_in=PlayerFactory(), stage=stage
    )
    # The organiser's archive: it keeps what the sides wrote to him (a dispute's comment).
    return json.loads(json.dumps(archive_export(championship, private=True)))


@pytest.fixture(scope="module")
def archive(django_db_setup, django_db_blocker) -> dict[str, Any]:
    with django_db_blocker.unblock(), translation.override("en"), transaction.atomic():
        made = _played()
        transaction.set_rollback(True)
    return made


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def counts() -> dict[str, int]:
    """The rows of every table."""
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


LONE = "\ud800"
