"""The public pages in a real browser, at a phone's width and on the venue's TV.

A spectator on a phone (390 px wide) must never have to scroll the page sideways: wide
tables and the bracket scroll inside their own box. Screenshots go to
``$TANTEO_SCREENSHOT_DIR`` when it is set, to look at them (tests/browsers.py).
"""

from __future__ import annotations

import random

from django.urls import reverse

from tests.browsers import watch_csp
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments import demo
from tournaments.models import HandDraft, Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 820, "height": 1180},
    "landscape": {"width": 1180, "height": 820},
    "desktop": {"width": 1280, "height": 800},
}
TV = {"width": 1920, "height": 1080}


def championship_in_play():
    """Groups played (long team names), the knockout started: one quarter-final half
    played hand by hand with a hand in progress, another just started."""
    running = ChampionshipFactory(name="Abierto de Truco de la Villa de Gràcia")
    for n in range(8):
        TeamFactory(championship=running, name=f"Peña Los Amigos del Ancho de Espadas {n + 1}")
    stage = stage_services.stage_create(
        championship=running, format="groups_knockout", settings={"group_count": 2, "advance": 2}
    )
    while True:
        pending = list(stage.matches.exclude(status__in=Match.DECIDED).filter(group__isnull=False))
        for match in pending:
            result_services.match_walkover(match=match, winner=match.team_a, reason="no show")
        created = stage_services.round_generate(stage=stage)
        if any(m.bracket_id for m in created):
            break
    rng = random.Random(3)
    knockout = [m for m in stage.matches.filter(status=Match.Status.SCHEDULED).order_by("pk")]
    for table, match in enumerate(knockout[:2], start=1):
        result_services.match_assign(match=match, table=str(table), scheduled_at=None, referee=None)
        result_services.match_start(match=match)
    match = result_selectors.match_detail(pk=knockout[0].pk)
    # The demo's hands to the match's end; up to 12 of them, never its last: a hand is
    # left to play.
    played = demo.play_match_hands(rng, match)
    hands = played[: min(12, len(played) - 1)]
    result_services.match_hands_import(match=match, records=hands, recorded_by=None)
    match = result_selectors.match_detail(pk=match.pk)
    upcoming = records.stored_state(match, len(hands)).next_hand(records.match_head(match))
    mano = upcoming.order[0]
    HandDraft.objects.create(
        match=match, number=len(hands) + 1, record={"events": [{"by": mano, "call": "envido"}]}
    )
    return running, stage, match


def test_a_spectator_on_a_phone_never_scrolls_sideways(browser, live_server, shots, csp_violations):
    running, stage, match = championship_in_play()
    pages = {
        "match": reverse("tournaments:match", args=[running.slug, match.pk]),
        "board": reverse("tournaments:board", args=[running.slug]),
        "standings": reverse("tournaments:standings", args=[running.slug, stage.pk]),
        "bracket": reverse("tournaments:bracket", args=[running.slug, stage.pk]),
        "round": reverse("tournaments:round", args=[running.slug, stage.pk, match.round.number]),
        "championship": reverse("tournaments:championship", args=[running.slug]),
    }
    for size, viewport in SIZES.items():
        context = browser.new_context(
            viewport=viewport, extra_http_headers={"Accept-Language": "es"}
        )
        watch_csp(context, csp_violations)
        page = context.new_page()
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            page.screenshot(path=str(shots / f"public-{name}-{size}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{name} is {width}px wide at {size}"
            if name == "bracket":
                # "The bracket scrolls sideways" only where it does.
                hint = page.locator(".scroll-hint")
                scrolls = page.evaluate(
                    "(() => { const b = document.querySelector('.bracket');"
                    " return b.scrollWidth > b.clientWidth; })()"
                )
                assert hint.is_visible() == scrolls, f"the scroll hint at {size}"
        context.close()
    assert csp_violations == []


def test_the_phone_shows_the_running_score_and_the_hand_in_play(browser, live_server, shots):
    running, _stage, match = championship_in_play()
    match.refresh_from_db()
    context = browser.new_context(
        viewport=SIZES["phone"], extra_http_headers={"Accept-Language": "en"}
    )
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('tournaments:match', args=[running.slug, match.pk])}")
    # The headline, the first thing on the screen, is the chico's running score.
    for side in ("A", "B"):
        score = page.locator(f'[data-score-side="{side}"]')
        assert score.inner_text() == str(match.state["score"][side])
        assert score.bounding_box()["y"] < SIZES["phone"]["height"]
    assert page.locator(".hand-now").inner_text().startswith(f"Hand {match.hands.count() + 1}")
    assert page.locator(".hand-line").count() == match.hands.count()
    page.screenshot(path=str(shots / "public-match-phone-top.png"))
    context.close()


def test_the_venue_screen_shows_every_table_live(browser, live_server, shots, csp_violations):
    running, _stage, _match = championship_in_play()
    context = browser.new_context(viewport=TV, extra_http_headers={"Accept-Language": "ca"})
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('tournaments:board', args=[running.slug])}?tv=1")
    page.screenshot(path=str(shots / "public-board-tv.png"))
    in_play = Match.objects.filter(stage__championship=running, status=Match.Status.IN_PROGRESS)
    cards = page.locator(".board__playing .match-card")
    assert cards.count() == in_play.count() == 2
    for index in range(cards.count()):
        box = cards.nth(index).bounding_box()
        assert box["y"] + box["height"] <= TV["height"]  # on screen without scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    assert page.locator(".site-header").count() == 0
    assert csp_violations == []
