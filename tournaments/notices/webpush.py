"""A notice sent by Web Push: to each phone of the team that listens for its kind
(``push``), encrypted to the phone's keys (RFC 8291, aes128gcm) and signed with the site's
VAPID key (RFC 8292), through ``pywebpush``.

The payload is JSON: ``title`` (the notice's subject), ``body`` (its text, in the team's
language), ``url`` (the path of the team's page: its personal link, as in the mail; only
the phone can read it, and it is never stored with the notice nor logged), ``kind``,
``team`` (its id), ``tag`` and, for a match ready, ``table``. The phone's service worker
(templates/referees/sw.js) shows it and tells the team's open page.

A push service answering 404 or 410 has forgotten the phone: so does the site. Any other
failure leaves the notice queued for a later try (``tasks.resend_notices``), to the phones
not reached yet, failed after ``delivery.MAX_ATTEMPTS``; nothing of it raises.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from pywebpush import WebPushException, webpush

from tournaments.models import Entry, Notice, PushSubscription
from tournaments.notices.push import phones_listening, push_configured

logger = logging.getLogger(__name__)

# A push service's answers that mean the subscription is gone for good.
GONE = (404, 410)
# How long a push service keeps a message for a phone that is off (seconds): a match
# ready or a message is stale after a few hours.
TTL = 6 * 3600
# Seconds to wait for a push service.
TIMEOUT = 10
# The payload's bytes at most: push services take 4096 encrypted, of which the encryption
# takes 103 (RFC 8291); an organiser's message of 1000 characters may be 4000 bytes.
PAYLOAD_MAX = 3800


class _NoRedirects(requests.Session):
    """A session that follows no redirect: the site posts to the push service it checked,
    never to wherever an answer points."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def push_payload(notice: Notice, subscription: PushSubscription) -> dict[str, Any]:
    """What ``subscription``'s phone is told of ``notice`` (see the module's docstring)."""
    slug = notice.championship.slug
    data: dict[str, Any] = {
        "title": notice.subject,
        "body": notice.text,
        "url": reverse("tournaments:team_link", args=[slug, subscription.link.token]),
        "kind": notice.kind,
        # Which team: the page open on the phone shows its own team's news only.
        "team": notice.team_id,
        # One notification per thing: a round called again replaces the one shown.
        "tag": f"tanteo-{notice.kind}-{notice.match_id or notice.pk}",
    }
    if notice.kind == Notice.Kind.READY and notice.match is not None and notice.match.table:
        data["table"] = notice.match.table
    return _fitted(data)


def _encoded(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def _fitted(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its body cut (ending "…") until it fits ``PAYLOAD_MAX`` bytes: the
    whole text is in the mail, and the phone opens the team's page."""
    body = data["body"]
    while len(_encoded(data)) > PAYLOAD_MAX and body:
        excess = len(_encoded(data)) - PAYLOAD_MAX
        # At least a character per byte over (a character is 1 to 4 bytes).
        body = body[: max(0, len(body) - max(excess // 4, 1) - 1)]
        data = {**data, "body": body.rstrip() + "…"}
    return data


def _claims(endpoint: str) -> dict[str, str | int]:
    parts = urlsplit(endpoint)
    return {
        "sub": settings.VAPID_SUBJECT,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
    }


def push_send(subscription: PushSubscription, data: dict[str, Any]) -> None:
    """Post ``data`` to ``subscription``'s push service; raises ``WebPushException`` (with
    the answer) or a ``requests`` error when it is not accepted."""
    with _NoRedirects() as session:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=_encoded(data).decode(),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims=_claims(subscription.endpoint),
            content_encoding="aes128gcm",
            ttl=TTL,
            timeout=TIMEOUT,
            requests_session=session,
        )


def _still_told(notice: Notice, entry: Entry | None) -> bool:
    """Whether a push notice may still go: the team is there and not out of the
    championship since (but for the refusal itself). A team the organiser typed in has no
    entry: its phones are told all the same."""
    if notice.team is None or not push_configured():
        return False
    return entry is None or notice.kind == Notice.Kind.REFUSED or entry.status not in Entry.GONE


def push_deliver(notice: Notice, entry: Entry | None, *, max_attempts: int) -> str:
    """Send the push ``notice`` (locked by the caller) to each listening phone not reached
    yet, and save its state: sent once every phone took it (or was gone), queued while a
    push service fails, failed after ``max_attempts``, not sent when no phone listens."""
    phones = []
    if _still_told(notice, entry):
        phones = [
            phone
            for phone in phones_listening(team_id=notice.team_id, kind=notice.kind)
            if phone.pk not in notice.reached
        ]
    if not phones:
        notice.state = Notice.State.SENT if notice.reached else Notice.State.CANCELLED
        notice.save(update_fields=["state"])
        return notice.state
    notice.attempts += 1
    failure = ""
    for phone in phones:
        try:
            push_send(phone, push_payload(notice, phone))
        except WebPushException as error:
            if error.status_code in GONE:
                phone.delete()  # the phone unsubscribed, or its browser forgot it
                continue
            failure = f"push HTTP {error.status_code}" if error.status_code else "push"
        except Exception as error:  # the push service unreachable: try again later
            # Its kind only: a requests error names the endpoint.
            failure = f"push {type(error).__name__}"
        else:
            notice.reached = [*notice.reached, phone.pk]
            PushSubscription.objects.filter(pk=phone.pk).update(last_success_at=timezone.now())
    notice.failure = failure[:200]
    if failure:
        if notice.attempts >= max_attempts:
            notice.state = Notice.State.FAILED
        logger.warning("Notice %s not pushed (%s, try %s)", notice.pk, failure, notice.attempts)
    else:
        notice.state = Notice.State.SENT if notice.reached else Notice.State.CANCELLED
        if notice.reached:
            notice.sent_at = timezone.now()
    notice.save(update_fields=["state", "attempts", "failure", "sent_at", "reached"])
    return notice.state
