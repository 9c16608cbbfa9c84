"""A table of three (gallo por turno) on the referee's tablet in a real browser: the
engine runs in the page, the first hand is entered offline and synced, the rest online
until the table is over; screenshots at both tablet orientations.

Headless Debian Chromium (tests/conftest.py); Pyodide from ``node_modules``.
"""

from __future__ import annotations

from tests.referees.test_browser_tablet_offline import PASSWORD, tablet, tap
from tests.tournaments.test_gallo_tables import _table
from tournaments.models import ChampionshipReferee, Hand
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services


def gallo_table(django_user_model):
    referee = django_user_model.objects.create_user(username="lucia", password=PASSWORD)
    match = _table()
    ChampionshipReferee.objects.create(championship=match.stage.championship, user=referee)
    result_services.match_assign(match=match, referee=referee)
    result_services.match_start(match=match)
    match.refresh_from_db()
    return match


def play_hand(page, first: str, *, told: str = "") -> None:
    """The first seated calls truco, it is accepted, his side takes two tricks (``told``:
    the side's players as the hand's summary names them)."""
    tap(page, {"by": first, "call": "truco"})
    page.locator('#entry [data-event*=\'"answer":"quiero"\']').first.click()
    page.wait_for_selector("#entry .hand-summary li:has-text('quiero')")
    # The first seated's column is his side this hand (the gallo's, or the pair's).
    side = page.locator(f"#entry .side-column:has([data-player={first}])").get_attribute(
        "data-side"
    )
    for _ in range(2):
        tap(page, {"trick": side})
    if told:
        summary = page.locator("#entry .hand-summary").inner_text()
        assert f"to {told}" in summary, summary
        assert f"Points: {told} 2 – " in summary, summary  # the truco, to the pair
    page.locator("#entry [data-op=save]").click()


def test_a_whole_table_of_three_on_the_tablet_one_hand_offline(
    browser, live_server, django_user_model, csp_violations, shots
):
    match = gallo_table(django_user_model)
    first = match.seats[0]
    page = tablet(browser, live_server, csp_violations, match)
    for side in "ABC":
        assert page.locator(f".scoreboard__points[data-side={side}]").count() == 1
    # The engine's gallo of hand 1 (the dealer, the third seat), marked on his card.
    gallo = page.locator("#entry .player-card", has=page.locator(".gallo-mark"))
    assert gallo.get_attribute("data-player") == match.seats[2]
    page.screenshot(path=str(shots / "gallo-sheet-portrait.png"), full_page=True)
    page.set_viewport_size({"width": 1180, "height": 820})
    page.screenshot(path=str(shots / "gallo-sheet-landscape.png"), full_page=True)
    # On a phone too the three scores share one row (none wraps under the others).
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "gallo-sheet-phone.png"), full_page=True)
    tops = {
        round(page.locator(f"[data-scoreboard-side={side}]").bounding_box()["y"]) for side in "ABC"
    }
    assert len(tops) == 1, tops
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 820, "height": 1180})

    page.wait_for_function("window.tanteoTablet.offline === true", timeout=60_000)
    page.context.set_offline(True)
    # Hand 1's pair is the first two seated: a trick to it is told by both their names.
    names = records.names(result_selectors.match_detail(pk=match.pk))
    pair = f"{names[match.seats[0]]} and {names[match.seats[1]]}"
    play_hand(page, first, told=pair)
    page.wait_for_selector("#entry h2:has-text('Hand 2')")
    assert Hand.objects.filter(match=match).count() == 0
    # Saved on the tablet: the notice and the pending row give the three players' points
    # (the pair's point to each of its two players, none to the gallo).
    teams = [match.team_a.name, match.team_b.name, match.team_c.name]
    notice = page.locator(".tablet-notice").inner_text()
    assert notice == f"Hand 1 saved: {teams[0]} 2, {teams[1]} 2, {teams[2]} 0."
    pending = page.locator("tr.hand-row[data-tablet=pending] td").all_inner_texts()
    assert pending[:3] == ["1", "2 – 2 – 0", "2 – 2 – 0"]
    # Hand 2's gallo is the engine's: the first seated (the dealer moves on).
    gallo = page.locator("#entry .player-card", has=page.locator(".gallo-mark"))
    assert gallo.get_attribute("data-player") == match.seats[0]
    page.context.set_offline(False)
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    assert Hand.objects.filter(match=match).count() == 1

    for _hand in range(30):
        match.refresh_from_db()
        if match.is_decided:
            break
        number = Hand.objects.filter(match=match).count() + 1
        play_hand(page, first)
        page.wait_for_function(
            "n => !document.querySelector('#entry h2') || "
            "!document.querySelector('#entry h2').textContent.includes('Hand ' + n)",
            arg=number,
        )
        # The hand reached the server: the script's outbox is empty (the hand that ends the
        # table then reloads the page into the finished match's, which may have no script).
        page.wait_for_function(
            "() => !window.tanteoTablet || window.tanteoTablet.state().outbox === 0",
            timeout=30_000,
        )
    match.refresh_from_db()
    assert match.is_decided
    assert min(match.places.values()) == 1
    assert csp_violations == []
    page.context.close()
