"""A match's hands: recorded, imported, corrected, removed; and what they decide.

Every write here ends in :func:`_derive`: the engine scores the stored records again
from the state before the first changed hand, and the match's games, scores, status and
winner are what it says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import EngineError, MatchHand, MatchResult, MatchState
from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.errors import TournamentError, from_engine
from tournaments.models import (
    Championship,
    Hand,
    HandDraft,
    HandRevision,
    Match,
    MatchConfirmation,
)
from tournaments.ratings import statistics
from tournaments.results import records
from tournaments.results.selectors import last_revision, result_change_problem
from tournaments.results.services.derive import _derive
from tournaments.results.services.matches import (
    _check_by_hands,
    _check_may_write,
    _check_playable,
    _locked_match,
    _match_for_records,
    match_start,
)
from tournaments.signals import announce_match
from tournaments.text import paragraph


def _check_entry(record: Any) -> dict[str, Any]:
    if not isinstance(record, Mapping) or not isinstance(record.get("events"), list):
        raise TournamentError(
            _("A hand record is an object with the list of its events."), code="bad_record"
        )
    return records.hand_entry(record)


def _engine_failure(match: Match, error: EngineError) -> TournamentError:
    hand = getattr(error, "hand", None)
    return from_engine(error, names=records.names(match), hand=None if hand is None else hand + 1)


def _score_or_fail(match: Match, entries: list[dict[str, Any]]) -> MatchResult:
    try:
        return records.score(match, entries)
    except EngineError as error:
        raise _engine_failure(match, error) from None


def _score_next_or_fail(
    match: Match, state: MatchState, entry: dict[str, Any]
) -> tuple[MatchHand, MatchState]:
    try:
        return records.score_next(match, state, entry)
    except EngineError as error:
        raise _engine_failure(match, error) from None


@transaction.atomic
def hand_record(
    *, match: Match, record: Mapping[str, Any], recorded_by: AbstractBaseUser | None
) -> Hand:
    """Record the next hand of a match (its entry: ``cards``, ``events``...).

    The new hand is scored by the engine from the match's stored state (``Match.state``;
    the whole match is replayed when there is none in step with the hands): an illegal
    hand raises a translated ``TournamentError`` and nothing is stored. Otherwise the hand
    is stored and the match's games, scores, status, winner and state follow; a bracket
    winner advances. Two referees on one match are serialised by a row lock, under which
    the state is read and written.
    """
    match = _locked_match(match)
    return _record_next(match, record, recorded_by, count=match.hands.count())


def hand_record_locked(
    *,
    match: Match,
    record: Mapping[str, Any],
    recorded_by: AbstractBaseUser | None,
    count: int,
) -> Hand:
    """:func:`hand_record` for a writer inside a transaction that already holds the match's
    lock and counted its hands under it (``results.locking.lock_match``): the lock and the
    count are not taken twice on the busiest write of a championship day."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("hand_record_locked needs the transaction that holds the lock")
    return _record_next(_match_for_records(match), record, recorded_by, count=count)


def _record_next(
    match: Match, record: Mapping[str, Any], recorded_by: AbstractBaseUser | None, *, count: int
) -> Hand:
    _check_may_write(match, recorded_by)
    _check_playable(match)
    _check_by_hands(match)
    if match.status == Match.Status.FINISHED:
        raise TournamentError(
            _("This match is over: correct a hand instead of adding one."), code="match_over"
        )
    if not match.seats:
        match = match_start(match=match, by=recorded_by)
        match = _locked_match(match)
    entry = _check_entry(record)
    state = records.stored_state(match, count)
    if state is not None:
        # The usual save: the new hand alone is scored from the state the others left.
        scored, state = _score_next_or_fail(match, state, entry)
        hand = Hand(match=match, number=count + 1, record=entry, recorded_by=recorded_by)
        _derive(match, [hand], [scored], state)
    else:
        # No state in step with the hands (a match stored before states existed): replay.
        hands = list(match.hands.order_by("number"))
        result = _score_or_fail(match, [h.record for h in hands] + [entry])
        hand = Hand(match=match, number=count + 1, record=entry, recorded_by=recorded_by)
        _derive(match, [*hands, hand], result.hands, result.state)
    _revise(match, [_revision(hand.number, HandRevision.Action.RECORDED, None, hand)], recorded_by)
    return hand


@transaction.atomic
def match_hands_import(
    *,
    match: Match,
    records: Sequence[Mapping[str, Any]],
    recorded_by: AbstractBaseUser | None,
) -> list[Hand]:
    """Record several hands at once (a score sheet entered after play, or demo data).

    Same checks as :func:`hand_record` on the whole sequence: one illegal hand and none
    is stored.
    """
    match = _locked_match(match)
    _check_may_write(match, recorded_by)
    _check_playable(match)
    _check_by_hands(match)
    if not match.seats:
        match_start(match=match, by=recorded_by)
        match = _locked_match(match)
    entries = [_check_entry(r) for r in records]
    existing = list(match.hands.order_by("number"))
    result = _score_or_fail(match, [h.record for h in existing] + entries)
    created = [
        Hand(match=match, number=len(existing) + k, record=entry, recorded_by=recorded_by)
        for k, entry in enumerate(entries, start=1)
    ]
    _derive(match, existing + created, result.hands, result.state)
    recorded = HandRevision.Action.RECORDED
    _revise(match, [_revision(h.number, recorded, None, h) for h in created], recorded_by)
    return created


def _hand_view(hand: Hand) -> dict[str, Any]:
    """What a revision keeps of a hand: its entry and what the engine made of it."""
    points = {"A": hand.points_a, "B": hand.points_b}
    score = {"A": hand.score_a, "B": hand.score_b}
    if hand.match.team_c_id is not None:  # a table of three: its third player's too
        points["C"], score["C"] = hand.points_c, hand.score_c
    return {"record": hand.record, "points": points, "score": score, "status": hand.status}


def _revision(
    number: int | None,
    action: str,
    before: Hand | dict[str, Any] | None,
    after: Hand | dict[str, Any] | None,
    *,
    reason: str = "",
    side: str = "",
) -> HandRevision:
    def view(value: Hand | dict[str, Any] | None) -> dict[str, Any] | None:
        return _hand_view(value) if isinstance(value, Hand) else value

    return HandRevision(
        number=number,
        action=action,
        before=view(before),
        after=view(after),
        reason=reason,
        side=side,
    )


def _revise(match: Match, revisions: Sequence[HandRevision], by: AbstractBaseUser | None) -> None:
    """Keep the history of a result change and tell whoever follows the match.

    The one place every service that changes a result goes through, so the tablet, the
    API and the organiser's pages all leave the same trail. A hand corrected or removed
    changes the result its sides may have confirmed: their answers are dropped, the result
    is provisional again until they (or the organiser) confirm it anew.
    """
    for revision in revisions:
        revision.match = match
        revision.by = by
    HandRevision.objects.bulk_create(revisions)
    changed = {HandRevision.Action.CORRECTED, HandRevision.Action.REMOVED}
    if any(r.action in changed for r in revisions):
        MatchConfirmation.objects.filter(match=match).delete()
        Match.objects.filter(pk=match.pk).update(confirmed_at=None)
        match.confirmed_at = None
    # Every change of a result passes here: the page cache and the live pages follow.
    announce_match(match, "hand")


def _check_may_change(match: Match, user: AbstractBaseUser | None, reason: str | None) -> str:
    """Refuse a correction or a removal ``user`` may not make (``result_change_problem``)
    or one without its reason (``None``: a reason is not asked, the tablet's undo)."""
    problem = result_change_problem(match=match, user=user)
    if problem is not None:
        raise problem
    if reason is None:
        return ""
    if not reason.strip():
        raise TournamentError(
            _("Give the reason for the change: it is kept in the match's history."),
            code="reason_missing",
        )
    return paragraph(reason).strip()


def _check_not_stale(match: Match, expected_revision: int | None) -> None:
    """Refuse a change decided on a page older than the match's last result change."""
    if expected_revision is not None and expected_revision != last_revision(match=match):
        raise TournamentError(
            _(
                "The result of this match has changed since this page was shown (someone "
                "else changed it): nothing was saved. Check the hands and try again."
            ),
            code="stale_result",
        )


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    record: Mapping[str, Any],
    corrected_by: AbstractBaseUser | None,
    reason: str,
    expected_revision: int | None = None,
) -> Hand:
    """Replace any recorded hand of a match, with the reason, and derive everything again.

    The organiser may correct any hand at any time; the match's referee until a side has
    confirmed the result (``results.selectors.result_change_problem``). The whole match is
    re-scored by the engine with the corrected hand; if any hand becomes illegal, or a
    later hand is no longer possible (the match now ends earlier), nothing changes. A
    bracket whose next match already has hands refuses a changed winner
    (``bracket_conflict``). ``expected_revision`` (``results.selectors.last_revision`` when
    the page was shown) refuses a change made meanwhile by someone else (``stale_result``).
    The revision (before, after, who, why) is kept; the sides' confirmations are dropped.
    """
    match = _locked_match(hand.match)
    reason = _check_may_change(match, corrected_by, reason)
    _check_not_stale(match, expected_revision)
    if match.status == Match.Status.WALKOVER:
        # A forfeit keeps its hands, but its result is the organiser's decision.
        raise TournamentError(
            _("This match was decided by walkover: undo the walkover first."), code="walkover"
        )
    entry = _check_entry(record)
    hands = list(match.hands.order_by("number"))
    target = next((h for h in hands if h.pk == hand.pk), None)
    if target is None:
        raise TournamentError(_("This hand no longer exists."), code="no_hand")
    if target.record == entry:
        raise TournamentError(
            _("The corrected hand is the same as the recorded one: nothing to change."),
            code="no_change",
        )
    before = _hand_view(target)
    entries = [entry if h.pk == hand.pk else h.record for h in hands]
    result = _score_or_fail(match, entries)
    target.record = entry
    target.recorded_by = corrected_by or target.recorded_by
    target.corrected_at = timezone.now()
    target.save(update_fields=["record", "recorded_by", "corrected_at"])
    _derive(match, hands, result.hands, result.state)
    revision = _revision(
        target.number, HandRevision.Action.CORRECTED, before, target, reason=reason
    )
    _revise(match, [revision], corrected_by)
    return target


@transaction.atomic
def hand_remove(
    *,
    hand: Hand,
    removed_by: AbstractBaseUser | None,
    reason: str,
    expected_revision: int | None = None,
) -> None:
    """Remove any hand of a match (one recorded by mistake), with the reason.

    The later hands move up one number and the match is replayed through the engine
    without it: if a later hand is illegal there (another mano, another score), nothing
    changes. Who may, the bracket, ``expected_revision`` and the history: as
    :func:`hand_correct`.
    """
    match = _locked_match(hand.match)
    reason = _check_may_change(match, removed_by, reason)
    _check_not_stale(match, expected_revision)
    if match.status == Match.Status.WALKOVER:
        raise TournamentError(
            _("This match was decided by walkover: undo the walkover first."), code="walkover"
        )
    hands = list(match.hands.order_by("number"))
    target = next((h for h in hands if h.pk == hand.pk), None)
    if target is None:
        raise TournamentError(_("This hand no longer exists."), code="no_hand")
    _remove(match, hands, target, reason=reason, by=removed_by)


def _remove(
    match: Match, hands: list[Hand], target: Hand, *, reason: str, by: AbstractBaseUser | None
) -> None:
    """Delete ``target`` of ``hands`` (the match's, in order), renumber and derive again."""
    remaining = [h for h in hands if h.pk != target.pk]
    # Scored before anything is written: a refused removal stores nothing.
    result = _score_or_fail(match, [h.record for h in remaining])
    before = _hand_view(target)
    number = target.number
    target.delete()
    # One at a time in ascending order, so "one number per hand" holds after every write.
    for later in remaining[number - 1 :]:
        later.number -= 1
        later.save(update_fields=["number"])
    if number < len(hands):
        # An earlier hand removed: the hand in play at the table is still the next one,
        # whose number moved back too. The last hand removed (the tablet's undo) is entered
        # again as that number, so the draft of the hand after it is left to go stale.
        HandDraft.objects.filter(match=match, number__gt=number).update(
            number=F("number") - 1, revision=F("revision") + 1
        )
    _derive(match, remaining, result.hands, result.state)
    removed = HandRevision.Action.REMOVED
    _revise(match, [_revision(number, removed, before, None, reason=reason)], by)


@transaction.atomic
def hand_delete_last(
    *, match: Match, deleted_by: AbstractBaseUser | None = None, reason: str = ""
) -> None:
    """Delete the last hand of a match (as ``deleted_by``, ``None`` for the system) and
    derive everything again: the tablet's undo, kept in the history like any removal."""
    match = _locked_match(match)
    _check_may_change(match, deleted_by, None)
    hands = list(match.hands.order_by("number"))
    if not hands:
        raise TournamentError(_("This match has no hand to delete."), code="no_hand")
    if match.status == Match.Status.WALKOVER:
        raise TournamentError(
            _("This match was decided by walkover: undo the walkover first."), code="walkover"
        )
    _remove(match, hands, hands[-1], reason=paragraph(reason).strip(), by=deleted_by)


def hand_statistics_rebuild(*, championship: Championship | None = None) -> tuple[int, int]:
    """The statistics of every stored hand again (of one championship, or all), from the
    engine's scoring of each match's hands: ``manage.py stats_rebuild``. One transaction
    per match; a match whose hands the engine refuses (stored before a rule changed) is
    left without statistics. Returns the matches rebuilt and those refused."""
    matches = (
        Match.objects.filter(hands__number=1)
        .select_related("stage__championship", "team_a", "team_b", "team_c")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_c__memberships", queryset=MEMBERS_IN_ORDER),
        )
        .order_by("pk")
    )
    if championship is not None:
        matches = matches.filter(stage__championship=championship)
    rebuilt = refused = 0
    for match in matches.iterator(chunk_size=200):
        hands = list(match.hands.order_by("number"))
        try:
            result = records.score(match, [hand.record for hand in hands])
        except EngineError:
            refused += 1
            continue
        statistics.match_statistics_replace(
            match=match, hands=hands, scored=result.hands, columns=records.stat_columns(match)
        )
        rebuilt += 1
    return rebuilt, refused
