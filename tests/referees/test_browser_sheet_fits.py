"""The referee's sheet fits one tablet screen: with six players, everything a hand needs
(score, the hand so far, tricks, every player's calls, answers and mazo, undo and the
referee's tools) is on screen without scrolling, at 1180×820 (landscape) and 820×1180
(portrait), whether the server drew the page or the tablet's script did.

Debian's Chromium through Playwright. Screenshots of each size go to ``shots``
(``$TANTEO_SCREENSHOT_DIR`` keeps them).
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.conftest import watch_csp
from tests.referees.conftest import key, make_match
from tests.referees.test_browser_tablet_client_layout import SHAPE
from tests.referees.test_browser_tablet_draft import LANDSCAPE, referee
from tests.referees.test_browser_tablet_offline import PASSWORD, TABLET
from tournaments.results import services as result_services

TEAMS = {
    2: (("Ana",), ("Beto",)),
    4: (("Ana", "Alba"), ("Beto", "Bruno")),
    6: (("Ana", "Alba", "Amaia"), ("Beto", "Bruno", "Blas")),
}
SIZES = {"landscape": LANDSCAPE, "portrait": TABLET}


def open_sheet(browser, live_server, csp_violations, match, *, script: bool, cookies=()):
    # Spanish: its words are the longest of the three languages on these buttons.
    context = browser.new_context(
        viewport=LANDSCAPE,
        java_script_enabled=script,
        extra_http_headers={"Accept-Language": "es"},
        service_workers="block",
    )
    watch_csp(context, csp_violations)
    context.add_cookies(list(cookies))
    page = context.new_page()
    sheet = reverse("referees:sheet", args=[match.pk])
    page.goto(f"{live_server.url}{sheet}")
    page.fill("#id_username", "lucia")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{sheet}")
    if script:
        page.wait_for_selector("#entry[data-engine=browser]", timeout=90_000)
    return page


def tap(page, event: dict, *, events: int) -> None:
    """Tap an event's button, then wait for the hand so far to list ``events`` events
    (the server's page reloads, the script redraws). On the server's page the tap is a
    form's submission: the test waits for the page it loads (never polling the page it
    leaves), with room for a machine busy with the rest of the suite."""
    button = page.locator(f"#entry [data-event='{json.dumps(event, separators=(',', ':'))}']")
    if page.locator("#entry[data-engine=browser]").count():
        button.click()
    else:
        with page.expect_navigation(timeout=60_000):
            button.click()
    page.wait_for_function(
        "n => document.querySelectorAll('#entry .hand-summary li').length >= n",
        arg=events,
        timeout=60_000,
    )


def fits(page, shots, name: str) -> None:
    """At each size, the entry ends inside the screen, the page scrolled to its top, and
    every button of the entry is a finger's height."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"sheet-{name}-{size}.png"))
        entry = page.locator("#entry").bounding_box()
        assert entry is not None
        bottom = entry["y"] + entry["height"]
        assert bottom <= viewport["height"], f"{name} at {size}: the entry ends at {bottom:.0f} px"
        heights = page.locator("#entry button:visible, #entry summary:visible").evaluate_all(
            "nodes => nodes.map(n => n.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44, f"{name} at {size}: a button {min(heights)} px"


def start(django_user_model, players: int):
    user = referee(django_user_model)
    return result_services.match_start(match=make_match(referee=user, teams=TEAMS[players]))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_server_drawn_sheet_fits_a_tablet_either_way_round(
    browser, live_server, django_user_model, csp_violations, shots, players
):
    match = start(django_user_model, players)
    page = open_sheet(browser, live_server, csp_violations, match, script=False)
    fits(page, shots, f"{players}-server-start")
    calls = page.locator("#entry .player-card .call-button")
    # Every player has his row of calls and his mazo (each labelled with its sentence).
    assert calls.count() == 5 * players
    assert page.locator("#entry [aria-label='Ana canta truco']").inner_text() == "Truco"
    # An answer awaited: the answering side's cards carry it, the whole still on screen.
    ana, beto = key(match, "Ana"), key(match, "Beto")
    tap(page, {"by": ana, "call": "truco"}, events=1)
    tap(page, {"by": beto, "call": "envido"}, events=2)
    answer = page.locator("#entry .entry-group--answer legend")
    assert answer.inner_text() == "Responder al canto"
    assert page.locator(f"#entry .player-card[data-player='{ana}'] .call-button--answer").count()
    fits(page, shots, f"{players}-server-answer")
    assert csp_violations == []
    page.context.close()


def test_the_script_drawn_sheet_fits_six_players_either_way_round(
    browser, live_server, django_user_model, csp_violations, shots
):
    match = start(django_user_model, 6)
    page = open_sheet(browser, live_server, csp_violations, match, script=True)
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    fits(page, shots, "6-script-start")
    ana, beto = key(match, "Ana"), key(match, "Beto")
    tap(page, {"by": ana, "call": "truco"}, events=1)
    tap(page, {"by": beto, "call": "envido"}, events=2)
    assert page.locator("#entry .entry-group--answer legend").inner_text() == "Responder al canto"
    fits(page, shots, "6-script-answer")
    # The server draws the same cards, button for button, for this device's hand.
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    device = [c for c in page.context.cookies() if c["name"] == "tanteo_device"]
    server = open_sheet(browser, live_server, csp_violations, match, script=False, cookies=device)
    assert server.locator("#entry .hand-summary li").count() == 2
    shape = server.locator("#entry .entry-group--answer").evaluate(SHAPE)
    assert page.locator("#entry .entry-group--answer").evaluate(SHAPE) == shape
    assert csp_violations == []
    server.context.close()
    page.context.close()
