"""Two tablets on one match, for every table size (2, 4 and 6 players, a table of three):
the tablet that does not hold the match enters nothing and is offered to take it over,
whether its page works without script (a form) or its script draws it (the engine in the
page): on a page opened while the other holds the match, and on a tablet that learns it
when its step is refused. Taking over goes on from the hand as the server has it, and
the hand saved then is stored: never "saved" beside "refused".

Debian's Chromium through Playwright, each tablet a browser context of its own (its own
session and ``tanteo_device`` cookie). Every wait is on a state of the page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browsers import log_in, watch_csp
from tests.referees.conftest import make_match
from tests.referees.test_browser_tablet_offline import PASSWORD
from tests.tournaments.test_gallo_tables import _table
from tournaments.models import ChampionshipReferee, Hand, HandDraft, Match
from tournaments.results import services as result_services

TABLET = {"width": 820, "height": 1180}
TEAMS = {
    2: (("Ana",), ("Beto",)),
    4: (("Ana", "Alba"), ("Beto", "Bruno")),
    6: (("Ana", "Alba", "Amaia"), ("Beto", "Bruno", "Blas")),
}
TABLE_SIZES = ["2", "4", "6", "three"]
TRICK = "#entry [data-event*='\"trick\"']"


def seated(django_user_model, size: str, username: str = "lucia") -> Match:
    """A match of ``size`` (2, 4 or 6 players, or a table of ``three``) assigned to a new
    referee called ``username``, its players seated."""
    user = django_user_model.objects.create_user(username=username, password=PASSWORD)
    if size == "three":
        match = _table()
        ChampionshipReferee.objects.create(championship=match.stage.championship, user=user)
        result_services.match_assign(match=match, referee=user, table="3")
    else:
        match = make_match(referee=user, teams=TEAMS[int(size)])
    return result_services.match_start(match=match)


def open_tablet(
    browser,
    live_server,
    csp_violations,
    match: Match,
    *,
    script: bool,
    username: str = "lucia",
    viewport: dict | None = None,
    language: str = "en",
):
    """A tablet logged in on the match's sheet; with ``script``, once its engine runs."""
    context = browser.new_context(
        viewport=viewport or TABLET,
        java_script_enabled=script,
        extra_http_headers={"Accept-Language": language},
        service_workers="block",
    )
    watch_csp(context, csp_violations)
    log_in(context, live_server, username, PASSWORD)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{live_server.url}{reverse('referees:sheet', args=[match.pk])}")
    if script:
        engine_ready(page)
    return page


def engine_ready(page) -> None:
    # The engine's first load (Pyodide) takes a while on a machine busy with other tests.
    page.wait_for_selector("#entry[data-engine=browser]", timeout=120_000)


def submit(page, selector: str) -> None:
    """Tap a button of the page without script: a form's post, the page it loads awaited."""
    with page.expect_navigation(timeout=60_000):
        page.locator(selector).first.click()


def steps(page) -> int:
    return page.locator("#entry .hand-summary li").count()


def script_tap(page, selector: str) -> None:
    """Tap a button the script drew, then wait for the hand so far to grow by one."""
    before = steps(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        "n => document.querySelectorAll('#entry .hand-summary li').length > n", arg=before
    )


def held_by_script(page) -> None:
    """The script's take-over prompt: the match is held elsewhere, no step to tap here."""
    page.wait_for_selector("#entry[data-engine=browser][data-held=other] [data-op=takeover]")
    assert page.locator("#entry [data-event]").count() == 0
    assert page.locator("#entry [data-op=save]").count() == 0
    assert page.locator(".tablet-notice").count() == 0


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_a_second_tablet_takes_the_match_over_with_script_and_without(
    browser, live_server, django_user_model, csp_violations, shots, size
):
    match = seated(django_user_model, size)
    # The first tablet (script) enters a trick: it holds the match.
    first = open_tablet(browser, live_server, csp_violations, match, script=True)
    first.wait_for_selector("[data-sync=saved]")
    script_tap(first, TRICK)
    first.wait_for_selector("[data-sync=saved]")
    holder = HandDraft.objects.get(match=match).device

    # The second one, without script, is told and takes over with the page's form; it
    # goes on from the hand so far, and a trick to the other side is its.
    second = open_tablet(browser, live_server, csp_violations, match, script=False)
    second.wait_for_selector("#entry[data-held=other]")
    assert second.locator("#entry [data-event]").count() == 0
    second.screenshot(path=str(shots / f"take-over-{size}-held-server.png"))
    submit(second, "#entry [data-op=takeover]")
    second.wait_for_selector("text=This device now enters the match")
    assert steps(second) == 1
    submit(second, f"{TRICK} >> nth=1")
    assert steps(second) == 2
    assert HandDraft.objects.get(match=match).device not in ("", holder)

    # The first tablet's next tap is refused by the server: its script shows the take-over
    # prompt and no step (nor a save) until the referee takes the match back.
    first.locator(TRICK).first.click()
    held_by_script(first)
    first.screenshot(path=str(shots / f"take-over-{size}-refused-script.png"))
    first.locator("#entry [data-op=takeover]").click()
    # It goes on from the hand as the server has it (the second tablet's trick included).
    first.wait_for_selector("#entry:not([data-held]) .hand-summary")
    first.wait_for_function("document.querySelectorAll('#entry .hand-summary li').length === 2")
    assert first.locator(".tablet-alert").count() == 0
    while not first.locator("#entry [data-op=save]").count():
        script_tap(first, TRICK)
    first.locator("#entry [data-op=save]").click()
    first.wait_for_selector(".tablet-notice:has-text('Hand 1 saved')")
    first.wait_for_selector("[data-sync=saved]")
    assert first.locator(".tablet-alert").count() == 0
    assert Hand.objects.filter(match=match, number=1).count() == 1

    # The page without script learns it is behind, then that the first tablet holds the
    # match, and takes it over once more with its form.
    submit(second, TRICK)
    second.wait_for_selector("#entry[data-held=other]")
    submit(second, "#entry [data-op=takeover]")
    second.wait_for_selector("text=This device now enters the match")
    assert second.locator("#entry[data-held]").count() == 0

    # The first tablet opened again while the second holds the match: the script draws
    # the take-over prompt (not an entry the server would refuse), and takes over.
    first.reload()
    engine_ready(first)
    held_by_script(first)
    first.screenshot(path=str(shots / f"take-over-{size}-held-script.png"))
    first.locator("#entry [data-op=takeover]").click()
    first.wait_for_selector(".tablet-notice:has-text('now enters')")
    first.wait_for_selector("#entry[data-engine=browser]:not([data-held])")
    # Hand 2 of six players may start with the pica-pica's pairs: no trick to tap yet.
    first.wait_for_selector("#entry [data-event], #entry [data-op=pairs]")
    assert HandDraft.objects.get(match=match).device == holder
    assert csp_violations == []
    first.context.close()
    second.context.close()


def test_a_saved_hand_refused_for_another_device_is_taken_over_then_sent(
    browser, live_server, django_user_model, csp_violations
):
    """The hand is saved on the tablet before it learns that another device took the match
    (the server answers its post 409 ``draft_other_device``): it says so once, with the
    take-over, not "saved" beside "refused"; taken over, the hand is sent and stored."""
    import json

    from tests.referees.test_browser_tablet_offline import (
        console_match,
        record_and_save,
        tablet,
    )

    match = console_match(django_user_model)
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    held = {"number": 1, "record": {"events": []}, "device": "tablet-other", "revision": 2}
    puts = []

    def draft(route):
        # The server's draft as the test says: quiet until the hand is refused, then held
        # by the other device, and taken over at its revision.
        if route.request.method == "GET":
            answer = {**held, "updated_at": "now", "entry": "quick"}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))
            return
        body = json.loads(route.request.post_data or "{}")
        puts.append(body)
        answer = {**body, "revision": body["revision"] + 1, "updated_at": "now", "entry": "quick"}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    refused = []

    def hands(route):
        if not refused:
            refused.append(route.request.post_data)
            error = {
                "code": "draft_other_device",
                "message": "Another device is entering this match (since 21:05).",
            }
            route.fulfill(
                status=409, content_type="application/json", body=json.dumps({"error": error})
            )
        else:
            route.continue_()

    page.route("**/api/v1/matches/*/draft/", draft)
    page.route("**/api/v1/matches/*/hands/", hands)
    record_and_save(page, match)
    held_by_script(page)
    assert "since 21:05" in page.locator(".held__note").inner_text()
    assert Hand.objects.filter(match=match).count() == 0
    page.locator("#entry [data-op=takeover]").click()
    page.wait_for_selector("[data-sync=saved]")
    assert puts[-1]["takeover"] is True and puts[-1]["number"] == 1
    assert Hand.objects.filter(match=match).count() == 1
    assert page.locator(".tablet-alert").count() == 0
    page.wait_for_selector("#entry h2:has-text('Hand 2')")
    page.context.close()
