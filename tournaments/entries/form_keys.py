"""The entry form's one-time key, and what makes a sending the same one.

A form posted twice (a double tap, a program's retry with its ``Idempotency-Key``) enters
one team, and the second answer repeats the first, personal link included: so the key
alone must open nothing. The first entry keeps a fingerprint of its sending (the
sender's address and every field, keyed with the site's secret: nothing readable is
stored); a later sending under the key is answered only when its fingerprint is the
same, and refused (``entry_key_used``) otherwise, naming nothing of the first team.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Entry
from tournaments.people.services import PersonDetails

# The fingerprint's key: the site's secret, salted apart from every other signed value.
FORM_SALT = "tanteo.entry-form"


def form_fingerprint(
    *,
    client: str,
    team_name: str,
    players: Sequence[PersonDetails],
    captain: str | None,
    club: str,
    email: str,
    town: str,
) -> str:
    """What makes a sending the same one: the sender's address and every field as sent,
    keyed with the site's secret (the stored hash tells neither the address nor the
    fields, and cannot be made without the secret)."""
    sent = {
        "client": client,
        "team_name": team_name,
        "players": [[p.name, p.licence, p.email, p.phone, p.club] for p in players],
        "captain": captain,
        "club": club,
        "email": email,
        "town": town,
    }
    text = json.dumps(sent, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return salted_hmac(FORM_SALT, text, algorithm="sha256").hexdigest()


def repeated_entry(first: Entry, fingerprint: str) -> Entry:
    """``first`` answered again to the sending that made it; any other is refused."""
    if not first.form_fingerprint or not constant_time_compare(first.form_fingerprint, fingerprint):
        raise TournamentError(
            _(
                "This form was already sent, from another connection or with other details:"
                " nothing was entered now. Start a new form to enter a team."
            ),
            code="entry_key_used",
        )
    first.repeated = True
    return first
