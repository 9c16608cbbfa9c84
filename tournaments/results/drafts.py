"""The hand in progress at a match's table, kept on the server (``HandDraft``): the writes.

The referee's tablet syncs the hand it is entering after every step, so reopening the
sheet (another tab, a bookmark, another tablet) resumes it and the public pages can show
it. One device holds a match at a time: another one must take it over explicitly, and a
change sent by a device that has not seen the last change of another one is refused
(``draft_stale``), never merged. Every change is made under the match's row lock, the
lock hands are recorded under, so a draft and a hand save never cross.

The engine checks the draft's events so far (a partial hand must be legal so far); it is
stored as sent, and read back through ``results.selectors.match_draft``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from scoring import EngineError, HandEntry, NextHand, check_text, next_hand
from tournaments.errors import TournamentError, from_engine
from tournaments.models import Hand, HandDraft, Match
from tournaments.results import records
from tournaments.results.locking import lock_match
from tournaments.results.selectors import by_hands_problem, hand_write_problem
from tournaments.signals import announce_match

# A hand has a few dozen events; with its cards and the record kept for "undo the
# restart", a draft stays far below this.
MAX_DRAFT_CHARS = 40_000
# The keys a draft's record may hold: the hand-record entry, the pica-pica pair being
# entered, and the record before "start the hand again" (to undo it).
DRAFT_KEYS = ("events", "cards", "gallo", "pica_pica", "current", "undo")
MAX_DEVICE = 64


def upcoming_hand(match: Match, hands: int) -> tuple[dict[str, Any], NextHand | None]:
    """The match's head (its record without hands) and the next hand's context, from the
    stored engine state (replaying the hands only when it is out of step); None once the
    match is over."""
    head = records.match_head(match)
    state = records.stored_state(match, hands)
    if state is not None:
        try:
            return head, state.next_hand(head)
        except EngineError:
            pass  # a state that does not fit the match: replay, as without one
    stored = list(Hand.objects.filter(match=match).order_by("number").values_list("record"))
    info = next_hand(records.match_record(match, [r for (r,) in stored]))
    return head, None if info is None else NextHand.from_dict(info)


def _bad_draft(detail: str) -> TournamentError:
    return TournamentError(
        _("The hand in progress sent by the tablet is damaged: %(detail)s."),
        code="bad_draft",
        params={"detail": detail},
    )


def draft_check(
    *, match: Match, record: Any, head: Mapping[str, Any], upcoming: NextHand, number: int
) -> None:
    """Refuse (a translated ``TournamentError``) a draft record that is not a hand so far
    the engine accepts: its events are replayed, a pica-pica hand pair by pair, and so is
    the record kept under ``undo``."""
    if not isinstance(record, dict):
        raise _bad_draft(str(_("the hand must be a JSON object")))
    unknown = sorted(str(key) for key in record if key not in DRAFT_KEYS)
    if unknown:
        raise _bad_draft(str(_("unknown field %(field)s")) % {"field": unknown[0]})
    try:
        check_text(record)
        # No NaN or infinity: PostgreSQL's jsonb refuses them (and no event has one).
        size = len(json.dumps(record, separators=(",", ":"), allow_nan=False))
    except EngineError as error:
        raise from_engine(error, names=records.names(match), hand=number) from None
    except (TypeError, ValueError, RecursionError):
        raise _bad_draft(str(_("it is not valid JSON"))) from None
    if size > MAX_DRAFT_CHARS:
        raise _bad_draft(str(_("it is too long")))
    undo = record.get("undo")
    if undo is not None:
        if not isinstance(undo, dict) or "undo" in undo:
            raise _bad_draft(str(_("the hand kept to undo the restart is not a hand")))
        _replay(match, undo, head, upcoming, number)
    _replay(match, {k: v for k, v in record.items() if k != "undo"}, head, upcoming, number)


def _replay(
    match: Match,
    record: Mapping[str, Any],
    head: Mapping[str, Any],
    upcoming: NextHand,
    number: int,
) -> None:
    entry = HandEntry(upcoming, head)
    try:
        entry.restore(dict(record))
    except EngineError as error:
        raise from_engine(error, names=records.names(match), hand=number) from None


def _since(draft: HandDraft) -> str:
    moment = draft.held_since or draft.updated_at
    return formats.time_format(timezone.localtime(moment), "H:i") if moment else ""


def other_device(draft: HandDraft) -> TournamentError:
    """The refusal of a device that does not hold the match ``draft`` is for."""
    return TournamentError(
        _(
            "Another device is entering this match (since %(since)s): nothing was saved "
            "here. Take the match over on this device to go on entering it."
        ),
        code="draft_other_device",
        params={"since": _since(draft), "device": draft.device},
    )


def _stale(expected: int) -> TournamentError:
    return TournamentError(
        _(
            "The hand in progress was changed on another device since this one last saw "
            "it: nothing was saved here. Reload the match sheet to see the hand as it is now."
        ),
        code="draft_stale",
        params={"expected": expected},
    )


def _stale_number(number: int, expected: int) -> TournamentError:
    return TournamentError(
        _(
            "This device was entering hand %(number)s, but the match expects hand "
            "%(expected)s now: nothing was saved. Reload the match sheet."
        ),
        code="draft_stale",
        params={"number": number, "expected": expected},
    )


def _check_device(device: Any) -> str:
    if not isinstance(device, str) or not device or len(device) > MAX_DEVICE:
        raise TournamentError(
            _("The device sending the hand is not identified (1 to 64 characters)."),
            code="bad_device",
        )
    return device


@transaction.atomic
def draft_save(
    *,
    match: Match,
    number: int,
    record: Any,
    device: str,
    revision: int,
    takeover: bool = False,
    by: AbstractBaseUser | None,
) -> HandDraft:
    """Store ``record`` as the hand in progress (hand ``number``) of ``match``, sent by
    ``device`` which last saw the draft at ``revision``; the draft's revision grows by one.

    Refused (translated ``TournamentError``), nothing stored:

    - ``draft_other_device``: another device holds the match and ``takeover`` is false
      (with ``takeover`` the device takes the match over);
    - ``draft_stale``: ``number`` is not the next hand, or the last change came from
      another device and this one has not seen it (``revision`` differs);
    - the engine's error when the events so far are not legal, ``bad_draft`` when the
      record is not a hand at all; who may write hands is ``hand_write_problem``'s rule.
    """
    device = _check_device(device)
    hands = lock_match(match)
    problem = hand_write_problem(match=match, user=by) or by_hands_problem(match=match)
    if problem is not None:
        raise problem
    expected = hands + 1
    draft = HandDraft.objects.filter(match=match).first()
    if draft is not None and draft.device and draft.device != device:
        if not takeover:
            raise other_device(draft)
        if revision != draft.revision:
            # Taking over is allowed only from the draft as it is now: the change this
            # device has not seen would otherwise be overwritten unseen.
            raise _stale(expected)
    if number != expected:
        raise _stale_number(number, expected)
    if match.is_decided or match.is_bye:
        raise TournamentError(_("This match is over: no more hands to record."), code="match_over")
    head, upcoming = upcoming_hand(match, hands)
    if upcoming is None:
        raise TournamentError(_("This match is over: no more hands to record."), code="match_over")
    draft_check(match=match, record=record, head=head, upcoming=upcoming, number=number)
    now = timezone.now()
    if draft is None:
        draft = HandDraft(match=match, revision=0)
    if draft.device != device:
        draft.held_since = now
    draft.device = device
    draft.number = number
    draft.record = record
    draft.revision += 1
    draft.updated_by = by if by is not None and by.is_authenticated else None
    draft.save()
    announce_match(match, "draft")
    return draft


def draft_check_holder(*, match: Match, device: str | None) -> None:
    """Refuse a hand save from ``device`` while another device holds ``match`` (call it
    under the match's row lock). ``None`` or "": a client that names no device."""
    if not device:
        return
    draft = HandDraft.objects.filter(match=match).only("device", "held_since", "updated_at").first()
    if draft is not None and draft.device and draft.device != device:
        raise other_device(draft)


def draft_hand_stored(*, match: Match, next_number: int) -> None:
    """A hand was stored: the draft is emptied for hand ``next_number``, its holder kept
    (call it under the match's row lock). Not announced apart: the hand's announcement
    (``"hand"``) covers the hand in progress too (``live.changed_topics``)."""
    # One statement, not a read and a write: a save runs it after every hand.
    HandDraft.objects.filter(match=match).update(
        number=next_number, record={}, revision=F("revision") + 1, updated_at=timezone.now()
    )
