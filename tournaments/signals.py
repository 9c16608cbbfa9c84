"""What a write announces, for whoever must follow it (the page cache, the live pages).

Services call :func:`announce` after a change that a public page shows: a hand saved,
corrected or removed, a draft step synced, a round generated, a team edited. The signal
is sent once the transaction commits, so a listener never sees a change that was rolled
back, and a listener that fails never fails the write.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

changed = Signal()
"""Sent with ``championship_id``, ``stage_id`` (or None), ``match_id`` (or None) and ``what``:
``"hand"`` (a hand saved, corrected or removed, or a match's result), ``"result"`` (a
match decided, undecided or given another winner: sent besides ``"hand"``), ``"match"`` (its
table, time, referee or seats), ``"draft"`` (the hand in progress), ``"round"`` (a stage,
a round or bracket slots created), ``"team"``, ``"championship"``. The receiver of the
public pages (``tournaments.web.live.on_changed``) is connected in ``TournamentsConfig``."""


def announce(
    *,
    championship_id: int,
    what: str,
    stage_id: int | None = None,
    match_id: int | None = None,
) -> None:
    """Send :data:`changed` when the current transaction commits (at once outside one)."""

    def send() -> None:
        for receiver, error in changed.send_robust(
            sender=None,
            championship_id=championship_id,
            stage_id=stage_id,
            match_id=match_id,
            what=what,
        ):
            if isinstance(error, Exception):
                # The write is stored; a listener's failure (a cache or a channel layer down)
                # must not turn it into an error.
                logger.error("listener %r failed on %s: %r", receiver, what, error)

    transaction.on_commit(send)
