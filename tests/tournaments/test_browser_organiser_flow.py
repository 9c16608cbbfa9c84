"""End to end in a real browser: an organiser sets up a championship and the public sees it.

Headless Chromium from Debian (``/usr/bin/chromium``) driven by Playwright against
pytest-django's ``live_server``. Playwright's own browser downloads are never used. The
test skips when the browser or the ``playwright`` package is missing. Screenshots go to
``$TANTEO_SCREENSHOT_DIR`` when it is set, to look at them.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tests.browsers import screenshots_kept, watch_csp
from tournaments.models import Championship, Match

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def assert_fits(page) -> None:
    """Nothing widens the page past the phone's screen: wide tables scroll in their box."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url


def test_organiser_sets_up_a_round_robin_and_the_public_sees_the_match(
    browser, logged_in_page, live_server, shots, csp_violations
):
    get_user_model().objects.create_user(username="marta", password="envido-real-33")
    page = logged_in_page("/organiser/", "marta", "envido-real-33", viewport=DESKTOP)

    # A championship from the argentine preset.
    page.click("text=New championship")
    page.fill("#id_name", "Copa de la Amistad")
    page.fill("#id_start_date", "2026-06-13")
    page.select_option("#id_target", "15")
    page.click("button:has-text('Create the championship')")
    page.wait_for_url("**/organiser/copa-de-la-amistad/")
    assert "Championship Copa de la Amistad created." in page.content()
    page.click("button:has-text('Registration open')")
    page.wait_for_selector("text=The championship is now: Registration open.")

    # Two teams by form.
    page.click(".subnav >> text=Teams")
    for name, players in [("Los Anchos", ("Ana", "Beto")), ("Las Flores", ("Cata", "Dani"))]:
        page.fill("#id_name", name)
        page.fill("#id_player_1", players[0])
        page.fill("#id_player_2", players[1])
        page.click("button:has-text('Add the team')")
        page.wait_for_selector(f"text=Team {name} added.")
    assert page.locator("#teams tbody tr").count() == 2
    page.set_viewport_size(PHONE)  # organisers use a phone at the venue too
    assert_fits(page)
    page.screenshot(path=str(shots / "teams-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    # A round robin stage, then its first round.
    page.click(".subnav >> text=New stage")
    page.select_option("#id_format", "round_robin")
    page.click("button:has-text('Create the stage')")
    page.wait_for_selector("text=Stage Round robin created.")
    page.click("button:has-text('Generate the next round')")
    page.wait_for_selector("text=1 match generated.")
    assert page.locator("tr.match-row").count() == 1

    championship = Championship.objects.get(slug="copa-de-la-amistad")
    assert championship.rules == {"preset": "argentine", "target": 15}
    match = Match.objects.get(stage__championship=championship)

    # The public, on a phone: from the home page to the match.
    public = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    watch_csp(public, csp_violations)
    phone = public.new_page()
    phone.goto(f"{live_server.url}/")
    phone.click("text=Copa de la Amistad")
    assert "A match is won by the first team to win two games of 15 points." in phone.content()
    assert_fits(phone)
    phone.screenshot(path=str(shots / "championship-phone.png"), full_page=True)
    phone.click("text=Standings")
    phone.wait_for_selector("table.standings")
    assert phone.locator("table.standings tbody tr").count() == 2
    assert_fits(phone)
    phone.screenshot(path=str(shots / "standings-phone.png"), full_page=True)
    phone.click(".rounds >> text=Round 1")
    card = phone.locator(".match-card").first
    assert "Los Anchos" in card.inner_text() and "Las Flores" in card.inner_text()
    assert_fits(phone)
    phone.screenshot(path=str(shots / "round-phone.png"), full_page=True)
    phone.click(".match-card__teams")
    phone.wait_for_url(f"**/matches/{match.pk}/")
    assert "No hand recorded yet." in phone.content()
    phone.screenshot(path=str(shots / "match-phone.png"), full_page=True)

    assert_fits(phone)
    page.goto(phone.url)
    page.screenshot(path=str(shots / "match-desktop.png"), full_page=True)
    page.goto(f"{live_server.url}/organiser/copa-de-la-amistad/stages/{match.stage_id}/")
    page.screenshot(path=str(shots / "stage-desktop.png"), full_page=True)
    if screenshots_kept():
        assert all(
            (shots / name).stat().st_size > 0 for name in ("match-phone.png", "stage-desktop.png")
        )
    # Every page above worked under the Content-Security-Policy: nothing was blocked.
    assert csp_violations == []
    public.close()
    page.context.close()
