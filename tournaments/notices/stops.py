"""A team's one-click unsubscribe: the signed token in each mail's ``List-Unsubscribe``
(it names the entry, whose address it stops), written by the mails, read by the page."""

from __future__ import annotations

from django.core import signing

from tournaments.models import Entry

STOP_SALT = "tanteo.notices.stop"


def stop_token(entry: Entry) -> str:
    """The token of ``entry``'s one-click unsubscribe."""
    return signing.dumps({"e": entry.pk}, salt=STOP_SALT)


def stop_entry(*, token: str) -> Entry | None:
    """The entry a one-click unsubscribe ``token`` names, or None for a forged one."""
    try:
        entry_id = int(signing.loads(token, salt=STOP_SALT)["e"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    return Entry.objects.select_related("team", "championship").filter(pk=entry_id).first()
