"""The referee's sheet fits one tablet screen: for 2, 4 and 6 players and a table of
three, everything a hand needs (score, the hand so far, tricks, every player's calls,
answers and mazo, undo and the referee's tools) is on screen without scrolling, at
1180×820 (landscape) and 820×1180 (portrait), whether the server drew the page or the
tablet's script did, with the flash that follows a take-over or a saved hand shown, and a
referee whose name is not short (the header must not wrap), in Spanish and Catalan, whose
words are the longest on these buttons.

Debian's Chromium through Playwright. Screenshots of each size, the phone's too
(390×844, where the sheet scrolls but nothing is wider than the screen), go to ``shots``
(``$TANTEO_SCREENSHOT_DIR`` keeps them). Every wait is on a state of the page.
"""

from __future__ import annotations

import json

import pytest

from tests.referees.conftest import key
from tests.referees.test_browser_tablet_client_layout import SHAPE
from tests.referees.test_browser_take_over import (
    TABLE_SIZES,
    TRICK,
    open_tablet,
    seated,
    steps,
    submit,
)
from tournaments.results import drafts

LANDSCAPE = {"width": 1180, "height": 820}
PORTRAIT = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
SIZES = {"landscape": LANDSCAPE, "portrait": PORTRAIT}
# A referee as the organiser names him: the header's "Log out ..." carries it.
USERNAME = "montserrat.vilaseca"


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


def fits(page, shots, name: str, *, flash: str = "") -> None:
    """At each size, the entry ends inside the screen, the page scrolled to its top, and
    every button of the entry is a finger's height; ``flash`` (a selector), when given, is
    on screen too. On the phone, nothing is wider than the screen."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"sheet-{name}-{size}.png"))
        entry = page.locator("#entry").bounding_box()
        assert entry is not None
        bottom = entry["y"] + entry["height"]
        assert bottom <= viewport["height"], f"{name} at {size}: the entry ends at {bottom:.0f} px"
        header = page.locator(".site-header").bounding_box()["height"]
        assert header <= 80, f"{name} at {size}: the header is {header:.0f} px high"
        if flash:
            shown = page.locator(flash).bounding_box()
            assert shown is not None and shown["y"] >= 0, f"{name} at {size}: no flash"
            assert shown["y"] + shown["height"] <= viewport["height"], name
        heights = page.locator("#entry button:visible, #entry summary:visible").evaluate_all(
            "nodes => nodes.map(n => n.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44, f"{name} at {size}: a button {min(heights)} px"
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"sheet-{name}-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    page.set_viewport_size(LANDSCAPE)


def hold_elsewhere(match) -> None:
    """Another tablet holds the match: the sheet opened here takes it over first."""
    drafts.draft_save(
        match=match, number=1, record={}, device="tablet-other", revision=0, by=match.referee
    )


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_server_drawn_sheet_fits_a_tablet_either_way_round(
    browser, live_server, django_user_model, csp_violations, shots, players
):
    """An answer awaited: the answering side's cards carry it, the whole still on screen."""
    match = seated(django_user_model, str(players), username=USERNAME)
    page = open_tablet(
        browser,
        live_server,
        csp_violations,
        match,
        script=False,
        username=USERNAME,
        viewport=LANDSCAPE,
        language="es",
    )
    calls = page.locator("#entry .player-card .call-button")
    # Every player has his row of calls and his mazo (each labelled with its sentence).
    assert calls.count() == 5 * players
    fits(page, shots, f"{players}-server-start")
    assert page.locator("#entry [aria-label='Ana canta truco']").inner_text() == "Truco"
    ana, beto = key(match, "Ana"), key(match, "Beto")
    tap(page, {"by": ana, "call": "truco"}, events=1)
    tap(page, {"by": beto, "call": "envido"}, events=2)
    answer = page.locator("#entry .entry-group--answer legend")
    assert answer.inner_text() == "Responder al canto"
    assert page.locator(f"#entry .player-card[data-player='{ana}'] .call-button--answer").count()
    fits(page, shots, f"{players}-server-answer")
    assert csp_violations == []
    page.context.close()


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_the_server_drawn_sheet_fits_with_its_flash_in_spanish_and_catalan(
    browser, live_server, django_user_model, csp_violations, shots, size
):
    match = seated(django_user_model, size, username=USERNAME)
    hold_elsewhere(match)
    for language in ("es", "ca"):
        page = open_tablet(
            browser,
            live_server,
            csp_violations,
            match,
            script=False,
            username=USERNAME,
            viewport=LANDSCAPE,
            language=language,
        )
        # Taken over from the other tablet: the flash says so above the hand.
        page.wait_for_selector("#entry[data-held=other]")
        submit(page, "#entry [data-op=takeover]")
        fits(page, shots, f"{size}-server-{language}-taken-over", flash=".messages")
        # A hand played to its end and saved: the flash gives its points above the next.
        if page.locator(TRICK).count():
            while not page.locator("#entry [data-op=save]").count():
                submit(page, TRICK)
            submit(page, "#entry [data-op=save]")
            page.wait_for_selector(".messages .message--success")
            fits(page, shots, f"{size}-server-{language}-saved", flash=".messages")
        page.context.close()
    assert csp_violations == []


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_the_script_drawn_sheet_fits_with_its_notice(
    browser, live_server, django_user_model, csp_violations, shots, size
):
    match = seated(django_user_model, size, username=USERNAME)
    hold_elsewhere(match)
    page = open_tablet(
        browser,
        live_server,
        csp_violations,
        match,
        script=True,
        username=USERNAME,
        viewport=LANDSCAPE,
        language="es",
    )
    page.locator("#entry [data-op=takeover]").click()
    page.wait_for_selector(".tablet-notice")
    page.wait_for_selector("#entry[data-engine=browser]:not([data-held])")
    page.wait_for_selector("[data-sync=saved]")
    fits(page, shots, f"{size}-script-taken-over", flash=".tablet-notice")
    while not page.locator("#entry [data-op=save]").count():
        before = steps(page)
        page.locator(TRICK).first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('#entry .hand-summary li').length > n", arg=before
        )
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector(".tablet-notice:has-text('Mano 1 guardada')")
    page.wait_for_selector("[data-sync=saved]")
    fits(page, shots, f"{size}-script-saved", flash=".tablet-notice")
    assert csp_violations == []
    page.context.close()


def test_the_script_draws_the_answering_cards_as_the_server_does(
    browser, live_server, django_user_model, csp_violations, shots
):
    match = seated(django_user_model, "6", username=USERNAME)
    page = open_tablet(
        browser,
        live_server,
        csp_violations,
        match,
        script=True,
        username=USERNAME,
        viewport=LANDSCAPE,
        language="es",
    )
    page.wait_for_selector("[data-sync=saved]", timeout=60_000)
    fits(page, shots, "6-script-start")
    ana, beto = key(match, "Ana"), key(match, "Beto")
    tap(page, {"by": ana, "call": "truco"}, events=1)
    tap(page, {"by": beto, "call": "envido"}, events=2)
    assert page.locator("#entry .entry-group--answer legend").inner_text() == "Responder al canto"
    fits(page, shots, "6-script-answer")
    # The server draws the same cards, button for button, for this device's hand.
    page.wait_for_selector("[data-sync=saved]", timeout=60_000)
    # Another browser with this one's session and device: the same tablet, no script.
    cookies = page.context.cookies()
    assert any(c["name"] == "tanteo_device" for c in cookies)
    server = browser.new_context(
        viewport=LANDSCAPE, java_script_enabled=False, extra_http_headers={"Accept-Language": "es"}
    )
    server.add_cookies(cookies)
    drawn = server.new_page()
    drawn.goto(page.url.split("#")[0])
    assert drawn.locator("#entry .hand-summary li").count() == 2
    shape = drawn.locator("#entry .entry-group--answer").evaluate(SHAPE)
    assert page.locator("#entry .entry-group--answer").evaluate(SHAPE) == shape
    assert csp_violations == []
    server.close()
    page.context.close()
