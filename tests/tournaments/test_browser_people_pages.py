"""A person's page, a team's and the schedule in a real browser: at a phone's, a tablet's
and a desktop's width nothing scrolls sideways, the policy blocks nothing, and "find my
team" works with the script off. Screenshots: ``$TANTEO_SCREENSHOT_DIR`` (tests/conftest.py).
"""

from __future__ import annotations

from django.urls import reverse

from tests.browsers import watch_csp
from tests.tournaments.test_people_pages import begona, two_championships  # noqa: F401 (fixtures)
from tournaments.championships import services as championship_services

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "desktop": {"width": 1280, "height": 800},
}


def test_the_pages_of_people_fit_every_screen(
    browser,
    live_server,
    shots,
    csp_violations,
    two_championships,  # noqa: F811 (the fixture)
    begona,  # noqa: F811
):
    flores = two_championships["flores"]
    eliana = flores.memberships.get(player__name="Eliana Ruiz").player
    championship_services.team_substitute(
        team=flores,
        player_out=eliana,
        name="Nuria Sala",
        stage=two_championships["spring_stage"],
        from_round=2,
    )
    pages = {
        "person": reverse("tournaments:person", args=[begona.pk]),
        "team": reverse("tournaments:team", args=["primavera", flores.pk]),
        "schedule": reverse("tournaments:schedule", args=["primavera"]) + "?q=begona",
    }
    for size, viewport in SIZES.items():
        context = browser.new_context(
            viewport=viewport, extra_http_headers={"Accept-Language": "es"}
        )
        watch_csp(context, csp_violations)
        page = context.new_page()
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            page.screenshot(path=str(shots / f"people-{name}-{size}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{name} is {width}px wide at {size}"
        context.close()
    assert csp_violations == []


def test_find_my_team_works_without_the_script(
    browser,
    live_server,
    two_championships,  # noqa: F811 (the fixture)
):
    context = browser.new_context(
        viewport=SIZES["phone"],
        java_script_enabled=False,
        extra_http_headers={"Accept-Language": "en"},
    )
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('tournaments:schedule', args=['primavera'])}")
    page.fill("#schedule-q", "eliana")
    page.press("#schedule-q", "Enter")
    page.wait_for_url("**/schedule/?q=eliana")
    assert page.locator(".found__team").inner_text().startswith("Las Flores")
    assert page.locator(".found__table").inner_text() == "Table 7"
    context.close()
