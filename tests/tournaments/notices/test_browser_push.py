"""A player turns notifications on from his team's link on a phone (390×844), the organiser
calls the round, and the phone's service worker (the tablet's, templates/referees/sw.js)
shows the notification and tells the open page, which shows the table at once.

Headless Chromium has no push service (a real ``pushManager.subscribe`` needs Google's),
so the page's subscription is the test's: ``PushManager.prototype.subscribe`` is stubbed
to return a subscription at the test's own push service on 127.0.0.1 with keys the test
holds. The site then sends the real push there, encrypted and signed; the test decrypts it
(http_ece) and hands the plaintext to the real service worker through the DevTools
protocol (``ServiceWorker.deliverPushMessage``), as the push service would.
"""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.browsers import PHONE, shoot_three_sizes, watch_csp
from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.notices.conftest import round_of
from tests.tournaments.notices.pushes import Phone
from tournaments.entries.services import link_issue, link_opened
from tournaments.models import Notice, PushSubscription, TeamAct
from tournaments.notices import services
from tournaments.results import services as result_services

pytestmark = pytest.mark.django_db(transaction=True)

STUB = """
(() => {
  const phone = %s;
  const subscription = () => ({
    endpoint: phone.endpoint,
    expirationTime: null,
    toJSON: () => ({ endpoint: phone.endpoint, expirationTime: null, keys: phone.keys }),
    unsubscribe: async () => true,
  });
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem("test-push-subscribed", "1");
    return subscription();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem("test-push-subscribed") ? subscription() : null;
  };
})();
"""

NOTIFICATIONS = """
() => navigator.serviceWorker.getRegistration("/referee/")
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({ title: n.title, body: n.body, url: n.data.url })))
"""


def polled(page, what, *, seconds: float = 20):
    """``what`` (a script's answer, or a test's function) once it is truthy; polled from
    here: the page's policy forbids the eval behind Playwright's ``wait_for_function``."""
    deadline = time.monotonic() + seconds
    while True:
        found = page.evaluate(what) if isinstance(what, str) else what()
        if found:
            return found
        assert time.monotonic() < deadline, f"nothing came in {seconds} s"
        page.wait_for_timeout(100)


def test_the_phone_allows_notifications_and_shows_the_table_when_the_round_is_called(
    browser, live_server, vapid, push_service, shots, csp_violations
):
    organiser = get_user_model().objects.create_user(username="desk", password="x-2026-y")
    championship = ChampionshipFactory(name="Copa Avisos", slug="copa-avisos")
    championship.organisers.add(organiser)
    (match,) = round_of(championship, ["en", "en"])
    team = match.team_a
    token = link_issue(team=team, via="organiser")
    path = reverse("tournaments:team_link", args=[championship.slug, token])
    phone = Phone(push_service, "browser-phone")

    context = browser.new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "en"})
    context.grant_permissions(["notifications"], origin=live_server.url)
    watch_csp(context, csp_violations)
    stub = {"endpoint": phone.endpoint, "keys": {"p256dh": phone.p256dh, "auth": phone.auth}}
    context.add_init_script(STUB % json.dumps(stub))
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server.url}{path}")
    assert page.inner_text("#next-match-table") == "not assigned yet"
    assert page.is_visible("#push-on") and not page.is_visible("#push-off")

    # The player keeps the match ready and the organiser's messages only.
    for kind in Notice.Kind.values:
        if kind not in ("ready", "message"):
            page.uncheck(f"#push-on-form input[value={kind}]")
    page.click("#push-on")
    page.wait_for_selector(".message:has-text('Notifications are on on this phone.')")
    kept = PushSubscription.objects.get()
    assert (kept.team, kept.endpoint, kept.kinds) == (team, phone.endpoint, ["ready", "message"])
    assert TeamAct.objects.filter(team=team, action="push_on", via="link").exists()
    # The page knows its phone is on: what it is told, and "turn off".
    page.wait_for_selector("#push-off", state="visible")
    assert page.is_checked("#push-on-form input[value=ready]")
    assert not page.is_checked("#push-on-form input[value=accepted]")
    shoot_three_sizes(page, shots, "push-team-on")

    # The worker the page registered: its id, for the DevTools protocol.
    cdp = context.new_cdp_session(page)
    registrations: dict[str, str] = {}

    def updated(event: dict) -> None:
        for registration in event["registrations"]:
            if not registration["isDeleted"]:
                registrations[registration["scopeURL"]] = registration["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")
    scope = f"{live_server.url}/referee/"
    polled(page, lambda: scope in registrations)

    # The organiser gives the match its table and calls the round.
    result_services.match_assign(match=match, table="7", scheduled_at=None, referee=None)
    services.round_call(round_=match.round, by=organiser)
    assert Notice.objects.get(team=team, channel="push").state == Notice.State.SENT
    (post,) = push_service.to(phone.path)
    plaintext = phone.decrypt(post.body).decode()

    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server.url, "registrationId": registrations[scope], "data": plaintext},
    )
    page.wait_for_selector("#next-match-table:text-is('7')")
    other = match.team_b.name
    assert page.inner_text("#push-live") == f"Your match against {other} is ready: table 7."
    (shown,) = polled(page, NOTIFICATIONS)
    assert shown["body"] == f"Your match against {other} is ready: table 7."
    assert shown["title"] == f"{team.name} at Copa Avisos"
    # It opens the team's page: a token of the same personal link (each token is signed
    # anew, with its time).
    prefix = f"{live_server.url}/c/{championship.slug}/team/"
    assert shown["url"].startswith(prefix)
    token_shown = shown["url"].removeprefix(prefix).rstrip("/")
    assert link_opened(slug=championship.slug, token=token_shown) == team.links.get()
    shoot_three_sizes(page, shots, "push-team-told")

    # Turned off from the same page: the phone hears nothing more.
    page.click("#push-off")
    page.wait_for_selector(".message:has-text('Notifications are off on this phone.')")
    assert not PushSubscription.objects.exists()
    context.close()
    assert csp_violations == []
