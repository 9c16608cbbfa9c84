"""A person's email, phone and licence number never reach the public: no public page (all
of them, found by following the links of the championship's page), no CSV export, no
public API response. A page or field added later that shows them fails here."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.test import Client

from tests.api.conftest import V1, client_for
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.io import exports
from tournaments.models import Championship, Person
from tournaments.stages import services as stage_services

SECRETS = ("secret.mail@example.org", "+34 699 111 222", "LIC-PRIVATE-77")


@pytest.fixture
def played(db, referee):
    """A running championship with a played match of a player who gave everything."""
    championship = ChampionshipFactory(status=Championship.Status.RUNNING, slug="copa")
    team = TeamFactory(championship=championship)
    TeamFactory(championship=championship)  # its rival
    person = team.memberships.get(order=1).player.person
    Person.objects.filter(pk=person.pk).update(
        email=SECRETS[0], phone=SECRETS[1], licence=SECRETS[2]
    )
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play(match, team, referee=referee)
    return championship, team, match, stage


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def test_no_public_page_shows_a_persons_contact_or_licence(played):
    championship, *_ = played
    client = Client()
    start = f"/c/{championship.slug}/"
    seen, queue = set(), ["/", start]
    while queue and len(seen) < 80:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        text = response.content.decode()
        assert not _leaks(text), url
        for href in re.findall(r'href="([^"#?]+)', text):
            path = urlsplit(href).path
            if path.startswith(start) and path not in seen:
                queue.append(path)
    assert len(seen) >= 5  # the championship, its standings, round, match pages at least


def test_no_export_holds_a_persons_contact_or_licence(played):
    championship, *_ = played
    for kind in exports.EXPORTS:
        text = "".join(exports.export_csv(championship, kind))
        assert not _leaks(text), kind


def test_no_public_api_response_holds_a_persons_contact_or_licence(played):
    championship, team, match, stage = played
    base = f"{V1}/championships/{championship.slug}/"
    player = team.memberships.get(order=1).player
    paths = [
        f"{V1}/championships/",
        base,
        f"{base}teams/",
        f"{base}teams/{team.pk}/",
        f"{base}stages/",
        f"{base}stages/{stage.pk}/",
        f"{base}stages/{stage.pk}/rounds/",
        f"{base}stages/{stage.pk}/standings/",
        f"{base}matches/",
        f"{V1}/matches/{match.pk}/",
        f"{V1}/matches/{match.pk}/hands/",
        f"{V1}/matches/{match.pk}/hands/last/",
        f"{V1}/players/{player.pk}/",
    ]
    client = client_for()
    read = 0
    for path in paths:
        response = client.get(path)
        if response.status_code == 200:
            read += 1
            assert not _leaks(response.content.decode()), path
    assert read >= len(paths) - 1
