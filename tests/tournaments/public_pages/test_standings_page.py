"""The standings page: qualifying places marked with a legend, the lots column only
when the lots decided."""

from __future__ import annotations

from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.public_pages.conftest import html_of
from tournaments.models import Championship
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


def groups_stage(running: Championship, teams: int = 8, advance: int = 2):
    for _ in range(teams):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(
        championship=running,
        format="groups_knockout",
        settings={"group_count": 2, "advance": advance},
    )
    for match in stage_services.round_generate(stage=stage):
        if not match.is_bye:
            result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
    return stage


def test_standings_mark_the_qualifying_places_with_a_legend(client, db):
    running = ChampionshipFactory()
    stage = groups_stage(running, advance=2)
    url = reverse("tournaments:standings", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert html.count('<tr class="qualifies">') == 2 * 2  # two groups, two places each
    assert "The first 2 of each group go on to the knockout" in html
    for abbr, meaning in (("P", "Matches played"), ("W", "Matches won"), ("L", "Matches lost")):
        assert f"<dt>{abbr}</dt><dd>{meaning}</dd>" in html
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="es"))
    assert "Los 2 primeros de cada grupo pasan a la eliminatoria" in html


def test_a_round_robin_has_no_qualifying_places(client, db, play_match):
    running = ChampionshipFactory()
    for _ in range(2):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play_match(match, match.team_a)
    url = reverse("tournaments:standings", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert 'class="qualifies"' not in html
    assert "knockout" not in html


def test_the_lots_column_shows_only_when_the_lots_decided(client, db, play_match):
    chain = ["points", "chico_diff", "lots"]
    running = ChampionshipFactory(tiebreaks=chain)
    for _ in range(2):
        TeamFactory(championship=running)
    stage = stage_services.stage_create(championship=running, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play_match(match, match.team_a)
    url = reverse("tournaments:standings", args=[running.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Drawing of lots" not in html  # the points separated the two teams

    # Four teams, every match a walkover for team A: winners tie on everything but lots.
    tied = ChampionshipFactory(tiebreaks=chain)
    for _ in range(4):
        TeamFactory(championship=tied)
    stage = stage_services.stage_create(championship=tied, format="round_robin")
    for match in stage_services.round_generate(stage=stage):
        result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
    url = reverse("tournaments:standings", args=[tied.slug, stage.pk])
    html = html_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert '<abbr title="Drawing of lots">Lot</abbr>' in html
