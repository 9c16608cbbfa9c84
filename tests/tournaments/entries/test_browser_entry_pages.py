"""The entry form, its answer and the organiser's entries page in Chromium, on a phone, a
tablet and a desktop: nothing wider than the screen, nothing the CSP blocks, the copy
button of the personal link working.

Screenshots go to ``shots`` (``$TANTEO_SCREENSHOT_DIR`` keeps them).
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from tests.browsers import watch_csp
from tests.tournaments.factories import ChampionshipFactory
from tournaments.entries import services
from tournaments.models import Championship
from tournaments.people.services import PersonDetails

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "desktop": {"width": 1280, "height": 800},
}
PASSWORD = "a-long-organiser-password"


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture
def championship(transactional_db, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    championship = ChampionshipFactory(
        slug="copa-primavera",
        name="Copa de Primavera del Club Social",
        venue="Club Social, Rosario",
        status=Championship.Status.REGISTRATION,
    )
    services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=4,
        closes_at=None,
        asks=["club", "licence", "email"],
        fee=Decimal("20"),
        fee_instructions="Bizum al 600 000 000 con el nombre del equipo, o en efectivo en la sede.",
    )
    for number in range(1, 5):
        services.entry_submit(
            championship=championship,
            team_name=f"Los del Fondo {number}",
            players=[
                PersonDetails(name=f"Ana {number}", licence=f"A{number}"),
                PersonDetails(name=f"Juan {number}", licence=f"J{number}"),
            ],
            club="Rosario",
            email=f"equipo{number}@example.com",
        )
    return championship


@pytest.mark.parametrize("size", list(SIZES))
def test_the_entry_pages_fit_every_screen(
    browser, live_server, championship, csp_violations, shots, size
):
    context = browser.new_context(
        viewport=SIZES[size], extra_http_headers={"Accept-Language": "en"}
    )
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/c/{championship.slug}/enter/")
    assert "4 of 4 places taken: you will be on the waiting list, number 1." in page.inner_text(
        "#entry-state"
    )
    page.screenshot(path=str(shots / f"entry-{size}.png"), full_page=True)
    assert _fits(page)

    page.fill("#id_team_name", "Los Pardos")
    page.fill("#id_player_1", "Ana Ruiz")
    page.fill("#id_email", "ana@")
    page.click("button[type=submit]")
    page.wait_for_selector(".field__error")
    assert page.input_value("#id_team_name") == "Los Pardos"
    page.screenshot(path=str(shots / f"entry-errors-{size}.png"), full_page=True)
    assert _fits(page)

    page.fill("#id_player_2", "Juan Gil")
    page.fill("#id_club", "Rosario")
    page.fill("#id_licence_1", "L-1")
    page.fill("#id_licence_2", "L-2")
    page.fill("#id_email", "ana@example.com")
    page.click("button[type=submit]")
    page.wait_for_selector("#team-link")
    assert "Los Pardos is on the waiting list, number 1." in page.inner_text("#entry-place")
    link = page.input_value("#team-link-text")
    assert f"/c/{championship.slug}/team/" in link
    page.screenshot(path=str(shots / f"entry-done-{size}.png"), full_page=True)
    assert _fits(page)

    organiser = get_user_model().objects.create_user(f"org-{size}", password=PASSWORD)
    championship.organisers.add(organiser)
    page.goto(f"{live_server.url}/organiser/{championship.slug}/entries/")
    page.fill("#id_username", organiser.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]:has-text('Log in')")
    page.wait_for_selector("#entry-summary")
    assert "Los Pardos" in page.inner_text("#waiting")
    page.screenshot(path=str(shots / f"organiser-entries-{size}.png"), full_page=True)
    assert _fits(page)
    page.goto(f"{live_server.url}/organiser/{championship.slug}/entries/poster/")
    page.screenshot(path=str(shots / f"poster-{size}.png"), full_page=True)
    assert csp_violations == []
    context.close()
