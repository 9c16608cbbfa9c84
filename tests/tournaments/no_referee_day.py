"""What the players and the organiser do on their screens in the no-referee day
(test_browser_no_referee_day.py): enter a team on the public form, check in, report a
result, confirm or dispute it from a team's link, type a row at the desk.

Each helper drives one Playwright page and waits on what the page says back, never on
time.
"""

from __future__ import annotations

from collections.abc import Sequence

from tests.browsers import PHONE, watch_csp
from tournaments.models import Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors

Chicos = Sequence[tuple[int, int]]

# The paper sheets the matches end with, from the winner's side: two chicos to none, or
# two to one. Indexed by a match's order in the day, so each run types the same.
SHEETS: list[list[tuple[int, int]]] = [
    [(30, 18), (30, 22)],
    [(30, 25), (21, 30), (30, 19)],
    [(30, 12), (30, 29)],
    [(27, 30), (30, 24), (30, 28)],
    [(30, 5), (30, 17)],
]


def sheet_for(number: int, winner_side: str) -> list[tuple[int, int]]:
    """Match ``number``'s chicos as (side A, side B), won by ``winner_side``."""
    chicos = SHEETS[number % len(SHEETS)]
    return list(chicos) if winner_side == "A" else [(b, a) for a, b in chicos]


def result_words(chicos: Chicos) -> str:
    """A result as the pages write it, from side A: ``2–1 (30–25, 21–30, 30–19)``."""
    won_a = sum(1 for a, b in chicos if a > b)
    scores = ", ".join(f"{a}–{b}" for a, b in chicos)
    return f"{won_a}–{len(chicos) - won_a} ({scores})"


def enter_team(page, base: str, slug: str, name: str, players: Sequence[str]) -> str:
    """Enter a team on the public entry form; returns the personal link it answers with."""
    page.goto(f"{base}/c/{slug}/enter/")
    page.fill("#id_team_name", name)
    for number, player in enumerate(players, start=1):
        page.fill(f"#id_player_{number}", player)
    page.click("button[type=submit]:has-text('Enter the team')")
    page.wait_for_selector("#team-link")
    return page.input_value("#team-link-text")


def check_in(page, link: str, team: str) -> None:
    page.goto(link)
    page.click("#check-in button:has-text('Check in')")
    page.wait_for_selector(f".message:has-text('{team} is checked in.')")


def report(page, link: str, match: Match, chicos: Chicos, winner_side: str) -> None:
    """From its team's link: the final score of each chico and who won, sent."""
    page.goto(link)
    form = page.locator(f"#report-{match.pk} form")
    for number, (a, b) in enumerate(chicos, start=1):
        form.locator(f"#id_m{match.pk}-c{number}_A").fill(str(a))
        form.locator(f"#id_m{match.pk}-c{number}_B").fill(str(b))
    form.locator(f"input[name='m{match.pk}-winner'][value='{winner_side}']").check()
    form.locator("button:has-text('Send the result')").click()
    page.wait_for_selector(".message:has-text('Result reported')")


def confirm(page, link: str, match: Match, expected: str) -> None:
    """From the other team's link: the result in words, then confirmed."""
    page.goto(link)
    words = page.inner_text(f"#result-words-{match.pk}")
    assert words.endswith(expected), words
    page.click(f"#result-{match.pk} button:has-text('Confirm the result')")
    page.wait_for_selector(".message:has-text('Result confirmed.')")


def dispute(page, link: str, match: Match, comment: str) -> None:
    page.goto(link)
    result = page.locator(f"#result-{match.pk}")
    result.locator("summary:has-text('Dispute')").click()
    page.fill(f"#comment-{match.pk}", comment)
    result.locator("button:has-text('Send the dispute')").click()
    page.wait_for_selector(".message:has-text('Your dispute was sent to the organiser')")


def desk_row(page, match: Match, chicos: Chicos) -> None:
    """At the desk: from the row's first box, each score then Tab, Enter after the last."""
    page.focus(f"[name='m{match.pk}-c1_A']")
    flat = [points for chico in chicos for points in chico]
    for index, points in enumerate(flat):
        page.keyboard.type(str(points))
        page.keyboard.press("Enter" if index == len(flat) - 1 else "Tab")
    page.wait_for_selector(f"#row-{match.pk}.desk-row--saved")


def keeper_phone(browser, csp_violations: list[str]):
    """A player's own phone, as the score sheet runs on one: touch, its service worker."""
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        extra_http_headers={"Accept-Language": "en"},
        service_workers="allow",
    )
    watch_csp(context, csp_violations)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def falta_envido_hand(page, match: Match, to_side: str, *, cut_after_call: bool = False) -> int:
    """Tap one hand on the phone's sheet: the mano calls falta envido, the other side wants
    it, the envido goes to ``to_side`` (a whole chico in these rules), the hand is saved.
    With ``cut_after_call`` the network goes after the call: the rest is kept on the phone.
    Returns the hand's number."""
    hands = [hand.record for hand in match.hands.order_by("number")]
    upcoming = records.score(match, hands).next
    names = records.names(result_selectors.match_detail(pk=match.pk))
    lineup = records.lineup(match)
    mano = upcoming.order[0]
    other = next(p for p in upcoming.order if (p in lineup["A"]) != (mano in lineup["A"]))
    winners = lineup[to_side]
    for number, label in enumerate(
        (
            f"{names[mano]} calls falta envido",
            f"{names[other]}: quiero",
            f"Envido to {names[winners[0]]} and {names[winners[1]]}",
        )
    ):
        steps = page.locator("#entry .hand-summary li").count()
        page.get_by_role("button", name=label, exact=True).click()
        page.wait_for_function(
            "n => document.querySelectorAll('#entry .hand-summary li').length > n", arg=steps
        )
        if number == 0 and cut_after_call:
            page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").click()
    number = len(hands) + 1
    page.wait_for_selector(f"text=Hand {number} saved")
    return number
