"""A championship speaks its game's words, and what the system itself stored is told in
the reader's language: an Argentine team has a captain (capitán, capità), a Catalan
squad a cap de colla, on the tablet, the printed sheets, the teams page and its CSV."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.models import Match
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.fixture(autouse=True)
def no_language_left_behind():
    yield
    translation.deactivate()


def finished(preset: str) -> tuple[Match, object]:
    """A match of two pairs played to its end at a table with its referee: each chico (or
    joc) a hand where the referee awards side A the whole target, as a penalty."""
    championship = ChampionshipFactory(rules={"preset": preset})
    for _ in range(2):
        TeamFactory(championship=championship)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    referee = RefereeFactory()
    result_services.match_assign(match=match, table="1", referee=referee)
    result_services.match_start(match=match)
    target = {"argentine": 30, "catalan": 12}[preset]
    penalty = {"to": "A", "points": target, "reason": "test"}
    while not match.is_decided:
        hand = {"events": [{"penalty": penalty}]}
        result_services.hand_record(match=match, record=hand, recorded_by=referee)
        match.refresh_from_db()
    return match, referee


def page(client, url: str, language: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("preset", "captain", "other"),
    [("argentine", "captain", "its cap de colla"), ("catalan", "cap de colla", "its captain")],
)
def test_the_tablet_and_the_scoresheet_name_the_captain_as_the_game_does(
    client, admin_user, preset, captain, other
):
    match, referee = finished(preset)
    slug = match.stage.championship.slug
    client.force_login(referee)
    sheet = page(client, reverse("referees:sheet", args=[match.pk]))
    # What the page shows, not the tablet script's data (every engine message in it).
    sheet = re.sub(r"<script[^>]*>.*?</script>", "", sheet, flags=re.S)
    assert f"Hand the tablet to each side: its {captain} (or one of its players)" in sheet
    assert other not in sheet
    client.force_login(admin_user)
    printed = page(client, reverse("organiser:print_scoresheet", args=[slug, match.pk]))
    assert f"Team A confirms ({captain} or player)" in printed
    assert "cap de colla" not in printed if preset == "argentine" else "captain" not in printed


def test_an_argentine_teams_page_and_its_csv_speak_of_captains(client, admin_user):
    argentine = ChampionshipFactory()
    client.force_login(admin_user)
    teams = page(client, reverse("organiser:teams", args=[argentine.slug]))
    assert "x, yes, sí or 1 marks the captain." in teams
    assert "cap de colla" not in teams
    for language, header in (("en", "captain"), ("es", "capitán"), ("ca", "capità")):
        url = reverse("organiser:teams_template", args=[argentine.slug, language])
        response = client.get(url)
        text = response.content.decode().lstrip("\ufeff")
        assert next(csv.reader(io.StringIO(text)))[-1] == header
    # Its template imports as it is: the column is one the import knows.
    catalan = ChampionshipFactory(rules={"preset": "catalan"})
    url = reverse("organiser:teams_template", args=[catalan.slug, "es"])
    text = client.get(url).content.decode().lstrip("\ufeff")
    assert next(csv.reader(io.StringIO(text)))[-1] == "cap de colla"


def test_an_argentine_teams_errors_speak_of_its_captain(db):
    argentine = ChampionshipFactory()
    with translation.override("en"):
        (problem,) = championship_services.team_entry_problems(
            championship=argentine,
            team="Los Anchos",
            players=["Ana", "Beto"],
            captains=["Ana", "Beto"],
        )
        assert problem.text == "Team Los Anchos has more than one captain."
        (problem,) = championship_services.team_entry_problems(
            championship=argentine, team="Los Anchos", players=["Ana", "Beto"], captains=["Eva"]
        )
        assert problem.text == "The captain Eva is not a player of the team."
