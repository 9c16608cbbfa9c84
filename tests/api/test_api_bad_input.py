"""Inputs that once answered 500: each now a 400 in the API's error shape (or the form's
error); and the smaller points of the audit (lockout shape, no-store, TRACE)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import V1, client_for
from tests.api.test_api_resources import managed
from tests.tournaments.factories import RefereeFactory, TeamFactory, UserFactory
from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError
from tournaments.models import SEED_MAX, Championship, Team
from tournaments.stages import services as stage_services

DEEP = b"[" * 1000 + b"]" * 1000


@pytest.mark.parametrize("seed", [SEED_MAX + 1, 2**63, 0])
def test_a_seed_out_of_range_is_a_400_through_the_api(organiser, seed):
    championship = managed(organiser, status=Championship.Status.REGISTRATION, slug="copa")
    api = client_for(organiser)
    base = f"{V1}/championships/copa/teams/"
    answer = api.post(base, {"name": "Los Anchos", "players": ["Ana", "Bea"], "seed": seed},
                      format="json")  # fmt: skip
    assert answer.status_code == 400
    assert answer.json()["error"]["fields"]["seed"]
    team = TeamFactory(championship=championship)
    changed = api.patch(f"{base}{team.pk}/", {"seed": seed}, format="json")
    assert changed.status_code == 400
    assert changed.json()["error"]["fields"]["seed"]
    assert api.post(base, {"name": "Los Anchos", "players": ["Ana", "Bea"], "seed": SEED_MAX},
                    format="json").status_code == 201  # fmt: skip


def test_a_seed_out_of_range_is_the_forms_error_on_the_organisers_page(client, organiser):
    championship = managed(organiser, status=Championship.Status.REGISTRATION, slug="copa")
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[championship.slug])
    answer = client.post(
        url,
        {"name": "Los Anchos", "seed": str(2**31), "player_1": "Ana", "player_2": "Bea"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 200
    assert answer.context["form"].errors["seed"] == [
        f"Ensure this value is less than or equal to {SEED_MAX}."
    ]
    assert not championship.teams.exists()


def test_the_services_refuse_a_seed_past_the_maximum(db):
    championship = managed(UserFactory(), status=Championship.Status.REGISTRATION)
    with pytest.raises(TournamentError) as refused:
        championship_services.team_create(
            championship=championship, name="Uno", seed=SEED_MAX + 1, players=["Ana", "Bea"]
        )
    assert refused.value.code == "bad_seed"
    assert not Team.objects.exists()


def test_a_body_nested_1000_deep_is_a_400_anonymously(anon):
    answer = anon.post(f"{V1}/auth/token/", DEEP, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "parse_error"
    assert "32 levels" in answer.json()["error"]["message"]


def test_a_hand_nested_too_deep_is_a_400_and_stores_nothing(organiser):
    championship = managed(organiser, status=Championship.Status.RUNNING, slug="copa")
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    api = client_for(organiser)
    nested: object = {"trick": "A"}
    for _ in range(40):
        nested = [nested]
    body = json.dumps({"number": 1, "events": nested})
    answer = api.post(f"{V1}/matches/{match.pk}/hands/", body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "parse_error"
    assert not match.hands.exists()


def test_options_answers_every_api_view_with_a_token(organiser):
    """``OPTIONS /api/v1/matches/{id}/draft/`` with a token was a 500."""
    referee = RefereeFactory()
    championship = managed(organiser, status=Championship.Status.RUNNING, slug="copa")
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    for user in (organiser, referee):
        api = client_for(user)
        for path in (
            f"/matches/{match.pk}/draft/",
            f"/matches/{match.pk}/hands/",
            f"/matches/{match.pk}/seats/",
            f"/championships/copa/teams/{match.team_a_id}/",
            f"/stages/{stage.pk}/",
        ):
            answer = api.options(f"{V1}{path}")
            assert answer.status_code in (200, 404), (path, answer.content)
    draft = client_for(organiser).options(f"{V1}/matches/{match.pk}/draft/").json()
    assert set(draft["allowed_methods"]) >= {"GET", "PUT", "OPTIONS"}


def test_the_lockout_on_the_token_endpoint_is_the_apis_429(anon, settings):
    settings.AXES_FAILURE_LIMIT = 2
    UserFactory(username="ana")
    wrong = {"username": "ana", "password": "no-es-esta"}
    first = anon.post(f"{V1}/auth/token/", wrong, format="json")
    assert first.status_code == 401
    anon.post(f"{V1}/auth/token/", wrong, format="json")  # the limit: locked from here
    locked = anon.post(f"{V1}/auth/token/", wrong, format="json")
    assert locked.status_code == 429
    assert locked["Content-Type"] == "application/json"
    error = locked.json()["error"]
    assert error["code"] == "login_locked"
    assert "Too many failed attempts" in error["message"]
    assert int(locked["Retry-After"]) > 0


def test_pages_and_answers_showing_a_secret_are_never_stored(client, organiser):
    championship = managed(organiser, status=Championship.Status.REGISTRATION, slug="copa")
    organiser.set_password("una-clave-larga-2026")
    organiser.save()
    answer = Client().post(
        f"{V1}/auth/token/",
        {"username": organiser.username, "password": "una-clave-larga-2026"},
        content_type="application/json",
    )
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    client.force_login(organiser)
    for url in (
        reverse("api:token-page"),
        reverse("organiser:referees", args=[championship.slug]),
        reverse("organiser:team_qr", args=[championship.slug]),
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert "no-store" in page["Cache-Control"], url


@pytest.mark.parametrize("path", ["/", "/api/v1/", "/accounts/login/"])
def test_trace_is_refused(db, path):
    answer = Client().generic("TRACE", path)
    assert answer.status_code == 405
    assert "TRACE" not in answer["Allow"]
