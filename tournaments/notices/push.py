"""The phones that allowed notifications from a team's personal link (Web Push): which
subscriptions are accepted, stored and removed, and which listen for a kind of notice.

A subscription is where a phone's push service takes the messages (``endpoint``) and the
keys they are encrypted to (``p256dh``, ``auth``). The site posts to that endpoint, so only
an HTTPS address at a known push service (``settings.PUSH_SERVICE_HOSTS``) is accepted:
no visitor makes the server call an address of his choosing. The endpoint is a capability,
never shown, logged nor exported; the team's page recognises its phone by the endpoint's
digest. A subscription lives with the link it was made through: a revoked link's phones
hear nothing. ``webpush`` sends; ``entries.acts`` writes these through a link, with the
audit log.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Notice, PushSubscription, Team, TeamLink

# An endpoint longer than this is no push service's (theirs are a few hundred characters).
ENDPOINT_MAX = 1000
# The phones of one team: a few players, each a phone or two; more is a loop or a prank.
PHONES_MAX = 20
# The sizes of a subscription's keys: an uncompressed P-256 point, a 16-byte secret.
P256DH_BYTES = 65
AUTH_BYTES = 16

# What a phone may ask to be told: every kind a team is told.
KINDS: tuple[str, ...] = tuple(Notice.Kind.values)


def push_configured() -> bool:
    """Whether the site has its VAPID keys: without them no phone is offered notifications."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def vapid_keys_new() -> tuple[str, str]:
    """A new VAPID key pair (P-256) as the settings take it: the public key (the
    uncompressed point a phone subscribes with) and the private key (its 32-byte scalar),
    both base64url without padding."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return _b64url(public), _b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def endpoint_digest(endpoint: str) -> str:
    """The name of an endpoint that reveals nothing of it (SHA-256, hex), as the team's
    page computes it in the browser."""
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _host_known(host: str) -> bool:
    for pattern in settings.PUSH_SERVICE_HOSTS:
        pattern = pattern.lower()
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and len(host) > len(pattern) - 1:
                return True
        elif host == pattern:
            return True
    return False


def _endpoint_problem(endpoint: str) -> TournamentError | None:
    if not endpoint or len(endpoint) > ENDPOINT_MAX:
        return TournamentError(
            _("This phone's push address is missing or too long: notifications are off."),
            code="push_endpoint",
        )
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        parts, host, port = None, "", None
    if parts is None or not host or parts.username or parts.password:
        return TournamentError(
            _("This phone's push address is not a web address: notifications are off."),
            code="push_endpoint",
        )
    if parts.scheme == "http" and host in settings.PUSH_INSECURE_TEST_HOSTS:
        return None
    if parts.scheme != "https":
        return TournamentError(
            _("This phone's push address is not secure (https): notifications are off."),
            code="push_insecure",
        )
    if not _host_known(host) or port not in (None, 443):
        return TournamentError(
            _(
                "This phone's push service (%(host)s) is not one this site sends to: "
                "notifications are off."
            ),
            code="push_host",
            params={"host": host[:100]},
        )
    return None


def push_key(value: str, size: int) -> bytes | None:
    """``value`` decoded from base64url (with or without padding) when it is ``size``
    bytes long; else None.

    >>> push_key("AAECAwQFBgcICQoLDA0ODw", 16) == bytes(range(16))
    True
    >>> push_key("AAECAwQFBgcICQoLDA0ODw", 65) is None
    True
    """
    if not value or len(value) > 2 * size:
        return None
    if not all(c.isascii() and (c.isalnum() or c in "-_=") for c in value):
        return None
    try:
        raw = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == size else None


def subscription_problem(*, endpoint: str, p256dh: str, auth: str) -> TournamentError | None:
    """Why a phone's subscription is refused, or None: an HTTPS endpoint of a known push
    service, no longer than ``ENDPOINT_MAX``; ``p256dh`` an uncompressed P-256 point and
    ``auth`` a 16-byte secret, both base64url."""
    problem = _endpoint_problem(endpoint)
    if problem is not None:
        return problem
    point = push_key(p256dh, P256DH_BYTES)
    if point is None or point[0] != 4 or push_key(auth, AUTH_BYTES) is None:
        return TournamentError(
            _("This phone's notification keys are not valid: notifications are off."),
            code="push_keys",
        )
    return None


def kinds_chosen(kinds: Iterable[str]) -> list[str]:
    """The known kinds among ``kinds``, in their order."""
    wanted = set(kinds)
    return [kind for kind in KINDS if kind in wanted]


@transaction.atomic
def push_subscribe(
    *, link: TeamLink, endpoint: str, p256dh: str, auth: str, kinds: Sequence[str]
) -> tuple[PushSubscription, bool]:
    """Store (or update: the same phone again) the subscription of a phone that allowed
    notifications through ``link``, for ``kinds``; with whether it is new. Refused with a
    sentence when the site has no VAPID keys, the subscription is not acceptable
    (:func:`subscription_problem`), no kind is chosen, or the team has ``PHONES_MAX``."""
    if not push_configured():
        raise TournamentError(
            _("Notifications are not set up on this site."), code="push_not_configured"
        )
    endpoint, p256dh, auth = endpoint.strip(), p256dh.strip(), auth.strip()
    problem = subscription_problem(endpoint=endpoint, p256dh=p256dh, auth=auth)
    if problem is not None:
        raise problem
    chosen = kinds_chosen(kinds)
    if not chosen:
        raise TournamentError(
            _("Choose what this phone is told, or turn its notifications off."),
            code="push_no_kind",
        )
    team = Team.objects.select_for_update().get(pk=link.team_id)
    digest = endpoint_digest(endpoint)
    mine = PushSubscription.objects.filter(team=team)
    if not mine.filter(digest=digest).exists() and mine.count() >= PHONES_MAX:
        raise TournamentError(
            _("%(count)s phones already get this team's notifications: turn one off first."),
            code="push_phones",
            params={"count": PHONES_MAX},
        )
    return PushSubscription.objects.update_or_create(
        team=team,
        digest=digest,
        defaults={
            "link": link,
            "endpoint": endpoint,
            "p256dh": p256dh,
            "auth": auth,
            "kinds": chosen,
        },
    )


@transaction.atomic
def push_unsubscribe(*, team: Team, endpoint: str) -> bool:
    """Forget the phone of ``endpoint`` for ``team``; False when it was not subscribed."""
    deleted, _rows = PushSubscription.objects.filter(
        team=team, digest=endpoint_digest(endpoint.strip())
    ).delete()
    return bool(deleted)


def _live(team_ids: Iterable[int]) -> Iterable[PushSubscription]:
    return PushSubscription.objects.filter(
        team_id__in=list(team_ids), link__revoked_at__isnull=True
    ).order_by("pk")


def teams_listening(team_ids: Iterable[int], kind: str) -> set[int]:
    """The teams of ``team_ids`` with a phone that listens for ``kind`` (its link live);
    none while the site has no VAPID keys."""
    if not push_configured():
        return set()
    return {sub.team_id for sub in _live(team_ids) if kind in sub.kinds}


def phones_listening(*, team_id: int, kind: str) -> list[PushSubscription]:
    """The phones of a team that listen for ``kind``, each with its link."""
    return [sub for sub in _live([team_id]).select_related("link") if kind in sub.kinds]


def team_phones(*, team: Team) -> dict[str, list[str]]:
    """The kinds each phone of ``team`` (by its endpoint's digest) listens for, for the
    team's own page: it recognises the phone it is open on, never seeing an endpoint."""
    return {sub.digest: list(sub.kinds) for sub in _live([team.pk])}
