"""A championship speaks its game's words, and what the system itself stored is told in
the reader's language: an Argentine team has a captain (capitán, capità), a Catalan
squad a cap de colla, on the tablet, the printed sheets, the teams page and its CSV."""

from __future__ import annotations

import csv
import importlib
import io
import re

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.models import Match, Stage
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
    referee = RefereeFactory(championships=[championship])
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


# -- what Tanteo stored itself, in the reader's language ------------------------------------


def test_an_absence_walkover_is_explained_in_the_readers_language(client, admin_user):
    championship = ChampionshipFactory()
    teams = [TeamFactory(championship=championship) for _ in range(4)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    for team in teams:
        stage_services.check_in_set(stage=stage, team=team, present=team != teams[0], by=admin_user)
    with translation.override("en"):  # the organiser's language
        stage_services.round_generate(stage=stage)
    (walkover,) = Match.objects.filter(status=Match.Status.WALKOVER)
    assert (walkover.reason, walkover.reason_code) == ("", Match.Reason.ABSENT)
    url = reverse("tournaments:match", args=[championship.slug, walkover.pk])
    assert "Absent at check-in" in page(client, url, "en")
    spanish = page(client, url, "es")
    assert "Ausente al pasar lista" in spanish and "Absent at check-in" not in spanish
    # The organiser's own words stay his.
    other = Match.objects.exclude(pk=walkover.pk).get()
    result_services.match_walkover(match=other, winner=other.team_a, reason="No vinieron")
    url = reverse("tournaments:match", args=[championship.slug, other.pk])
    assert "No vinieron" in page(client, url, "en")


def test_a_stage_not_named_is_called_by_its_format_in_the_readers_language(client, db):
    championship = ChampionshipFactory()
    for _ in range(4):
        TeamFactory(championship=championship)
    with translation.override("en"):
        swiss = stage_services.stage_create(championship=championship, format="swiss")
        # Typing the format's own name is not naming the stage.
        league = stage_services.stage_create(
            championship=championship, format="round_robin", name="Round robin"
        )
        named = stage_services.stage_create(
            championship=championship, format="single_elimination", name="Copa de plata"
        )
    assert (swiss.name, league.name, named.name) == ("", "", "Copa de plata")
    url = reverse("tournaments:championship", args=[championship.slug])
    spanish = page(client, url, "es")
    assert "Sistema suizo" in spanish and ">Swiss<" not in spanish
    assert "Copa de plata" in spanish
    standings = reverse("tournaments:standings", args=[championship.slug, swiss.pk])
    assert "<h1>Sistema suís: Classificació</h1>" in page(client, standings, "ca")
    # Still one stage per name: a second Swiss stage without a name is refused.
    with pytest.raises(ValidationError) as refused:
        stage_services.stage_create(championship=championship, format="swiss")
    assert refused.value.code == "stage_name_taken"


def test_the_migration_turns_stored_texts_into_codes(db):
    migration = importlib.import_module(
        "tournaments.migrations.0002_system_texts_in_the_readers_language"
    )
    championship = ChampionshipFactory()
    for _ in range(2):
        TeamFactory(championship=championship)
    stages = [
        stage_services.stage_create(championship=championship, format="swiss", name=name)
        for name in ("Suizo", "Swiss stage")
    ]
    (match,) = stage_services.round_generate(stage=stages[0])
    # As they were stored before: the texts in the language of whoever created them.
    Stage.objects.filter(pk=stages[0].pk).update(name="Sistema suizo")
    Match.objects.filter(pk=match.pk).update(reason="Ausente al pasar lista")
    migration.to_codes(django_apps, None)
    assert [s.name for s in Stage.objects.order_by("pk")] == ["", "Swiss stage"]
    match.refresh_from_db()
    assert (match.reason, match.reason_code) == ("", "absent")
