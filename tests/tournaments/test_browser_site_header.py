"""The site's header on a phone, in a real browser: one short row with a menu that opens
(a <details>, no script), and the standings saying they scroll sideways only where they
do. Screenshots are drawn into ``$TANTEO_SCREENSHOT_DIR`` when it is set."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.browsers import watch_csp
from tests.tournaments.test_browser_public_pages import SIZES, championship_in_play

PHONE = SIZES["phone"]
WIDE = {"landscape": SIZES["landscape"], "desktop": {"width": 1440, "height": 900}}
HEADER_MAX = 120  # px of the phone's 844: the page starts on the first screen


def header_height(page) -> float:
    return page.locator(".site-header").bounding_box()["height"]


def test_on_a_phone_the_header_is_one_row_and_its_menu_opens(
    browser, live_server, shots, csp_violations
):
    running, _stage, _match = championship_in_play()
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('tournaments:championship', args=[running.slug])}")
    assert header_height(page) <= HEADER_MAX
    menu = page.locator(".site-menu__toggle")
    championships = page.locator(".site-nav a", has_text="Championships")
    assert menu.is_visible() and not championships.is_visible()
    page.screenshot(path=str(shots / "header-phone-closed.png"))

    menu.click()
    assert championships.is_visible()
    page.screenshot(path=str(shots / "header-phone-open.png"))
    # The menu opens over the page: the header itself stays as short.
    assert header_height(page) <= HEADER_MAX
    # Its links work: the languages, then the way home.
    page.locator(".language-switch a", has_text="Español").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "es"
    page.locator(".site-menu__toggle").click()
    page.locator(".site-nav a", has_text="Campeonatos").click()
    page.wait_for_url(f"{live_server.url}/")
    context.close()
    assert csp_violations == []


def test_the_phones_menu_opens_without_javascript(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, java_script_enabled=False, extra_http_headers={"Accept-Language": "en"}
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/")
    log_in = page.locator(".site-nav a", has_text="Log in")
    assert not log_in.is_visible()
    page.locator(".site-menu__toggle").click()
    log_in.click()
    page.wait_for_url("**/accounts/login/**")
    context.close()


@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_a_logged_in_header_stays_short_on_a_phone_and_a_tablet(
    logged_in_page, live_server, shots, size
):
    """An organiser has five links and the languages: they fold into the menu too, where
    a portrait tablet's header would otherwise take three rows."""
    get_user_model().objects.create_superuser("marta", password="envido-real-33")
    page = logged_in_page("/organiser/", "marta", "envido-real-33", viewport=SIZES[size])
    assert header_height(page) <= HEADER_MAX
    page.locator(".site-menu__toggle").click()
    for link in ("Organiser", "Referee", "API token"):
        assert page.locator(".site-nav a", has_text=link).is_visible()
    assert page.locator(".site-nav button", has_text="Log out marta").is_visible()
    page.screenshot(path=str(shots / f"header-{size}-logged-in-open.png"))
    page.locator(".site-nav a", has_text="Referee").click()
    page.wait_for_url(f"{live_server.url}{reverse('referees:matches')}")


def test_from_a_landscape_tablet_the_links_are_in_the_header(browser, live_server, csp_violations):
    running, _stage, _match = championship_in_play()
    for size, viewport in WIDE.items():
        context = browser.new_context(
            viewport=viewport, extra_http_headers={"Accept-Language": "en"}
        )
        watch_csp(context, csp_violations)
        page = context.new_page()
        page.goto(f"{live_server.url}{reverse('tournaments:championship', args=[running.slug])}")
        assert not page.locator(".site-menu__toggle").is_visible(), size
        assert page.locator(".site-nav a", has_text="Log in").is_visible(), size
        assert page.locator(".language-switch a", has_text="Català").is_visible(), size
        assert header_height(page) <= HEADER_MAX, size
        context.close()
    assert csp_violations == []


def test_the_standings_say_they_scroll_only_where_they_do(
    browser, live_server, shots, csp_violations
):
    running, stage, _match = championship_in_play()
    path = reverse("tournaments:standings", args=[running.slug, stage.pk])
    seen = {}
    for size, viewport in {"phone": PHONE, "tablet": SIZES["tablet"], **WIDE}.items():
        context = browser.new_context(
            viewport=viewport, extra_http_headers={"Accept-Language": "en"}
        )
        watch_csp(context, csp_violations)
        page = context.new_page()
        page.goto(f"{live_server.url}{path}")
        page.screenshot(path=str(shots / f"standings-hint-{size}.png"), full_page=True)
        hints = page.locator(".scroll-hint")
        assert hints.count() == stage.groups.count()
        for index in range(hints.count()):
            scrolls = hints.nth(index).evaluate(
                "hint => hint.nextElementSibling.scrollWidth > hint.nextElementSibling.clientWidth"
            )
            assert hints.nth(index).is_visible() == scrolls, size
            seen.setdefault(size, set()).add(scrolls)
        context.close()
    # The phone's tables are wider than the screen, the desktop's are not.
    assert seen["phone"] == {True} and seen["desktop"] == {False}
    assert csp_violations == []
