"""Recording a hand by its number: the save guard of every client that names the hand.

A client (the API, a tablet page) says which hand it records. Under the match's row lock
the number is checked against the hands already stored, so a retried request stores
nothing twice and a client that missed a hand is told which one the match expects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Hand, Match
from tournaments.results import drafts, records
from tournaments.results import services as result_services
from tournaments.results.locking import lock_match


@transaction.atomic
def hand_record_numbered(
    *,
    match: Match,
    number: int,
    record: Mapping[str, Any],
    recorded_by: AbstractBaseUser | None,
    device: str | None = None,
) -> tuple[Hand, bool]:
    """Record ``record`` as hand ``number`` of ``match``; returns ``(hand, created)``.

    - ``number`` is the next hand: it is recorded (``results.services.hand_record``).
    - Hand ``number`` is already stored with the same entry (a retry): that hand is
      returned, ``created`` false, nothing is written.
    - Already stored with another entry: ``TournamentError`` ``hand_exists``.
    - Any other number: ``TournamentError`` ``hand_number``.

    Both errors carry ``params["expected"]``, the number the match expects next.

    ``device`` (the tablet sending the hand, docs/api.md "The hand in progress"): while
    another device holds the match, ``draft_other_device`` and nothing is stored. A stored
    hand empties the match's draft for the next hand (``results.drafts``).
    """
    # The lock the recording service takes too (taken first, so the count and the write
    # see the same hands).
    count = lock_match(match)
    expected = count + 1
    if 1 <= number <= count:
        stored = Hand.objects.get(match=match, number=number)
        if isinstance(record, Mapping) and stored.record == records.hand_entry(record):
            return stored, False
        raise TournamentError(
            _(
                "Hand %(number)s is already recorded with other events: the match expects "
                "hand %(expected)s."
            ),
            code="hand_exists",
            params={"number": number, "expected": expected},
        )
    if number != expected:
        raise TournamentError(
            _("The match expects hand %(expected)s, not hand %(number)s."),
            code="hand_number",
            params={"number": number, "expected": expected},
        )
    drafts.draft_check_holder(match=match, device=device)
    hand = result_services.hand_record_locked(
        match=match, record=record, recorded_by=recorded_by, count=count
    )
    drafts.draft_hand_stored(match=match, next_number=expected + 1)
    return hand, True
