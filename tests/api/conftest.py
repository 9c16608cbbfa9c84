"""Fixtures of the API tests: clients for each kind of user, and generous throttles."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.factories import RefereeFactory, StaffFactory, UserFactory

V1 = "/api/v1"
GENEROUS = {"anon": "100000/min", "user_write": "100000/min"}


@pytest.fixture(autouse=True)
def generous_throttles(settings):
    """No test is throttled by accident; tests of the throttle set their own rates.

    Each test counts its requests in a cache of its own (local memory, a new location):
    nothing carries over between tests, and a shared Redis (``REDIS_URL``) is never used
    or cleared.
    """
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": GENEROUS}
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"api-test-{uuid.uuid4()}",
        }
    }


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
    return StaffFactory(username="staff")
