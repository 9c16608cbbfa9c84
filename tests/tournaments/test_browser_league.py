"""A league's fixture lists in a browser: a team's season readable on a phone, with its
calendar link, and the matchdays at every size (screenshots to look at)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.browsers import watch_csp
from tests.tournaments.test_league import ZONE, make_league
from tournaments.stages import league

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "desktop": {"width": 1280, "height": 800},
}


def test_a_teams_fixtures_fit_a_phone_with_the_calendar_link(
    browser, live_server, shots, csp_violations
):
    championship, stage, teams = make_league(6, weekday_of={2: 1})
    match = stage.matches.filter(round__number=1).exclude(team_b=None).first()
    league.match_postpone(
        match=match, to=dt.datetime(2026, 3, 6, 20, 30, tzinfo=ZONE), reason="Lluvia"
    )
    team = teams[0]
    pages = {
        "matchday": reverse("tournaments:matchday", args=[championship.slug, stage.pk, 1]),
        "team": reverse("tournaments:team_fixtures", args=[championship.slug, team.pk]),
    }
    for size, viewport in SIZES.items():
        context = browser.new_context(
            viewport=viewport, extra_http_headers={"Accept-Language": "en"}
        )
        watch_csp(context, csp_violations)
        page = context.new_page()
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            page.screenshot(path=str(shots / f"league-{name}-{size}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{name} is {width}px wide at {size}"
            link = page.locator("a[data-calendar]")
            assert link.is_visible()
            assert link.get_attribute("href").endswith("fixtures.ics")
            if size == "phone" and name == "team":
                assert page.get_by_text("Postponed").first.is_visible()
                size_px = page.evaluate(
                    "parseFloat(getComputedStyle(document.querySelector('.fixture__teams')).fontSize)"
                )
                assert size_px >= 16
                assert page.locator(".fixture").count() == 10
        context.close()
    assert csp_violations == []
