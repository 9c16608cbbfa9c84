"""The offline-first tablet in a real browser: the engine runs in the page, the hands wait
in an outbox, and nothing is lost or stored twice when the network goes and comes back.

Headless Debian Chromium (tests/conftest.py) on a tablet viewport; Pyodide comes from
``node_modules`` (``make install`` runs ``npm ci``), served as static files.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from api.models import IdempotencyKey
from tests.browsers import log_in, watch_csp
from tests.referees.conftest import key, make_match
from tournaments.models import Hand, Match
from tournaments.results import services as result_services

TABLET = {"width": 820, "height": 1180}
PASSWORD = "falta-envido-30"


def console_match(django_user_model) -> Match:
    """The rule book's console game: Eliana (mano) against Ivan, one player a side."""
    referee = django_user_model.objects.create_user(username="lucia", password=PASSWORD)
    match = make_match(
        teams=(("Eliana",), ("Ivan",)), team_names=("Eliana", "Ivan"), referee=referee
    )
    result_services.match_start(match=match, seats=[key(match, "Eliana"), key(match, "Ivan")])
    return match


def console_hand(match: Match) -> list[dict]:
    """Its first hand, trick by trick: Eliana 1 (real envido refused), Ivan 4 (vale cuatro)."""
    eliana, ivan = key(match, "Eliana"), key(match, "Ivan")
    side = {"Eliana": "A" if match.team_a.name == "Eliana" else "B"}
    side["Ivan"] = "B" if side["Eliana"] == "A" else "A"
    return [
        {"by": eliana, "call": "real_envido"},
        {"by": ivan, "answer": "no_quiero"},
        {"trick": side["Ivan"]},
        {"by": ivan, "call": "truco"},
        {"by": eliana, "call": "retruco"},
        {"by": ivan, "call": "vale_cuatro"},
        {"by": eliana, "answer": "quiero"},
        {"trick": side["Ivan"]},
    ]


def tap(page, event: dict) -> None:
    """Tap the button that records ``event``; the engine in the page draws the next step."""
    steps = page.locator("#entry .hand-summary li").count()
    page.locator(f"#entry [data-event='{json.dumps(event, separators=(',', ':'))}']").click()
    page.wait_for_function(
        "n => document.querySelectorAll('#entry .hand-summary li').length > n", arg=steps
    )


def tablet(browser, live_server, csp_violations, match: Match, *, service_workers="allow"):
    """The referee's tablet logged in on the match sheet, the engine running in the page."""
    context = browser.new_context(
        viewport=TABLET,
        extra_http_headers={"Accept-Language": "en"},
        service_workers=service_workers,
    )
    watch_csp(context, csp_violations)
    log_in(context, live_server, "lucia", PASSWORD)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server.url}{reverse('referees:sheet', args=[match.pk])}")
    # The engine's first load (Pyodide) takes a few seconds on a busy machine.
    page.wait_for_selector("#entry[data-engine=browser]", timeout=90_000)
    return page


def stored(match: Match) -> list[tuple[int, int, int]]:
    return list(match.hands.order_by("number").values_list("number", "points_a", "points_b"))


def test_a_hand_recorded_offline_with_a_reload_is_stored_once_when_the_network_returns(
    browser, live_server, django_user_model, csp_violations, shots
):
    match = console_match(django_user_model)
    page = tablet(browser, live_server, csp_violations, match)
    # The service worker keeps the page, the engine and Pyodide.
    page.wait_for_function("window.tanteoTablet.offline === true", timeout=60_000)
    assert page.get_attribute("[data-sync]", "data-sync") == "saved"
    events = console_hand(match)

    page.context.set_offline(True)
    for event in events[:4]:
        tap(page, event)
    page.wait_for_selector("[data-sync=offline]")
    page.screenshot(path=str(shots / "tablet-offline.png"), full_page=True)
    # A page the service worker never kept is out of reach: the network is really gone.
    other = page.context.new_page()
    with pytest.raises(Exception):  # noqa: B017 (Playwright's own error type)
        other.goto(f"{live_server.url}{reverse('referees:organised')}")
    other.close()

    page.reload()  # from the service worker; the taps from this tablet's storage
    page.wait_for_selector("#entry[data-engine=browser]", timeout=90_000)
    summary = page.locator("#entry .hand-summary li").all_inner_texts()
    assert summary == [
        "Eliana calls real envido",
        "Ivan: no quiero",
        "Trick to Ivan",
        "Ivan calls truco",
    ]
    for event in events[4:]:
        tap(page, event)
    page.wait_for_selector("text=Points: Eliana 1 – 4 Ivan")
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("text=Hand 1 saved: Eliana 1 – 4 Ivan.")
    page.wait_for_selector("#entry h2:has-text('Hand 2')")
    assert page.get_attribute("[data-sync]", "data-sync") == "offline"
    assert page.locator("tr[data-tablet=pending]").count() == 1
    assert stored(match) == []
    # The scoreboard follows the hand saved offline, malas and buenas as the engine says.
    eliana = "A" if match.team_a.name == "Eliana" else "B"
    ivan = "B" if eliana == "A" else "A"
    assert page.inner_text(f".scoreboard__points[data-side={eliana}]") == "1"
    assert page.inner_text(f".scoreboard__half[data-half-side={eliana}]") == "1 mala"
    assert page.inner_text(f".scoreboard__half[data-half-side={ivan}]") == "4 malas"

    page.context.set_offline(False)
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    page.screenshot(path=str(shots / "tablet-synced.png"), full_page=True)
    assert page.locator("tr[data-tablet=pending]").count() == 0

    (hand,) = Hand.objects.filter(match=match)
    side = "a" if match.team_a.name == "Eliana" else "b"
    other_side = "b" if side == "a" else "a"
    assert (getattr(hand, f"points_{side}"), getattr(hand, f"points_{other_side}")) == (1, 4)
    public = page.context.new_page()
    public.goto(
        live_server.url
        + reverse("tournaments:match", args=[match.stage.championship.slug, match.pk])
    )
    assert public.locator("text=Eliana").count() and "1" in public.content()
    public.screenshot(path=str(shots / "tablet-public-match.png"), full_page=True)
    assert csp_violations == []
    page.context.close()


def record_and_save(page, match: Match) -> None:
    for event in console_hand(match):
        tap(page, event)
    page.locator("#entry [data-op=save]").click()


def test_the_outbox_is_replayed_after_a_server_error_and_the_hand_stored_once(
    browser, live_server, django_user_model, csp_violations
):
    match = console_match(django_user_model)
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    answers = []

    def fail_once(route):
        if not answers:
            answers.append(500)
            route.fulfill(status=500, content_type="application/json", body="{}")
        else:
            answers.append("sent")
            route.continue_()

    page.route("**/api/v1/matches/*/hands/", fail_once)
    record_and_save(page, match)
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    assert answers == [500, "sent"]
    assert len(stored(match)) == 1
    page.context.close()


def test_the_outbox_is_replayed_after_a_dropped_response_and_the_hand_stored_once(
    browser, live_server, django_user_model, csp_violations
):
    """The server stored the hand but its answer never reached the tablet: the retry
    with the same Idempotency-Key gets the first answer, and nothing is stored twice."""
    match = console_match(django_user_model)
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    keys = []

    def drop_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the server stores the hand...
            route.abort("connectionreset")  # ...and the tablet never hears it
        else:
            route.continue_()

    page.route("**/api/v1/matches/*/hands/", drop_first_answer)
    record_and_save(page, match)
    page.wait_for_selector("[data-sync=saved]", timeout=30_000)
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    assert len(stored(match)) == 1
    assert IdempotencyKey.objects.filter(key=keys[0]).count() == 1
    page.context.close()


def test_the_hand_in_progress_goes_to_the_draft_and_another_devices_draft_is_taken_over(
    browser, live_server, django_user_model, csp_violations
):
    """The draft API as agreed (docs/architecture.md), answered here by the test: the hand
    so far is PUT with this tablet's device and revision; a draft held by another device is
    shown, no step is entered on it, and only when the referee says so is it taken over:
    read, and put back with ``takeover`` at its revision, the hand going on from there."""
    match = console_match(django_user_model)
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    puts = []
    # The other device's hand so far, as the server keeps it.
    held = {"number": 1, "record": {"events": []}, "device": "tablet-other", "revision": 4}

    def draft(route):
        if route.request.method == "GET":
            answer = {**held, "updated_at": "now", "entry": "quick"}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))
            return
        body = json.loads(route.request.post_data or "{}")
        puts.append(body)
        if not body.get("takeover"):
            error = {"code": "draft_other_device", "message": "Another tablet holds it."}
            route.fulfill(
                status=409, content_type="application/json", body=json.dumps({"error": error})
            )
        else:
            answer = {**body, "revision": body["revision"] + 1, "updated_at": "now", "entry": {}}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/api/v1/matches/*/draft/", draft)
    first = console_hand(match)[0]
    tap(page, first)
    page.wait_for_selector(".tablet-alert:has-text('Another device holds')")
    assert page.get_attribute("[data-sync]", "data-sync") == "pending"
    assert puts[-1]["record"] == {"events": [first]} and puts[-1]["number"] == 1
    # The script speaks as the page's device (the server's cookie), never as a second one.
    device = json.loads(page.text_content("#tablet-context"))["device"]
    assert puts[-1]["device"] == device and puts[-1]["takeover"] is False

    # No step on a match another device holds: the take-over comes first.
    assert page.locator("#entry [data-event]").count() == 0
    page.locator("[data-op=takeover]").click()
    page.wait_for_selector("[data-sync=saved]")
    assert puts[-1]["takeover"] is True and puts[-1]["record"] == held["record"]
    assert puts[-1]["revision"] == held["revision"]
    assert page.locator(".tablet-alert").count() == 0
    # The refused step is dropped: the hand goes on as the server has it.
    assert page.locator("#entry .hand-summary li").count() == 0
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('tanteo.tablet.{match.pk}'))")
    assert kept["revision"] == held["revision"] + 1
    page.context.close()


def test_a_hand_saved_while_the_draft_is_on_its_way_is_sent_without_another_tap(
    browser, live_server, django_user_model, csp_violations
):
    """The match's last hand has no next tap: saved while the previous draft's answer was
    still on its way (a busy server), it reaches the server once that answer comes."""
    match = console_match(django_user_model)
    page = tablet(browser, live_server, csp_violations, match, service_workers="block")
    held = []

    def hold_first_draft(route):
        if route.request.method == "PUT" and not held:
            held.append(route)  # answered below, once the hand is saved on the tablet
        else:
            route.continue_()

    page.route("**/api/v1/matches/*/draft/", hold_first_draft)
    events = console_hand(match)
    tap(page, events[0])
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the draft was never sent"
    for event in events[1:]:
        tap(page, event)
    page.locator("#entry [data-op=save]").click()
    page.wait_for_selector("#entry h2:has-text('Hand 2')")
    assert stored(match) == []
    held[0].continue_()
    page.wait_for_selector("[data-sync=saved]", timeout=15_000)
    assert len(stored(match)) == 1
    assert page.evaluate("window.tanteoTablet.state().outbox") == 0
    page.context.close()
