"""In a real browser on a tablet: a referee logs in, records a hand by tapping, saves it.

Headless Chromium from Debian (``/usr/bin/chromium``) driven by Playwright against
pytest-django's ``live_server``; Playwright's own browser downloads are never used. Skips
when the browser or the ``playwright`` package is missing. Screenshots go to a temporary
folder, or to ``$TANTEO_SCREENSHOT_DIR`` to look at them.
"""

from __future__ import annotations

from tests.referees.conftest import make_match
from tournaments.models import Hand

TABLET = {"width": 1024, "height": 768}


def test_a_referee_records_a_hand_on_a_tablet(
    logged_in_page, live_server, shots, django_user_model, csp_violations
):
    referee = django_user_model.objects.create_user(username="lucia", password="falta-envido-30")
    match = make_match(referee=referee)

    page = logged_in_page("/referee/", "lucia", "falta-envido-30", viewport=TABLET)
    page.screenshot(path=str(shots / "referee-matches.png"), full_page=True)
    page.click("text=Los Anchos – Las Flores")
    page.wait_for_url(f"**/referee/matches/{match.pk}/")

    page.click("button:has-text('Start the match')")
    page.wait_for_selector("text=The players are seated: record the first hand.")
    page.screenshot(path=str(shots / "referee-sheet-start.png"), full_page=True)

    for label in ("Ana calls truco", "Beto: quiero", "Trick to Ana and Alba"):
        page.get_by_role("button", name=label, exact=True).click()
        page.wait_for_selector(f".hand-summary li:has-text('{label}')")
    # Buttons are big enough for a finger.
    box = page.get_by_role("button", name="Trick to Ana and Alba", exact=True).bounding_box()
    assert box is not None and box["height"] >= 48
    page.get_by_role("button", name="Trick to Ana and Alba", exact=True).click()
    page.wait_for_selector("text=Points: Los Anchos 2 – 0 Las Flores")
    page.screenshot(path=str(shots / "referee-hand-decided.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]

    page.get_by_role("button", name="Save hand").click()
    page.wait_for_selector("text=Hand 1 saved: Los Anchos 2 – 0 Las Flores.")
    assert page.locator(".scoreboard__points[data-side=A]").inner_text() == "2"
    assert "Mano: Beto" in page.content()
    page.screenshot(path=str(shots / "referee-after-save.png"), full_page=True)

    hand = Hand.objects.get(match=match)
    assert (hand.points_a, hand.points_b) == (2, 0)
    # The tablet's script is a static file: the policy blocked nothing on these pages.
    assert page.evaluate("typeof document.addEventListener") == "function"
    assert csp_violations == []
    page.context.close()


def test_the_tablet_refuses_a_second_tap_while_the_page_loads(
    logged_in_page, live_server, django_user_model, csp_violations
):
    """static/js/tablet.js runs under the policy: after one submit, the next is cancelled."""
    referee = django_user_model.objects.create_user(username="lucia", password="falta-envido-30")
    match = make_match(referee=referee)
    page = logged_in_page(
        f"/referee/matches/{match.pk}/", "lucia", "falta-envido-30", viewport=TABLET
    )
    cancelled = page.evaluate(
        """() => {
            const form = document.querySelector("form[method=post]");
            const first = new Event("submit", {cancelable: true, bubbles: true});
            const second = new Event("submit", {cancelable: true, bubbles: true});
            form.dispatchEvent(first);
            form.dispatchEvent(second);
            return [first.defaultPrevented, second.defaultPrevented];
        }"""
    )
    assert cancelled == [False, True]
    assert csp_violations == []
    page.context.close()
