"""The public pages of a table of three in a real browser: three names, the places, the
placement-points standings, and never a page wider than a phone."""

from __future__ import annotations

import random

from django.urls import reverse

from tests.browsers import shoot_three_sizes, watch_csp
from tests.tournaments.test_gallo_tables import gallo_championship, play_table
from tournaments.stages import services as stage_services


def test_a_table_of_three_on_the_public_pages(browser, live_server, shots, csp_violations):
    championship, _teams = gallo_championship(9)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    created = stage_services.round_generate(stage=stage)
    rng = random.Random(9)
    played, _entries = play_table(created[0], rng)
    play_table(created[1], rng)
    slug = championship.slug
    pages = {
        "gallo-match": reverse("tournaments:match", args=[slug, played.pk]),
        "gallo-round": reverse("tournaments:round", args=[slug, stage.pk, 1]),
        "gallo-standings": reverse("tournaments:standings", args=[slug, stage.pk]),
    }
    context = browser.new_context(extra_http_headers={"Accept-Language": "en"})
    watch_csp(context, csp_violations)
    page = context.new_page()
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        shoot_three_sizes(page, shots, name)
        text = page.inner_text("main")
        if name == "gallo-match":
            for team in (played.team_a, played.team_b, played.team_c):
                assert team.name in text
            assert "Places at the table:" in text
            # Hand by hand: three running scores and the hand's gallo.
            score = page.locator(".hand-line__score").first.inner_text()
            assert score.count("–") == 2
            assert page.locator(".hand-line__gallo").count() == played.hands.count()
        if name == "gallo-round":
            assert played.team_c.name in text
        if name == "gallo-standings":
            assert "Placement points" in page.content()
    assert csp_violations == []
