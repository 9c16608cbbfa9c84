"""The public pages follow a match live, in a real browser (Playwright, Debian's Chromium).

A match page and its round page are open; a hand is posted through the API; both
update by themselves within 2 seconds, without being reloaded (static/js/live.js over
the socket of ``config.asgi``, served by daphne: ``asgi_live_server``). When the socket
cannot open, the page polls instead.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from rest_framework.authtoken.models import Token

from tests.browsers import watch_csp
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.models import Championship
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
TABLET_LANDSCAPE = {"width": 1180, "height": 820}
DESKTOP = {"width": 1280, "height": 800}
TV = {"width": 1920, "height": 1080}
UPDATE_MS = 2000  # the promise: every open page shows a saved hand within 2 s


@pytest.fixture
def match_in_play(asgi_live_server):
    championship = ChampionshipFactory(name="Copa Rosario", status=Championship.Status.RUNNING)
    TeamFactory(championship=championship, name="Los Anchos")
    TeamFactory(championship=championship, name="Las Flores")
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    referee = RefereeFactory(championships=[championship])
    result_services.match_assign(match=match, referee=referee)
    result_services.match_start(match=match, by=referee)
    return match, Token.objects.create(user=referee).key


def post_hand(server, match, token: str, number: int, side: str) -> dict:
    """Record a hand through the API: ``side`` takes the first two tricks (one point)."""
    body = {"number": number, "events": [{"trick": side}, {"trick": side}]}
    request = urllib.request.Request(
        f"{server.url}/api/v1/matches/{match.pk}/hands/",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        return json.load(response)


def open_page(browser, url: str, viewport, violations: list[str]):
    context = browser.new_context(viewport=viewport, extra_http_headers={"Accept-Language": "en"})
    watch_csp(context, violations)
    page = context.new_page()
    page.goto(url)
    # Marked on the document: a reload would lose it.
    page.evaluate("window.notReloaded = true")
    return page


def count_updates(page) -> None:
    """Count the fresh versions the page swaps in (static/js/live.js's ``live:updated``)."""
    page.evaluate(
        "window.liveUpdates = 0;"
        "document.addEventListener('live:updated', () => { window.liveUpdates += 1; })"
    )


def wait_for_update(page, timeout_ms: int) -> None:
    # Polled from here: the page's policy forbids the eval of Playwright's wait_for_function.
    deadline = time.monotonic() + timeout_ms / 1000
    while page.evaluate("window.liveUpdates") == 0:
        assert time.monotonic() < deadline, f"{page.url} was not updated in {timeout_ms} ms"
        page.wait_for_timeout(50)


def score(page) -> tuple[str, str]:
    """The headline: each side's running score of the chico in play (``data-score-side``)."""
    return tuple(page.inner_text(f"main [data-score-side={side}]").strip() for side in "AB")


def test_an_open_match_page_updates_by_itself_when_a_hand_is_posted(
    browser, asgi_live_server, match_in_play, shots, csp_violations
):
    match, token = match_in_play
    slug = match.stage.championship.slug
    match_url = f"{asgi_live_server.url}/c/{slug}/matches/{match.pk}/"
    round_url = f"{asgi_live_server.url}/c/{slug}/stages/{match.stage_id}/rounds/1/"
    page = open_page(browser, match_url, DESKTOP, csp_violations)
    round_page = open_page(browser, round_url, PHONE, csp_violations)
    for opened in (page, round_page):
        opened.wait_for_selector("body[data-live-state=socket]", timeout=10_000)
    assert "No hand recorded yet." in page.inner_text("main")
    assert "Live: this page updates by itself." in page.inner_text(".live-status")
    count_updates(round_page)

    post_hand(asgi_live_server, match, token, 1, "A")

    # The hand's line, and the chico's running score 1 – 0 in the headline, arrive without
    # a reload.
    assert score(page) == ("0", "0")
    page.wait_for_selector("main .hand-line", timeout=UPDATE_MS)
    assert score(page) == ("1", "0")
    assert page.evaluate("window.notReloaded") is True
    # The round page (which shows the match) took its new version too, not reloaded.
    wait_for_update(round_page, UPDATE_MS)
    assert round_page.evaluate("window.notReloaded") is True

    # Another hand, for the other side: the score follows again.
    post_hand(asgi_live_server, match, token, 2, "B")
    page.wait_for_selector("main .hand-line:nth-child(2)", timeout=UPDATE_MS)
    assert score(page) == ("1", "1")
    assert page.evaluate("window.notReloaded") is True
    assert csp_violations == []

    for name, viewport in [
        ("phone", PHONE),
        ("tablet", TABLET),
        ("tablet-landscape", TABLET_LANDSCAPE),
        ("desktop", DESKTOP),
    ]:
        page.set_viewport_size(viewport)
        page.screenshot(path=str(shots / f"live-match-{name}.png"), full_page=True)
    round_page.screenshot(path=str(shots / "live-round-phone.png"), full_page=True)


def test_without_its_socket_the_page_polls(
    browser, asgi_live_server, match_in_play, csp_violations
):
    match, token = match_in_play
    slug = match.stage.championship.slug
    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    # A proxy that does not pass WebSockets: the socket never opens.
    context.route("**/ws/live/**", lambda route: route.abort())
    context.add_init_script("window.WebSocket = undefined;")
    page = context.new_page()
    page.goto(f"{asgi_live_server.url}/c/{slug}/matches/{match.pk}/")
    page.evaluate("window.notReloaded = true")
    page.wait_for_selector("body[data-live-state=polling]")
    assert "checks for updates every few seconds" in page.inner_text(".live-status")

    post_hand(asgi_live_server, match, token, 1, "B")

    # Polling every 5 s: within one period and a little, not within the socket's 2 s.
    page.wait_for_selector("main .hand-line", timeout=8_000)
    assert score(page) == ("0", "1")
    assert page.evaluate("window.notReloaded") is True


def test_the_venues_screen_follows_every_table_by_itself(
    browser, asgi_live_server, match_in_play, shots, csp_violations
):
    match, token = match_in_play
    slug = match.stage.championship.slug
    tv = open_page(browser, f"{asgi_live_server.url}/c/{slug}/board/?tv=1", TV, csp_violations)
    tv.wait_for_selector("body[data-live-state=socket]", timeout=10_000)
    count_updates(tv)
    sides = tv.locator("main .board__playing [data-score-side]")
    assert [sides.nth(i).inner_text().strip() for i in range(sides.count())] == ["0", "0"]

    post_hand(asgi_live_server, match, token, 1, "A")

    wait_for_update(tv, UPDATE_MS)
    # Still the TV mode (its own page, not the board's), with the new score, not reloaded.
    assert tv.evaluate("window.notReloaded") is True
    assert tv.locator("html.tv").count() == 1
    sides = tv.locator("main .board__playing [data-score-side]")
    assert [sides.nth(i).inner_text().strip() for i in range(sides.count())] == ["1", "0"]
    assert csp_violations == []
    tv.screenshot(path=str(shots / "live-tv.png"))
