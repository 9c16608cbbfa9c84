"""The referee's writes: thin guards around ``tournaments.results.services``.

Who may write hands, and when, is checked by the results services they call
(``tournaments.results.selectors.hand_write_problem``): a referee not on the championship's
list of referees, or a championship that is not running, is refused there with a translated
message.

A tablet page was rendered for one hand number; if another referee (or another tab) has
stored or deleted a hand since, the page is stale and nothing is written. The match row
is locked first, so the check and the write see the same hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Hand, Match
from tournaments.results import services as result_services
from tournaments.results.locking import lock_match
from tournaments.results.numbering import hand_record_numbered


def stale(number: int) -> TournamentError:
    """The error of a page rendered for another hand than ``number``, the next one."""
    return TournamentError(
        _(
            "The match has changed since this page was shown (it now expects hand "
            "%(number)s): nothing was saved, the sheet has been reloaded."
        ),
        code="stale_hand",
        params={"number": number},
    )


@transaction.atomic
def hand_save(
    *,
    match: Match,
    number: int,
    record: Mapping[str, Any],
    recorded_by: AbstractBaseUser | None,
    device: str | None = None,
) -> Hand:
    """Record ``record`` as hand ``number`` of ``match``, or raise if that is no longer the
    next hand (a translated ``TournamentError``, code ``stale_hand``).

    The numbered save every client uses (``results.numbering``): the same hand sent twice
    (a double tap, a tablet retrying) is stored once and answered with the stored hand.
    ``device``: the tablet saving it (refused while another device holds the match; the
    match's draft is emptied once the hand is stored).
    """
    try:
        hand, _created = hand_record_numbered(
            match=match, number=number, record=record, recorded_by=recorded_by, device=device
        )
    except TournamentError as error:
        if error.code in ("hand_exists", "hand_number"):
            raise stale(error.params["expected"]) from None
        raise
    return hand


@transaction.atomic
def hand_undo(*, match: Match, number: int, by: AbstractBaseUser | None) -> None:
    """Delete hand ``number`` if it is still the last one of ``match``.

    ``by`` must still be allowed to referee the match: ``hand_delete_last`` checks it, as
    ``hand_record`` checks ``recorded_by`` for :func:`hand_save`."""
    count = lock_match(match)
    if count != number:
        raise stale(count + 1)
    result_services.hand_delete_last(match=match, deleted_by=by)
