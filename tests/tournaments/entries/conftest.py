"""Fixtures of online entry: a championship taking entries, teams entered through the
service."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tournaments.entries import services
from tournaments.models import Championship, Entry
from tournaments.people.services import PersonDetails

_names = itertools.count(1)


@pytest.fixture
def open_championship(db) -> Championship:
    """A championship in registration with entries open, for 4 teams of two."""
    return entries_opened(
        ChampionshipFactory(
            slug="copa-abierta", name="Copa Abierta", status=Championship.Status.REGISTRATION
        )
    )


def entries_opened(championship: Championship) -> Championship:
    """``championship`` taking entries for 4 teams, free, until the organiser closes them."""
    services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=4,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    return championship


@pytest.fixture
def organiser(open_championship) -> Any:
    user = UserFactory(username="organiser")
    open_championship.organisers.add(user)
    return user


def enter(championship: Championship, name: str | None = None, **kwargs: Any) -> Entry:
    """Enter a complete team of ``championship`` through the form's service."""
    number = next(_names)
    name = name or f"Equipo {number}"
    players = kwargs.pop(
        "players",
        [PersonDetails(name=f"{name} jugador {i}") for i in range(1, championship.team_size + 1)],
    )
    entry, _token = services.entry_submit(
        championship=championship, team_name=name, players=players, **kwargs
    )
    return entry
