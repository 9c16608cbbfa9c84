"""Fixtures of the players' notices: teams that gave an address at entry, in a language,
and a match between two of them."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail

from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tests.tournaments.notices.pushes import PushService
from tournaments.models import Championship, Entry, Match, Notice, Scorekeeping, Team
from tournaments.notices.push import vapid_keys_new
from tournaments.stages import services as stage_services

_positions = itertools.count(1)


def entered(
    championship: Championship,
    *,
    language: str = "en",
    status: str = Entry.Status.ACCEPTED,
    email: str | None = None,
    **team: Any,
) -> Team:
    """A team of ``championship`` entered with an address, in ``language``."""
    made = TeamFactory(championship=championship, **team)
    Entry.objects.create(
        championship=championship,
        team=made,
        status=status,
        position=next(_positions),
        email=email if email is not None else f"team{made.pk}@example.org",
        language=language,
    )
    return made


@pytest.fixture
def championship(db) -> Championship:
    return ChampionshipFactory(
        name="Copa Avisos", slug="copa-avisos", scorekeeping=Scorekeeping.RESULTS
    )


@pytest.fixture
def organiser(championship) -> Any:
    user = UserFactory(username="organiser")
    championship.organisers.add(user)
    return user


def round_of(championship: Championship, languages: list[str]) -> list[Match]:
    """The first round of a round robin of teams entered in ``languages``; the notices of
    its draw (``test_notice_drawn``) are left out, for the tests of what comes after."""
    for seed, language in enumerate(languages, start=1):
        entered(championship, language=language, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    Notice.objects.filter(kind=Notice.Kind.DRAWN).delete()
    # Their mails too, where the draw's transaction committed (a browser test's).
    mail.outbox.clear()
    return matches


@pytest.fixture
def vapid(settings) -> dict[str, str]:
    """The site with VAPID keys of its own, and the tests' push service on 127.0.0.1
    accepted over plain http (``PUSH_INSECURE_TEST_HOSTS``, never set outside tests)."""
    public, private = vapid_keys_new()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_SUBJECT = "mailto:desk@example.org"
    settings.PUSH_INSECURE_TEST_HOSTS = ["127.0.0.1"]
    return {"public": public, "private": private}


@pytest.fixture
def push_service() -> Iterator[PushService]:
    """A push service of the test's own (``pushes.PushService``)."""
    service = PushService()
    yield service
    service.stop()
