"""The tablet page looks and behaves the same whether the server or the script drew it:
once the engine runs in the page (static/js/tablet-client.js), the two sides keep their
places with the mano marked, a team goes to the mazo in one tap, "start the hand again"
asks and can be undone, as on the server-rendered page (templates/referees/sheet.html).

Debian's Chromium through Playwright, as test_browser_tablet_offline (whose helpers log
in and wait for the engine). Screenshots of both pages at tablet portrait and landscape.
"""

from __future__ import annotations

import json

from django.urls import reverse

from tests.browsers import log_in
from tests.referees.conftest import key, make_match
from tests.referees.test_browser_tablet_draft import LANDSCAPE, referee
from tests.referees.test_browser_tablet_offline import PASSWORD, TABLET, tablet
from tournaments.results import services as result_services

# What a side's part of the entry is made of: each element's classes, event and words.
SHAPE = """root => Array.from(root.querySelectorAll('[class], button')).map(node => [
    node.className,
    node.getAttribute('data-event') || '',
    node.getAttribute('data-player') || '',
    node.children.length ? '' : node.textContent.replace(/\\s+/g, ' ').trim(),
])"""


def box(page, selector: str) -> dict:
    # The script redraws the entry when a sync ends: an element measured as it is
    # replaced has no box, so it is looked up again.
    for _attempt in range(5):
        found = page.locator(selector).bounding_box()
        if found is not None:
            return found
        page.wait_for_timeout(200)
    raise AssertionError(f"{selector} is not on screen")


def sides_in_place(page, mano: str, mano_side: str) -> None:
    """Side A's column left of side B's, on one row; the mano marked in his side."""
    a, b = box(page, ".side-column--A"), box(page, ".side-column--B")
    assert a["x"] + a["width"] <= b["x"]
    assert abs(a["y"] - b["y"]) < 1
    marked = page.locator("#entry .player-card--mano")
    assert marked.count() == 1
    assert marked.get_attribute("data-player") == mano
    assert page.locator(f".side-column--{mano_side} .player-card--mano .mano-mark").count() == 1


def server_drawn(page, browser, live_server, match, shots, name: str, part: str = ".sides"):
    """The same sheet with JavaScript off, as the same device (the script's hand in progress
    is this device's draft): the server's drawing, its shape and screenshots."""
    context = browser.new_context(
        viewport=TABLET, java_script_enabled=False, extra_http_headers={"Accept-Language": "en"}
    )
    context.add_cookies([c for c in page.context.cookies() if c["name"] == "tanteo_device"])
    log_in(context, live_server, "lucia", PASSWORD)
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('referees:sheet', args=[match.pk])}")
    assert page.locator("#entry[data-engine]").count() == 0  # no script ran
    page.screenshot(path=str(shots / f"{name}-server-portrait.png"), full_page=True)
    page.set_viewport_size(LANDSCAPE)
    page.screenshot(path=str(shots / f"{name}-server-landscape.png"), full_page=True)
    shape = page.locator(f"#entry {part}").evaluate(SHAPE)
    context.close()
    return shape


def test_the_script_draws_the_sides_the_mano_the_team_mazo_and_the_restart_as_the_server(
    browser, live_server, django_user_model, csp_violations, shots
):
    user = referee(django_user_model)
    match = result_services.match_start(match=make_match(referee=user))
    ana, beto, bruno = key(match, "Ana"), key(match, "Beto"), key(match, "Bruno")
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")

    # Hand 1: Ana (side A) is mano. The script's sides are the server's, button for button.
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    sides_in_place(page, ana, "A")
    page.screenshot(path=str(shots / "hand1-script-portrait.png"), full_page=True)
    page.set_viewport_size(LANDSCAPE)
    sides_in_place(page, ana, "A")
    page.screenshot(path=str(shots / "hand1-script-landscape.png"), full_page=True)
    page.set_viewport_size(TABLET)
    assert page.locator("#entry .sides").evaluate(SHAPE) == server_drawn(
        page, browser, live_server, match, shots, "hand1"
    )

    # Las Flores go to the mazo in one tap: the hand is decided.
    team_mazo = [{"by": beto, "mazo": True}, {"by": bruno, "mazo": True}]
    button = page.locator(".side-column--B .big-button--mazo")
    assert json.loads(button.get_attribute("data-event")) == team_mazo
    assert button.inner_text() == "Las Flores go to the mazo"
    assert box(page, ".side-column--B .big-button--mazo")["height"] >= 48
    button.click()
    page.wait_for_selector("#entry [data-op=save]")
    assert page.locator("#entry .hand-summary li").all_inner_texts() == [
        "Beto goes to the mazo",
        "Bruno goes to the mazo",
    ]
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("text=Hand 1 saved: Los Anchos 2 – 0 Las Flores.")
    page.wait_for_selector("#entry h2:has-text('Hand 2')")
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)

    # Hand 2: Beto (side B) is mano; the sides stay where they were, the mark moves (in
    # the seating list too), and the sync indicator keeps the server's dot.
    sides_in_place(page, beto, "B")
    assert page.locator(".seat--mano").get_attribute("data-player") == beto
    assert page.locator(".seat--mano strong").inner_text() == "· mano"
    assert page.locator("#tablet-sync .sync__dot").count() == 1
    page.screenshot(path=str(shots / "hand2-script-portrait.png"), full_page=True)
    page.set_viewport_size(LANDSCAPE)
    sides_in_place(page, beto, "B")
    page.screenshot(path=str(shots / "hand2-script-landscape.png"), full_page=True)
    page.set_viewport_size(TABLET)
    assert page.locator("#entry .sides").evaluate(SHAPE) == server_drawn(
        page, browser, live_server, match, shots, "hand2"
    )

    # Start the hand again: asked first, then undone.
    call = {"by": beto, "call": "truco"}
    page.locator(f"#entry [data-event='{json.dumps(call, separators=(',', ':'))}']").click()
    page.wait_for_selector("#entry .hand-summary li:has-text('Beto calls truco')")
    page.locator("#entry [data-op=reset]").click()
    page.wait_for_selector("#entry .confirm[role=alertdialog]:has-text('Start hand 2 again?')")
    page.screenshot(path=str(shots / "hand2-script-confirm-restart.png"), full_page=False)
    page.locator("#entry [data-op=reset_keep]").click()
    assert page.locator("#entry .confirm").count() == 0
    assert page.locator("#entry .hand-summary li").all_inner_texts() == ["Beto calls truco"]
    page.locator("#entry [data-op=reset]").click()
    page.locator("#entry [data-op=reset_confirm]").click()
    page.wait_for_selector("#entry .hand-summary >> text=Nothing recorded yet.")
    page.locator("#entry [data-op=reset_undo]").click()
    page.wait_for_selector("#entry .hand-summary li:has-text('Beto calls truco')")
    assert page.locator("#entry [data-op=reset_undo]").count() == 0
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    assert csp_violations == []
    page.context.close()


def test_card_by_card_the_script_draws_the_servers_card_grid(
    browser, live_server, django_user_model, csp_violations, shots
):
    user = referee(django_user_model)
    match = make_match(referee=user, teams=(("Ana",), ("Beto",)))
    result_services.match_assign(match=match, entry="cards")
    match = result_services.match_start(match=match)
    ana, beto = key(match, "Ana"), key(match, "Beto")
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    # The cards dealt, in the server form's fields, then the grid of Ana's cards.
    # Folded by default (a tool used now and then): one tap opens it.
    page.locator("#entry summary:has-text('Cards dealt')").click()
    page.fill(f"#id_cards-{ana}", "7e 6E, 1O")
    page.fill(f"#id_cards-{beto}", "4C 5C 3O")
    page.locator("#entry [data-op=cards]").click()
    # Before the engine answers, the grid offers every card of the four suits (no card is
    # known yet): the answer is the grid of Ana's two suits.
    page.wait_for_function("() => document.querySelectorAll('#entry .card-row__suit').length === 2")
    page.wait_for_selector("#entry .card-button[aria-label='7 of swords']")
    assert page.locator("#entry .entry-group--play legend").inner_text() == "Ana plays"
    assert page.locator("#entry .card-row__suit").all_inner_texts() == ["Swords", "Coins"]
    assert page.locator("#entry [data-event*=trick]").count() == 0
    assert box(page, "#entry .card-button[aria-label='7 of swords']")["height"] >= 48
    page.screenshot(path=str(shots / "cards-script-portrait.png"), full_page=True)
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    assert page.locator("#entry .entry-group--play").evaluate(SHAPE) == server_drawn(
        page, browser, live_server, match, shots, "cards", ".entry-group--play"
    )
    page.locator("#entry .card-button[aria-label='7 of swords']").click()
    page.wait_for_selector("#entry .hand-summary li:has-text('Ana plays 7 of swords')")
    assert page.locator("#entry .entry-group--play legend").inner_text() == "Beto plays"
    assert csp_violations == []
    page.context.close()
