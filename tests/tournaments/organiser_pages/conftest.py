"""Fixtures of the organiser pages' tests: an organiser and his championships (running,
or taking teams), and the forms as the browser posts them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.models import Championship
from tournaments.stages import services as stage_services

PASSWORD = "truco-y-retruco-2026"


def make_user(username: str, **extra):
    return get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)


@pytest.fixture
def organiser(db):
    return make_user("organiser")


@pytest.fixture
def setup(organiser):
    """A running championship of ``organiser`` with a stage, a round, a match, a referee."""
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    championship.organisers.add(organiser)
    teams = [TeamFactory(championship=championship) for _ in range(4)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    return {
        "championship": championship,
        "teams": teams,
        "stage": stage,
        "round": matches[0].round,
        "match": matches[0],
        "referee": RefereeFactory(championships=[championship]),
    }


BASE = {
    "start_date": "2026-06-13",
    "end_date": "2026-06-14",
    "venue": "Casal Popular",
    "team_size": "2",
    "tiebreak_1": "points",
    "tiebreak_2": "head_to_head",
    "tiebreak_3": "lots",
    "tiebreak_4": "",
    "tiebreak_5": "",
}


def create_form(client, preset: str) -> dict:
    """The creation form as the browser would post it: every initial value, then ours."""
    response = client.get(reverse("organiser:championship_create"), {"preset": preset})
    form = response.context["form"]
    data = {}
    for field in form:
        value = field.value()
        if value not in (None, ""):
            data[field.name] = value
    return data


@pytest.fixture
def registration(organiser):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION, team_size=2)
    championship.organisers.add(organiser)
    return championship


@pytest.fixture
def four_teams(registration):
    return [TeamFactory(championship=registration) for _ in range(4)]


def upload(client, championship, text: str, language: str = "en"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    file = SimpleUploadedFile("equipos.csv", text.encode("utf-8"), content_type="text/csv")
    return client.post(
        reverse("organiser:teams_import", args=[championship.slug]),
        {"file": file},
        HTTP_ACCEPT_LANGUAGE=language,
    )
