"""The tablet in a real browser: the hand in progress kept on the server and resumed in
another browser, two tablets on one match (take-over, a stale save refused), a hand
entered card by card; screenshots at tablet portrait and landscape and phone sizes.

Debian's Chromium through Playwright (skipped without it), as test_browser_referee_tablet.
Each ``logged_in_page`` is a browser context of its own: its own session and its own
``tanteo_device`` cookie, i.e. another tablet.
"""

from __future__ import annotations

import json

from tests.referees.conftest import key, make_match
from tournaments.models import Hand, HandDraft
from tournaments.results import services as result_services

PORTRAIT = {"width": 820, "height": 1180}
LANDSCAPE = {"width": 1180, "height": 820}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "falta-envido-30"


def referee(django_user_model):
    user = django_user_model.objects.create_user(username="lucia", password=PASSWORD)
    return user


def tap(page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()
    page.wait_for_load_state("domcontentloaded")


def score_in_view(page, viewport) -> bool:
    """After scrolling to the bottom of the sheet, both sides' points are still on screen."""
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    for side in ("A", "B"):
        box = page.locator(f".scoreboard__points[data-side={side}]").bounding_box()
        if box is None or box["y"] < 0 or box["y"] + box["height"] > viewport["height"]:
            return False
    return True


def test_a_hand_in_progress_resumes_in_another_browser_after_a_take_over(
    logged_in_page, live_server, shots, django_user_model, csp_violations
):
    user = referee(django_user_model)
    match = result_services.match_start(match=make_match(referee=user))
    sheet = f"/referee/matches/{match.pk}/"

    first = logged_in_page(sheet, "lucia", PASSWORD, viewport=PORTRAIT)
    tap(first, "Ana calls truco")
    tap(first, "Beto: quiero")
    first.wait_for_selector("[data-sync=saved]")
    # Every button that records an event carries it; the save is marked.
    retruco = json.dumps({"by": key(match, "Beto"), "call": "retruco"}, separators=(",", ":"))
    truco = first.locator(f"[data-event='{retruco}']")
    assert truco.count() == 1
    first.screenshot(path=str(shots / "tablet-portrait.png"), full_page=False)
    assert score_in_view(first, PORTRAIT)
    for control in first.locator(".entry button").all():
        box = control.bounding_box()
        assert box is None or box["height"] >= 48, control.inner_text()

    # Another tablet (a battery ran out, a bookmark): told, it takes over, the hand is there.
    second = logged_in_page(sheet, "lucia", PASSWORD, viewport=LANDSCAPE)
    second.wait_for_selector("text=Another device is entering this match (since")
    assert second.locator("[data-event]").count() == 0
    second.screenshot(path=str(shots / "tablet-landscape-held.png"), full_page=False)
    tap(second, "Take over on this device")
    second.wait_for_selector("text=This device now enters the match")
    second.wait_for_selector(".hand-summary li:has-text('Beto: quiero')")
    tap(second, "Trick to Ana and Alba")
    second.wait_for_selector("[data-sync=saved]")
    second.screenshot(path=str(shots / "tablet-landscape.png"), full_page=False)
    assert score_in_view(second, LANDSCAPE)
    assert second.evaluate("document.documentElement.scrollWidth") <= LANDSCAPE["width"]

    # The first tablet's next tap is refused, not merged.
    tap(first, "Trick to Beto and Bruno")
    # Said by the server page, or by the tablet's script once its engine has taken over
    # (its draft sync answered 409): either way the tap is refused.
    first.wait_for_selector("text=/Another device (is entering|holds) this match/")
    assert [e.get("trick") for e in HandDraft.objects.get().record["events"]][-1] == "A"

    tap(second, "Trick to Ana and Alba")
    second.locator("[data-op=save]").click()
    second.wait_for_selector("text=Hand 1 saved: Los Anchos 2 – 0 Las Flores.")
    assert Hand.objects.get().points_a == 2
    assert csp_violations == []
    first.context.close()
    second.context.close()


def test_two_tablets_a_stale_take_over_is_refused(
    logged_in_page, live_server, shots, django_user_model
):
    user = referee(django_user_model)
    match = result_services.match_start(match=make_match(referee=user))
    sheet = f"/referee/matches/{match.pk}/"
    first = logged_in_page(sheet, "lucia", PASSWORD, viewport=PORTRAIT)
    tap(first, "Ana calls envido")
    second = logged_in_page(sheet, "lucia", PASSWORD, viewport=PORTRAIT)
    # The first tablet's page (already showing the take-over offer) goes stale meanwhile.
    tap(first, "Beto: quiero")
    tap(second, "Take over on this device")  # second's page saw revision 1: stale
    second.wait_for_selector("text=changed on another device")
    assert HandDraft.objects.get().device != ""
    # Reloaded, it sees the hand as it is and may take over.
    second.wait_for_selector("text=Another device is entering this match")
    tap(second, "Take over on this device")
    second.wait_for_selector(".hand-summary li:has-text('Beto: quiero')")
    second.screenshot(path=str(shots / "tablet-taken-over.png"), full_page=True)
    first.context.close()
    second.context.close()


def test_start_again_asks_and_can_be_undone(logged_in_page, live_server, shots, django_user_model):
    user = referee(django_user_model)
    match = result_services.match_start(match=make_match(referee=user))
    page = logged_in_page(f"/referee/matches/{match.pk}/", "lucia", PASSWORD, viewport=PHONE)
    tap(page, "Ana calls truco")
    tap(page, "Start the hand again")
    page.wait_for_selector("text=Start hand 1 again?")
    page.screenshot(path=str(shots / "phone-confirm-restart.png"), full_page=False)
    tap(page, "Yes, start the hand again")
    page.wait_for_selector("text=Nothing recorded yet.")
    tap(page, "Undo the restart")
    page.wait_for_selector(".hand-summary li:has-text('Ana calls truco')")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert score_in_view(page, PHONE)
    page.screenshot(path=str(shots / "phone.png"), full_page=False)
    page.context.close()


def test_a_hand_entered_card_by_card(logged_in_page, live_server, shots, django_user_model):
    user = referee(django_user_model)
    match = make_match(referee=user, teams=(("Ana",), ("Beto",)))
    result_services.match_assign(match=match, entry="cards")
    match = result_services.match_start(match=match)
    ana, beto = key(match, "Ana"), key(match, "Beto")
    page = logged_in_page(f"/referee/matches/{match.pk}/", "lucia", PASSWORD, viewport=PORTRAIT)
    # Folded by default (a tool used now and then): one tap opens it.
    page.locator("#entry summary:has-text('Cards dealt')").click()
    page.fill(f"#id_cards-{ana}", "7E 6E 1O")
    page.fill(f"#id_cards-{beto}", "4C 5C 3O")
    tap(page, "Keep these cards")
    tap(page, "Ana calls envido")
    tap(page, "Beto: quiero")
    page.screenshot(path=str(shots / "tablet-cards.png"), full_page=False)
    for card in ("7 of swords", "4 of cups", "6 of swords", "5 of cups"):
        page.get_by_role("button", name=card, exact=True).click()
        page.wait_for_load_state("domcontentloaded")
    page.locator("[data-op=save]").click()
    page.wait_for_selector("text=Hand 1 saved: Los Anchos 3 – 0 Las Flores.")
    hand = Hand.objects.get()
    assert [e["play"] for e in hand.record["events"] if "play" in e] == ["7E", "4C", "6E", "5C"]
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(shots / "desktop-cards.png"), full_page=False)
    page.context.close()
