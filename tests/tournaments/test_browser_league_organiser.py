"""The organiser's matchdays page in a browser: a match postponed from a phone, then the
page at every size with the postponed match (screenshots to look at)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.test_browser_league import SIZES
from tests.tournaments.test_league import make_league
from tournaments.models import Postponement

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "truco-y-retruco-2026"


def test_a_match_postponed_from_a_phone_shows_on_the_matchdays_page(
    browser, live_server, shots, csp_violations, logged_in_page
):
    championship, stage, _teams = make_league(6)
    user = get_user_model().objects.create_user(username="liga", password=PASSWORD)
    championship.organisers.add(user)
    match = stage.matches.filter(round__number=1).exclude(team_b=None).first()
    path = reverse("organiser:league_matchdays", args=[championship.slug, stage.pk])
    page = logged_in_page(path, "liga", PASSWORD, viewport=SIZES["phone"])
    page.locator(f"#match-{match.pk} a:has-text('Postpone')").click()
    page.fill("#id_date", "2026-03-06")
    page.fill("#id_time", "19:30")
    page.click("button[type=submit]:has-text('Postpone the match')")
    # The click returns once the post is sent: the answer's page is waited for.
    refused = page.get_by_text("Say why the match is postponed.")
    refused.wait_for()
    assert refused.is_visible()  # kept, refused
    assert page.input_value("#id_time") == "19:30"
    page.fill("#id_reason", "Lluvia")
    page.click("button[type=submit]:has-text('Postpone the match')")
    page.wait_for_url(f"**{path}#match-{match.pk}")
    assert Postponement.objects.filter(match=match).exists()
    card = page.locator(f"#match-{match.pk}")
    assert card.get_by_text("Postponed").first.is_visible()
    context = page.context
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"{live_server.url}{path}")
        page.screenshot(path=str(shots / f"league2-matchdays-{size}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the matchdays page is {width}px wide at {size}"
    postpone = reverse("organiser:league_match_postpone", args=[championship.slug, match.pk])
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"{live_server.url}{postpone}")
    page.screenshot(path=str(shots / "league2-postpone-phone.png"), full_page=True)
    context.close()
    assert csp_violations == []
