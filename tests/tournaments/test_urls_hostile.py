"""Ids and slugs from URLs and query strings reach the database only as what they are: a
huge id, a NUL byte or an unknown choice answers 4xx, never a server error."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.factories import ChampionshipFactory

HUGE = "9" * 20  # past a 64-bit integer
HOSTILE = [
    "/c/copa%00/",
    f"/c/copa/stages/{HUGE}/standings/",
    f"/c/copa/stages/{HUGE}/bracket/",
    f"/c/copa/stages/{HUGE}/rounds/{HUGE}/",
    f"/c/copa/matches/{HUGE}/",
    f"/referee/matches/{HUGE}/",
    f"/referee/matches/{HUGE}/undo/",
    "/organiser/copa%00/",
    f"/organiser/copa/stages/{HUGE}/",
    f"/organiser/copa/stages/{HUGE}/rounds/{HUGE}/assign/",
    f"/organiser/copa/matches/{HUGE}/walkover/",
    "/organiser/copa/export/%00.csv",
    "/organiser/copa/export/..%2F..%2Fsettings.csv",
]


@pytest.fixture
def staff_client(client, db):
    ChampionshipFactory(slug="copa")
    # Staff who manage every championship (the model permission a superuser holds).
    client.force_login(get_user_model().objects.create_superuser("jefa"))
    return client


@pytest.mark.parametrize("url", HOSTILE)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_hostile_id_or_slug_is_not_found(staff_client, url, method):
    response = getattr(staff_client, method)(url)
    assert response.status_code in (404, 405)


@pytest.mark.parametrize("preset", ["%00", "nope", "__class__", "%ud800"])
def test_an_unknown_preset_shows_the_default_one(staff_client, preset):
    response = staff_client.get(f"/organiser/new/?preset={preset}&name=%00&slug=%00")
    assert response.status_code == 200
    assert 'value="argentine" selected' in response.content.decode()


def test_a_hostile_post_of_ids_re_renders_the_form(staff_client):
    """Form fields with ids: an id past any integer or with a NUL is a form error."""
    response = staff_client.post(f"/organiser/copa/teams/{HUGE}/remove/", {"team": f"{HUGE}\x00"})
    assert response.status_code in (302, 404)
    response = staff_client.post("/organiser/copa/stages/new/", {"teams": [HUGE, "1\x00"]})
    assert response.status_code == 200
