"""The referee's tools as the tablet's script draws them (static/js/tablet-client.js, the
engine in the page): a penalty, a void hand, the envido settled by the points each player
declared and a pica-pica hand are stored exactly as the server-drawn sheet stores them,
and a penalty the rules do not allow is refused with the engine's reason before anything
is recorded.

Debian's Chromium through Playwright, as test_browser_tablet_offline (whose helpers log
in and wait for the engine).
"""

from __future__ import annotations

import json

from tests.referees.conftest import key, make_match
from tests.referees.test_browser_tablet_draft import referee
from tests.referees.test_browser_tablet_offline import console_match, tablet
from tournaments.models import Match
from tournaments.results import services as result_services


def summary(page) -> list[str]:
    return page.locator("#entry .hand-summary li").all_inner_texts()


def tools(page) -> None:
    """Open "Penalty or void" (the script draws the entry again after every step)."""
    details = page.locator("#entry details.referee-tools")
    if details.get_attribute("open") is None:
        details.locator("summary").click()


def tap(page, event: dict) -> None:
    steps = page.locator("#entry .hand-summary li").count()
    page.locator(f"#entry [data-event='{json.dumps(event, separators=(',', ':'))}']").click()
    page.wait_for_function(
        "n => document.querySelectorAll('#entry .hand-summary li').length > n", arg=steps
    )


def sides(match: Match) -> tuple[str, str]:
    """Eliana's side and Ivan's side."""
    eliana = "A" if match.team_a.name == "Eliana" else "B"
    return eliana, "B" if eliana == "A" else "A"


def test_a_penalty_a_void_and_envido_points_entered_through_the_script(
    browser, live_server, django_user_model, csp_violations, shots
):
    match = console_match(django_user_model)
    eliana_side, ivan_side = sides(match)
    eliana, ivan = key(match, "Eliana"), key(match, "Ivan")
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)

    # A penalty past the rules' maximum (30 here): the engine's reason, nothing recorded.
    tools(page)
    page.check(f"#tablet-penalty-{ivan_side}")
    page.fill("#tablet-penalty-points", "31")
    page.fill("#tablet-penalty-reason", "habló de más")
    page.click("#entry [data-op=penalty]")
    refused = page.wait_for_selector("#entry .entry-errors[role=alert] li")
    assert "at most 30 points" in refused.inner_text()
    assert summary(page) == []

    # What the referee typed is still there to correct: three points, not 31.
    assert page.locator("#entry details.referee-tools").get_attribute("open") is not None
    assert page.is_checked(f"#tablet-penalty-{ivan_side}")
    assert page.input_value("#tablet-penalty-reason") == "habló de más"
    page.fill("#tablet-penalty-points", "3")
    page.click("#entry [data-op=penalty]")
    page.wait_for_function(
        "() => document.querySelectorAll('#entry .hand-summary li').length === 1"
    )
    # The penalty taken, a new one starts from nothing.
    tools(page)
    assert page.input_value("#tablet-penalty-reason") == ""
    assert page.input_value("#tablet-penalty-points") == "1"

    # A sync ending while the referee types redraws the entry, and keeps what he typed.
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    page.fill("#tablet-void-reason", "se vieron las cartas")
    page.evaluate(
        "() => { document.querySelector('#entry details.referee-tools').dataset.before = 1; }"
    )
    page.evaluate("() => window.dispatchEvent(new Event('online'))")  # back online: a sync
    page.wait_for_function(
        "() => !document.querySelector('#entry details.referee-tools').dataset.before"
    )  # drawn again
    assert page.locator("#entry details.referee-tools").get_attribute("open") is not None
    assert page.input_value("#tablet-void-reason") == "se vieron las cartas"
    page.click("#entry [data-op=void]")
    page.wait_for_selector("#entry [data-op=save]")
    page.screenshot(path=str(shots / "tablet-script-penalty-void.png"), full_page=True)
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("#entry h2:has-text('Hand 2')")
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    first = match.hands.get(number=1)
    assert first.record["events"] == [
        {"penalty": {"to": ivan_side, "points": 3, "reason": "habló de más"}},
        {"void": "se vieron las cartas"},
    ]
    points = {eliana_side: 0, ivan_side: 3}
    assert (first.points_a, first.points_b) == (points["A"], points["B"])

    # Hand 2, Ivan mano: envido accepted, settled by the points each declared.
    tap(page, {"by": ivan, "call": "envido"})
    tap(page, {"by": eliana, "answer": "quiero"})
    page.wait_for_selector("#entry .points-form")
    page.fill(f"#tablet-points-{eliana}", "27")
    page.fill(f"#tablet-points-{ivan}", "31")
    steps = len(summary(page))
    page.click("#entry [data-op=points]")
    page.wait_for_function(
        "n => document.querySelectorAll('#entry .hand-summary li').length > n", arg=steps
    )
    tap(page, {"trick": ivan_side})
    tap(page, {"trick": ivan_side})
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("#entry h2:has-text('Hand 3')")
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    second = match.hands.get(number=2)
    declared = [e for e in second.record["events"] if isinstance(e.get("envido"), dict)]
    assert declared == [{"envido": {eliana: 27, ivan: 31}}]
    # Envido (2) and the hand (1) to Ivan, as the engine scores it on the server.
    points = {eliana_side: 0, ivan_side: 3}
    assert (second.points_a, second.points_b) == (points["A"], points["B"])
    score = page.inner_text(f".scoreboard__points[data-side={ivan_side}]")
    assert score == "6"
    assert csp_violations == []
    page.context.close()


def click_event(page, wanted) -> dict:
    """Tap the first button whose event ``wanted(event)`` accepts; returns that event."""
    for button in page.locator("#entry [data-event]").all():
        event = json.loads(button.get_attribute("data-event"))
        if not isinstance(event, list) and wanted(event):
            tap(page, event)
            return event
    raise AssertionError("no such button on the entry")


def test_a_pica_pica_hand_entered_through_the_script(
    browser, live_server, django_user_model, csp_violations, shots
):
    user = referee(django_user_model)
    match = make_match(referee=user, teams=(("Ana", "Alba", "Aurora"), ("Beto", "Bruno", "Blas")))
    result_services.match_start(match=match)
    # Each chico opens with a redondo hand; the second is pica-pica.
    redondo = {"events": [{"trick": "A"}, {"trick": "A"}]}
    result_services.hand_record(match=match, record=redondo, recorded_by=None)
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)

    # The pairs the server offers, each a mano facing an opponent, started as offered.
    rows = page.locator("#entry [data-pair]")
    assert rows.count() == 3
    pairs = [[rows.nth(i).locator("select").nth(j).input_value() for j in (0, 1)] for i in range(3)]
    side_a = {key(match, n) for n in ("Ana", "Alba", "Aurora")}
    assert all((mano in side_a) != (rival in side_a) for mano, rival in pairs)
    page.click("#entry [data-op=pairs]")
    page.wait_for_selector("#entry .pair-now:has-text('Pair 1 of 3')")
    page.screenshot(path=str(shots / "tablet-script-pica-pica.png"), full_page=True)

    # Pair 1: its mano calls truco, accepted, wins both tricks. Pair 2: a player goes to
    # the mazo. Pair 3: two tricks to its opponent.
    first_mano, first_rival = pairs[0]
    called = {key(match, n): n for n in ("Ana", "Alba", "Aurora", "Beto", "Bruno", "Blas")}
    mano_side = "A" if first_mano in side_a else "B"
    # As on the server's sheet: a trick of a pair names that pair's player, not the team.
    trick = json.dumps({"trick": mano_side}, separators=(",", ":"))
    label = page.locator(f"#entry [data-event='{trick}']").inner_text()
    assert label == f"Trick to {called[first_mano]}"
    click_event(page, lambda e: e == {"by": first_mano, "call": "truco"})
    click_event(page, lambda e: e == {"by": first_rival, "answer": "quiero"})
    click_event(page, lambda e: e == {"trick": mano_side})
    click_event(page, lambda e: e == {"trick": mano_side})
    assert page.locator("#entry [data-op=save]").count() == 0
    assert summary(page)[-1] == f"Trick to {called[first_mano]}"
    page.click("#entry [data-op=next_pair]")
    page.wait_for_selector("#entry .pair-now:has-text('Pair 2 of 3')")
    folded = click_event(page, lambda e: e.get("mazo") is True)
    assert folded["by"] in pairs[1]
    page.click("#entry [data-op=next_pair]")
    page.wait_for_selector("#entry .pair-now:has-text('Pair 3 of 3')")
    rival_side = "A" if pairs[2][1] in side_a else "B"
    click_event(page, lambda e: e == {"trick": rival_side})
    click_event(page, lambda e: e == {"trick": rival_side})
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("#entry h2:has-text('Hand 3')")
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)

    # Stored as the script entered it, and scored by the server's engine as the script's.
    hand = match.hands.get(number=2)
    assert [sub["order"] for sub in hand.record["pica_pica"]] == pairs
    assert [len(sub["events"]) for sub in hand.record["pica_pica"]] == [4, 1, 2]
    for side in ("A", "B"):
        shown = page.inner_text(f".scoreboard__points[data-side={side}]")
        assert shown == str(getattr(hand, f"score_{side.lower()}"))
    assert csp_violations == []
    page.context.close()
