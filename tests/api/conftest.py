"""Fixtures of the API tests: clients for each kind of user, and generous throttles."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.factories import RefereeFactory, UserFactory

V1 = "/api/v1"
GENEROUS = {"anon": "100000/min", "user_write": "100000/min"}


@pytest.fixture(autouse=True)
def generous_throttles(settings):
    """No test is throttled by accident; tests of the throttle set their own rates."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": GENEROUS}
    cache.clear()
    yield
    cache.clear()


def client_for(user=None, language: str = "en") -> APIClient:
    """An API client sending ``user``'s token (anonymous without one)."""
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def anon(db) -> APIClient:
    return client_for()


@pytest.fixture
def organiser(db):
    return UserFactory(username="organiser")


@pytest.fixture
def as_organiser(organiser) -> APIClient:
    return client_for(organiser)


@pytest.fixture
def referee_user(db):
    return RefereeFactory(username="referee")


@pytest.fixture
def staff_user(db):
    return UserFactory(username="staff", is_staff=True)
