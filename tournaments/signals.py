"""What a write announces, for whoever must follow it (the page cache, the live pages).

Services call :func:`announce` after a change that a public page shows: a hand saved,
corrected or removed, a draft step synced, a round generated, a team edited. The signal
is sent once the transaction commits, so a listener never sees a change that was rolled
back, and a listener that fails never fails the write.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

changed = Signal()
"""Sent with ``championship_id``, ``stage_id`` (or None), ``match_id`` (or None), ``slug``
(the championship's, or None when the sender did not have it at hand) and ``what``:
``"hand"`` (a hand saved, corrected or removed, or a match's result), ``"result"`` (a
match decided, undecided or given another winner: sent besides ``"hand"``), ``"match"`` (its
table, time, referee or seats), ``"draft"`` (the hand in progress), ``"round"`` (a stage,
a round or bracket slots created), ``"team"``, ``"championship"``, ``"ratings"`` (a match
rated: ``match_id``; later matches rated again or a rebuild: None; the championship may
then be 0 and the slug None), ``"circuit"`` (a circuit's ranking, qualified teams or
rules: ``slug`` is then the *circuit's*, the championship the one that caused it, or 0).
The receiver of the public pages (``tournaments.live.announce.on_changed``) is connected
in ``TournamentsConfig``."""


def announce(
    *,
    championship_id: int,
    what: str,
    stage_id: int | None = None,
    match_id: int | None = None,
    slug: str | None = None,
    persons: list[int] | None = None,
) -> None:
    """Send :data:`changed` when the current transaction commits (at once outside one).
    ``persons``: for a circuit's change, the persons whose pages it changes (None: any
    person's)."""

    def send() -> None:
        for receiver, error in changed.send_robust(
            sender=None,
            championship_id=championship_id,
            stage_id=stage_id,
            match_id=match_id,
            slug=slug,
            what=what,
            persons=persons,
        ):
            if isinstance(error, Exception):
                # The write is stored; a listener's failure (a cache or a channel layer down)
                # must not turn it into an error.
                logger.error("listener %r failed on %s: %r", receiver, what, error)

    transaction.on_commit(send)


def announce_match(match: Any, what: str) -> None:
    """:func:`announce` a change of ``match`` (a ``tournaments.models.Match``).

    The championship's slug comes from the championship fetched with the match when it
    was (a tap's match is): the receiver then need not look it up.
    """
    stage = match.stage  # fetched if it was not
    cached = type(stage).championship.is_cached(stage)
    announce(
        championship_id=stage.championship_id,
        stage_id=match.stage_id,
        match_id=match.pk,
        slug=stage.championship.slug if cached else None,
        what=what,
    )
