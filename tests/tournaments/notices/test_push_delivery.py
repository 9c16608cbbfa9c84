"""Web Push end to end: a phone turns notifications on through the team's link, the
organiser calls the round, and the push service of the test's own (127.0.0.1) receives a
POST whose body only the phone can read (RFC 8291, decrypted here with http_ece) in the
team's language, signed with the site's VAPID key (the ES256 JWT verified here). A gone
phone is forgotten, a failing push service retried then given up, nothing of it fails the
act; a kind turned off or a revoked link hears nothing."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.core import mail
from django.urls import reverse

from tests.tournaments.factories import TeamFactory
from tests.tournaments.notices.conftest import round_of
from tests.tournaments.notices.pushes import Phone, claims_fresh, vapid_claims
from tournaments.entries.services import link_issue, link_opened, link_revoke
from tournaments.models import Notice, PushSubscription
from tournaments.notices import services
from tournaments.notices.delivery import MAX_ATTEMPTS
from tournaments.notices.tasks import resend_notices
from tournaments.notices.texts import About
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def turned_on(client, team, phone: Phone, kinds: list[str]) -> str:
    """``phone`` turns the team's notifications on through its link; the link's token."""
    token = link_issue(team=team, via="organiser")
    url = reverse("tournaments:team_link", args=[team.championship.slug, token])
    answer = client.post(url, phone.form(kinds), **EN)
    assert answer.status_code == 302
    assert PushSubscription.objects.filter(team=team, endpoint=phone.endpoint).exists()
    return token


def call(round_, by, capture):
    with capture(execute=True):
        return services.round_call(round_=round_, by=by)


def test_a_called_round_reaches_the_phone_encrypted_signed_and_in_the_teams_language(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks, caplog
):
    (match,) = round_of(championship, ["ca", "en"])
    match.table = "7"
    match.save()
    team = match.team_a
    phone = Phone(push_service, "pardos")
    token = turned_on(client, team, phone, ["ready", "message"])
    mail.outbox.clear()
    caplog.set_level(logging.DEBUG)

    call(match.round, organiser, django_capture_on_commit_callbacks)

    # The team told twice, by mail and on its phone; the other team, by mail only.
    pushed = Notice.objects.get(team=team, channel=Notice.Channel.PUSH)
    assert pushed.state == Notice.State.SENT and pushed.sent_at is not None
    assert Notice.objects.get(team=team, channel=Notice.Channel.EMAIL).state == "sent"
    assert not Notice.objects.filter(team=match.team_b, channel=Notice.Channel.PUSH).exists()
    (post,) = push_service.received
    assert post.path == phone.path
    assert post.headers["content-encoding"] == "aes128gcm"
    assert int(post.headers["ttl"]) > 0
    # Only the phone's keys open it: in Catalan, the team's language, with its table.
    payload = phone.read(post.body)
    other = match.team_b.name
    # The team's page: its personal link, the one the phone turned notifications on with.
    pushed_token = payload.pop("url").removeprefix(f"/c/{championship.slug}/team/")[:-1]
    link = link_opened(slug=championship.slug, token=pushed_token)
    assert link == match.team_a.links.get()
    assert payload == {
        "title": pushed.subject,
        "body": f"La teva partida contra {other} està a punt: taula 7.",
        "kind": "ready",
        "team": team.pk,
        "tag": f"tanteo-ready-{match.pk}",
        "table": "7",
    }
    # Signed with the site's VAPID key, for this push service, by the site's subject.
    claims = vapid_claims(post.headers["authorization"], vapid["public"])
    assert claims_fresh(claims, audience=push_service.origin, subject=settings.VAPID_SUBJECT)
    # The link and the endpoint are in the encrypted push alone: not in the notice, not in
    # any log line.
    stored = f"{pushed.subject} {pushed.text} {pushed.failure} {pushed.reached}"
    logged = caplog.text
    for secret in (token, pushed_token, phone.path):
        assert secret not in stored and secret not in logged
    assert PushSubscription.objects.get().last_success_at is not None


def test_a_team_with_no_address_is_told_on_its_phone_in_the_sites_language(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    # Typed in by the organiser: no entry, no address; its players turned a phone on.
    teams = [TeamFactory(championship=championship, seed=n) for n in (1, 2)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    phone = Phone(push_service, "desk-team")
    turned_on(client, teams[0], phone, ["ready"])

    told = call(match.round, organiser, django_capture_on_commit_callbacks)

    assert [(n.team_id, n.channel, n.state) for n in told] == [
        (teams[0].pk, "push", Notice.State.QUEUED)
    ]
    assert Notice.objects.get().state == Notice.State.SENT
    payload = phone.read(push_service.received[0].body)
    assert settings.LANGUAGE_CODE == "es"
    assert payload["body"].startswith("Tu partida contra")
    assert "table" not in payload  # no table given: "go to your table"


def test_a_phone_gone_from_its_push_service_is_forgotten_and_the_act_goes_on(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    phone = Phone(push_service, "gone")
    turned_on(client, match.team_a, phone, ["ready"])
    push_service.status = 410

    told = call(match.round, organiser, django_capture_on_commit_callbacks)

    assert len(told) == 3  # two mails and the push
    assert len(push_service.to(phone.path)) == 1
    assert not PushSubscription.objects.exists()
    assert Notice.objects.get(channel="push").state == Notice.State.CANCELLED
    assert Notice.objects.filter(channel="email", state="sent").count() == 2


def test_a_failing_push_service_is_tried_again_then_given_up_and_a_reached_phone_not_twice(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    working, failing = Phone(push_service, "working"), Phone(push_service, "failing")
    token = link_issue(team=match.team_a, via="organiser")
    url = reverse("tournaments:team_link", args=[championship.slug, token])
    for phone in (working, failing):
        assert client.post(url, phone.form(["ready"]), **EN).status_code == 302
    push_service.answers[failing.path] = 500

    call(match.round, organiser, django_capture_on_commit_callbacks)

    notice = Notice.objects.get(channel="push")
    assert (notice.state, notice.attempts, notice.failure) == ("queued", 1, "push HTTP 500")
    for attempt in range(2, MAX_ATTEMPTS + 1):
        # resend_notices (beat) takes the notices queued over a minute ago.
        Notice.objects.filter(pk=notice.pk).update(
            created_at=notice.created_at - dt.timedelta(minutes=attempt)
        )
        resend_notices()
        notice.refresh_from_db()
        assert notice.attempts == attempt
    assert notice.state == Notice.State.FAILED
    assert len(push_service.to(failing.path)) == MAX_ATTEMPTS
    # The phone that took it the first time is not pushed it again.
    assert len(push_service.to(working.path)) == 1
    assert PushSubscription.objects.count() == 2  # a failure is not a gone phone
    resend_notices()
    assert len(push_service.to(failing.path)) == MAX_ATTEMPTS


def test_a_push_service_out_of_reach_leaves_the_notice_queued(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    phone = Phone(push_service, "away")
    turned_on(client, match.team_a, phone, ["ready"])
    push_service.stop()  # nothing listens there any more

    call(match.round, organiser, django_capture_on_commit_callbacks)

    notice = Notice.objects.get(channel="push")
    assert notice.state == Notice.State.QUEUED and notice.attempts == 1
    assert notice.failure == "push ConnectionError"
    assert phone.endpoint not in notice.failure


def test_a_kind_turned_off_on_the_phone_is_not_pushed(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    phone = Phone(push_service, "messages-only")
    turned_on(client, match.team_a, phone, ["message"])

    call(match.round, organiser, django_capture_on_commit_callbacks)
    assert not Notice.objects.filter(channel="push").exists()
    assert push_service.received == []

    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(championship=championship, text="Bring the sheets back", by=organiser)
    assert Notice.objects.get(channel="push").state == Notice.State.SENT
    assert phone.read(push_service.received[0].body)["body"] == "Bring the sheets back"


def test_a_revoked_link_silences_its_phones_even_for_a_push_already_queued(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    phone = Phone(push_service, "revoked")
    turned_on(client, match.team_a, phone, ["ready", "message"])

    # Queued while the link was live, revoked before its turn: not sent.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.round_call(round_=match.round, by=organiser)
    link_revoke(team=match.team_a)
    for callback in callbacks:
        callback()
    assert Notice.objects.get(channel="push").state == Notice.State.CANCELLED

    # And nothing more is queued for it.
    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(championship=championship, text="Lunch at two", by=organiser)
    assert Notice.objects.filter(channel="push").count() == 1
    assert push_service.received == []


def test_without_vapid_keys_nothing_is_pushed_and_the_mail_goes(
    championship, organiser, vapid, push_service, settings, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    phone = Phone(push_service, "before-keys")
    token = link_issue(team=match.team_a, via="organiser")
    PushSubscription.objects.create(
        team=match.team_a,
        link=match.team_a.links.get(),
        endpoint=phone.endpoint,
        digest="x" * 64,
        p256dh=phone.p256dh,
        auth=phone.auth,
        kinds=["ready"],
    )
    settings.VAPID_PRIVATE_KEY = ""

    told = call(match.round, organiser, django_capture_on_commit_callbacks)

    assert {n.channel for n in told} == {"email"} and len(mail.outbox) == 2
    assert push_service.received == []
    assert token  # the link is live: only the keys are missing


def test_the_hourly_limit_counts_each_channel_apart(
    championship, organiser, vapid, push_service, monkeypatch
):
    (match,) = round_of(championship, ["en", "en"])
    team = match.team_a
    link_issue(team=team, via="organiser")
    phone = Phone(push_service, "busy")
    PushSubscription.objects.create(
        team=team,
        link=team.links.get(),
        endpoint=phone.endpoint,
        digest="y" * 64,
        p256dh=phone.p256dh,
        auth=phone.auth,
        kinds=["message"],
    )
    monkeypatch.setattr(services, "TEAM_PER_HOUR", 2)
    for n in range(3):
        services.notices_queue(
            championship=championship,
            kind="message",
            addressed=[(team, About(message=f"m{n}"))],
        )
    counts = {
        channel: Notice.objects.filter(team=team, channel=channel).count()
        for channel in ("email", "push")
    }
    assert counts == {"email": 2, "push": 2}


def test_the_organisers_page_counts_teams_told_and_lists_the_pushes_with_the_mails(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    turned_on(client, match.team_a, Phone(push_service, "listed"), ["ready"])
    client.force_login(organiser)
    url = f"/organiser/{championship.slug}/stages/{match.stage_id}/rounds/1/notices/"
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"action": "call"}, follow=True, **EN)
    # Two teams told (one of them twice: by mail and on its phone).
    assert "2 teams told their match is ready." in answer.content.decode()
    html = client.get(url, **EN).content.decode()
    assert html.count('class="told told--sent"') == 3
    assert html.count("phone notification") == 1 and html.count("· email") == 2
    assert "/push/listed" not in html


def test_a_long_message_is_cut_to_what_a_push_service_takes(
    client, championship, organiser, vapid, push_service, django_capture_on_commit_callbacks
):
    (match,) = round_of(championship, ["en", "en"])
    phone = Phone(push_service, "long")
    turned_on(client, match.team_a, phone, ["message"])
    text = "🂡" * services.MESSAGE_MAX  # 4000 bytes of text

    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(championship=championship, text=text, by=organiser)

    (post,) = push_service.received
    assert len(post.body) <= 4096  # what the push services take
    body = phone.read(post.body)["body"]
    assert body.endswith("…") and text.startswith(body[:-1]) and len(body) > 850
    # The mail has it whole.
    assert text in mail.outbox[-1].body
