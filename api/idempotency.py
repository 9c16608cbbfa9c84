"""``Idempotency-Key``: a retried write gets the first response instead of running twice.

The key is the client's (any string up to 200 characters), per user, or per team for a
team acting through its personal link (``api.teamlink``). The first request
with a key inserts its row inside the request's transaction; a concurrent request with
the same key blocks on the unique index until the first commits, then reads the stored
response (or, if the first failed and rolled back, runs itself). Failed requests keep no
key: a retry runs again and meets the same refusal.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import Unprocessable
from api.models import IdempotencyKey
from tournaments.models import TeamLink

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"


def _fingerprint(request: Request) -> str:
    data = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(data.encode()).hexdigest()


def _client(request: Request) -> dict[str, Any]:
    """Whose keys these are: the user's, or the team's behind its personal link."""
    link = request.auth if isinstance(request.auth, TeamLink) else None
    return {"team": link.team} if link is not None else {"user": request.user}


def run_once(request: Request, action: Callable[[], Response]) -> Response:
    """Run ``action`` unless this user's key has already been answered.

    ``action`` writes through a service, atomic itself: without a key it runs as it is
    (a transaction around it would only turn the service's into a savepoint, two more
    queries on every tap); with one, inside the transaction that stores the key.
    """
    key = request.headers.get(HEADER, "").strip()
    if not key:
        return action()
    if len(key) > 200:
        raise Unprocessable(_("An Idempotency-Key has at most 200 characters."))
    identity = {
        "method": request.method,
        "path": request.path,
        "fingerprint": _fingerprint(request),
    }
    client = _client(request)
    with transaction.atomic():
        try:
            with transaction.atomic():
                stored = IdempotencyKey.objects.create(key=key, **client, **identity)
        except IntegrityError:
            return _replay(IdempotencyKey.objects.get(key=key, **client), identity)
        response = action()
        stored.status = response.status_code
        stored.response = json.loads(JSONRenderer().render(response.data) or b"null")
        stored.save(update_fields=["status", "response"])
        return response


def _replay(stored: IdempotencyKey, identity: dict[str, Any]) -> Response:
    if any(getattr(stored, field) != value for field, value in identity.items()):
        raise Unprocessable(
            _("This Idempotency-Key was already used for another request."),
            code="idempotency_key_reused",
        )
    return Response(stored.response, status=stored.status, headers={REPLAYED: "true"})


def keys_purge(*, now: datetime.datetime | None = None) -> int:
    """Delete the keys older than ``IDEMPOTENCY_KEY_DAYS``; returns how many.

    A tablet retries an unsent hand within minutes or hours of saving it (its outbox),
    never days later: past that window a key only takes room. Idempotent (run daily).
    """
    before = (now or timezone.now()) - datetime.timedelta(days=settings.IDEMPOTENCY_KEY_DAYS)
    deleted, _by_model = IdempotencyKey.objects.filter(created_at__lt=before).delete()
    return deleted
