"""The score kept on a player's phone (390×844) in a real browser: opened from his team's
page with no account, the engine in the page, the network cut in the middle of a hand,
the hand kept through a reload, the outbox sending it once the network is back, the
public match page showing it; a result reported meanwhile refuses the phone's hand, said
on the phone, the hand kept. And the sheet fitting the phone for 2, 4 and 6 players and
a table of three.

Debian's Chromium through Playwright; Pyodide from ``node_modules``. Screenshots go to
``shots`` (``$TANTEO_SCREENSHOT_DIR`` keeps them). Every wait is on a state of the page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browsers import watch_csp
from tests.referees.conftest import key, make_match
from tests.referees.test_browser_tablet_offline import console_hand, stored, tap
from tests.referees.test_browser_take_over import TABLE_SIZES, TEAMS, TRICK, steps
from tests.tournaments.test_gallo_tables import _table
from tournaments.entries import reports
from tournaments.entries.services import link_issue
from tournaments.models import Match, Scorekeeping, TeamAct
from tournaments.results import services as result_services

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
DESKTOP = {"width": 1280, "height": 800}


def players_keep_score(match: Match) -> Match:
    championship = match.stage.championship
    championship.scorekeeping = Scorekeeping.PLAYERS
    championship.save(update_fields=["scorekeeping"])
    return match


def console_match() -> Match:
    """Eliana against Ivan, one player a side, seated, no referee anywhere."""
    match = make_match(teams=(("Eliana",), ("Ivan",)), team_names=("Eliana", "Ivan"))
    result_services.match_start(match=match, seats=[key(match, "Eliana"), key(match, "Ivan")])
    return players_keep_score(match)


def phone(browser, live_server, csp_violations, match: Match, *, language: str = "en", shots=None):
    """Team A's player on his phone: from his team's page to the match's sheet, once the
    engine runs in the page."""
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        extra_http_headers={"Accept-Language": language},
        service_workers="allow",
    )
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.set_default_timeout(60_000)
    token = link_issue(team=match.team_a, via="organiser")
    slug = match.stage.championship.slug
    page.goto(f"{live_server.url}{reverse('tournaments:team_link', args=[slug, token])}")
    if shots is not None:
        page.screenshot(path=str(shots / "phone-team-page.png"), full_page=True)
    page.locator("#keep-score").click()
    page.wait_for_url(f"**{reverse('referees:team_sheet', args=[slug, token, match.pk])}")
    page.wait_for_selector("#entry[data-engine=browser]", timeout=120_000)
    return page


def test_the_phone_keeps_the_hand_offline_and_sends_it_when_back(
    browser, live_server, csp_violations, shots
):
    match = console_match()
    page = phone(browser, live_server, csp_violations, match, shots=shots)
    # The service worker keeps the page (under its scope), the engine and Pyodide.
    page.wait_for_function("window.tanteoTablet.offline === true", timeout=60_000)
    page.wait_for_selector("[data-sync=saved]")
    page.screenshot(path=str(shots / "phone-sheet-start.png"), full_page=True)
    events = console_hand(match)

    page.context.set_offline(True)
    for event in events[:4]:
        tap(page, event)
    page.wait_for_selector("[data-sync=offline]")
    page.screenshot(path=str(shots / "phone-sheet-offline.png"), full_page=True)
    page.reload()  # from the service worker; the taps from the phone's storage
    page.wait_for_selector("#entry[data-engine=browser]", timeout=120_000)
    assert page.locator("#entry .hand-summary li").all_inner_texts() == [
        "Eliana calls real envido",
        "Ivan: no quiero",
        "Trick to Ivan",
        "Ivan calls truco",
    ]
    for event in events[4:]:
        tap(page, event)
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("text=Hand 1 saved: Eliana 1 – 4 Ivan.")
    assert page.locator("tr[data-tablet=pending]").count() == 1
    assert stored(match) == []

    page.context.set_offline(False)
    page.wait_for_selector("[data-sync=saved]", timeout=60_000)
    assert page.locator("tr[data-tablet=pending]").count() == 0
    page.screenshot(path=str(shots / "phone-sheet-synced.png"), full_page=True)
    assert len(stored(match)) == 1
    act = TeamAct.objects.get(action=TeamAct.Action.HAND_RECORDED)
    assert (act.team_id, act.via) == (match.team_a_id, TeamAct.Via.LINK)

    # The public match page follows the hand, as with a referee.
    public = page.context.new_page()
    slug = match.stage.championship.slug
    public.goto(f"{live_server.url}{reverse('tournaments:match', args=[slug, match.pk])}")
    public.wait_for_selector("text=Eliana")
    body = public.inner_text("main")
    assert "Hand 1" in body and "Ivan +4" in body
    public.screenshot(path=str(shots / "phone-public-match.png"), full_page=True)
    assert csp_violations == []
    page.context.close()


def test_a_result_reported_while_the_phone_was_offline_is_said_and_the_hand_kept(
    browser, live_server, csp_violations, shots
):
    match = console_match()
    page = phone(browser, live_server, csp_violations, match)
    page.wait_for_function("window.tanteoTablet.offline === true", timeout=60_000)
    page.context.set_offline(True)
    for event in console_hand(match):
        tap(page, event)
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("text=Hand 1 saved: Eliana 1 – 4 Ivan.")
    # Meanwhile Ivan's team reports a result from its own link: stored first, it wins.
    link_issue(team=match.team_b, via="organiser")
    reports.link_report(
        team=match.team_b,
        match=match,
        games=[{"score": {"A": 12, "B": 30}}, {"score": {"A": 20, "B": 30}}],
        link=match.team_b.links.get(revoked_at__isnull=True),
    )
    page.context.set_offline(False)
    alert = page.locator("#entry .tablet-alert")
    alert.wait_for(timeout=60_000)
    assert "The result of this match has been reported" in alert.inner_text()
    # Nothing lost silently: the hand stays on the phone, with a way to discard it.
    assert page.locator("tr[data-tablet=pending]").count() == 1
    discard = page.locator("#entry .tablet-alert [data-op=discard]")
    assert discard.inner_text() == "Discard what this phone kept and reload"
    page.screenshot(path=str(shots / "phone-sheet-refused.png"), full_page=True)
    assert stored(match) == []
    assert csp_violations == []
    page.context.close()


def sized(size: str) -> Match:
    match = _table() if size == "three" else make_match(teams=TEAMS[int(size)])
    result_services.match_start(match=match)
    return players_keep_score(match)


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_the_phone_sheet_fits_a_phone(browser, live_server, csp_violations, shots, size):
    """On the phone the sheet scrolls, but nothing is wider than the screen, every button
    is a finger's height, and the hand's first row of buttons is on the first screen."""
    match = sized(size)
    page = phone(browser, live_server, csp_violations, match, language="es")
    page.wait_for_selector("[data-sync=saved]", timeout=60_000)
    for step in ("start", "trick"):
        if step == "trick":
            before = steps(page)
            page.locator(TRICK).first.click()
            page.wait_for_function(
                "n => document.querySelectorAll('#entry .hand-summary li').length > n",
                arg=before,
            )
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"phone-sheet-{size}-{step}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{size} {step}: {width} px wide"
        heights = page.locator("#entry button:visible, #entry summary:visible").evaluate_all(
            "nodes => nodes.map(n => n.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44, f"{size} {step}: a button {min(heights)} px"
        header = page.locator(".site-header").bounding_box()["height"]
        assert header <= 80, f"{size}: the header is {header:.0f} px high"
    for name, viewport in (("tablet", TABLET), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"phone-sheet-{size}-{name}.png"))
    assert csp_violations == []
    page.context.close()
