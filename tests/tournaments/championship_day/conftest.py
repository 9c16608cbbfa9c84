"""Fixtures of a championship day's tests: a running championship of four teams, its
organiser (Marta) logged in, and the organiser pages' addresses."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Championship

PASSWORD = "truco-y-retruco-2026"
User = get_user_model()


@pytest.fixture
def organiser(db):
    return User.objects.create_user(
        username="marta", password=PASSWORD, first_name="Marta", last_name="Soler"
    )


# In this folder only, in place of tests/tournaments/conftest.py's: these tests need the
# championship running, and organised by Marta.
@pytest.fixture
def championship(organiser):
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    championship.organisers.add(organiser)
    return championship


@pytest.fixture
def teams(championship):
    return [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def url(name: str, *args) -> str:
    return reverse(f"organiser:{name}", args=args)
