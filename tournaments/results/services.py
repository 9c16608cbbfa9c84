"""Writes of results: seating a match, recording, correcting and undoing hands, walkovers.

A match's games, scores, status and winner are never typed in: they are derived from its
hand records by the engine (``scoring``), under a row lock on the match. A decided result
makes its bracket advance and its standings refresh.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import HandStatus, MatchResult
from scoring.errors import EngineError
from scoring.rules import RuleSet
from tournaments import tasks
from tournaments.championships.selectors import is_referee, rules_spec
from tournaments.championships.services import team_check_ready
from tournaments.errors import TournamentError, from_engine
from tournaments.models import Game, Hand, Match, Membership, Stage, Team
from tournaments.results import records
from tournaments.results.selectors import hand_write_problem
from tournaments.stages.rounds import bracket_sync
from tournaments.standings import services as standing_services

_DECIDED = (Match.Status.FINISHED, Match.Status.WALKOVER)


def _locked_match(match: Match) -> Match:
    """The match, locked against a concurrent writer, with what the records need."""
    # No ordering: the default one joins the round, and FOR UPDATE would lock that row too,
    # making the referees of one round wait for each other.
    Match.objects.select_for_update().filter(pk=match.pk).order_by().only("pk").first()
    members = Membership.objects.select_related("player").order_by("order")
    return (
        Match.objects.select_related("stage__championship", "team_a", "team_b")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=members),
            Prefetch("team_b__memberships", queryset=members),
        )
        .get(pk=match.pk)
    )


@transaction.atomic
def match_assign(
    *,
    match: Match,
    table: str | None = None,
    scheduled_at: datetime.datetime | None = None,
    referee: AbstractBaseUser | None = None,
) -> Match:
    """Set a match's table, time and referee (a user in the ``referees`` group, or staff).

    Arguments left ``None`` are not changed.
    """
    match = Match.objects.select_for_update().get(pk=match.pk)
    if referee is not None:
        if not is_referee(referee):
            raise TournamentError(
                _("%(user)s is not a referee."),
                code="not_referee",
                params={"user": referee.get_username()},
            )
        match.referee = referee
    if table is not None:
        match.table = table
    if scheduled_at is not None:
        match.scheduled_at = scheduled_at
    match.save(update_fields=["referee", "table", "scheduled_at"])
    return match


def _check_may_write(match: Match, user: AbstractBaseUser | None) -> None:
    """Refuse a write of hands the rule forbids (``results.selectors.hand_write_problem``):
    the championship is not running, or ``user`` may not referee this match."""
    problem = hand_write_problem(match=match, user=user)
    if problem is not None:
        raise problem


def _check_playable(match: Match) -> None:
    if match.is_bye:
        raise TournamentError(_("A bye is not played."), code="bye")
    if match.status == Match.Status.WALKOVER:
        raise TournamentError(
            _("This match was decided by walkover: no hand can be recorded."), code="walkover"
        )


@transaction.atomic
def match_start(
    *,
    match: Match,
    seats: Sequence[int | str] | None = None,
    by: AbstractBaseUser | None = None,
) -> Match:
    """Seat the players and open the match for hand entry, as ``by`` (who must be allowed
    to record its hands: :func:`_check_may_write`; ``None``: the system).

    ``seats``: the players (ids or ``p<id>`` keys) counter-clockwise, the first hand's
    mano first; default the members of the two teams alternating. Both teams must be
    complete and, in catalan, have their cap de colla.
    """
    match = _locked_match(match)
    _check_may_write(match, by)
    _check_playable(match)
    if match.hands.exists():
        raise TournamentError(
            _("The seats cannot change once hands have been recorded."), code="seats_locked"
        )
    championship = match.stage.championship
    for team in (match.team_a, match.team_b):
        team_check_ready(team, championship)
    teams = {"A": records.team_keys(match.team_a), "B": records.team_keys(match.team_b)}
    if seats is None:
        chosen = records.default_seats(teams)
    else:
        chosen = [s if isinstance(s, str) else f"p{s}" for s in seats]
        if sorted(chosen) != sorted(teams["A"] + teams["B"]):
            raise TournamentError(
                _("The seats must list every player of both teams exactly once."),
                code="seats_invalid",
            )
    match.seats = chosen
    match.status = Match.Status.IN_PROGRESS
    match.save(update_fields=["seats", "status"])
    return match


def _check_entry(record: Any) -> dict[str, Any]:
    if not isinstance(record, Mapping) or not isinstance(record.get("events"), list):
        raise TournamentError(
            _("A hand record is an object with the list of its events."), code="bad_record"
        )
    return records.hand_entry(record)


def _score_or_fail(match: Match, entries: list[dict[str, Any]]) -> MatchResult:
    try:
        return records.score(match, entries)
    except EngineError as error:
        hand = getattr(error, "hand", None)
        raise from_engine(
            error, names=records.names(match), hand=None if hand is None else hand + 1
        ) from None


@transaction.atomic
def hand_record(
    *, match: Match, record: Mapping[str, Any], recorded_by: AbstractBaseUser | None
) -> Hand:
    """Record the next hand of a match (its entry: ``cards``, ``events``...).

    The whole match record, the new hand included, is scored by the engine: an illegal
    hand raises a translated ``TournamentError`` and nothing is stored. Otherwise the hand
    is stored and the match's games, scores, status and winner are derived again; a
    bracket winner advances. Two referees on one match are serialised by a row lock.
    """
    match = _locked_match(match)
    _check_may_write(match, recorded_by)
    _check_playable(match)
    if match.status == Match.Status.FINISHED:
        raise TournamentError(
            _("This match is over: correct a hand instead of adding one."), code="match_over"
        )
    if not match.seats:
        match = match_start(match=match, by=recorded_by)
        match = _locked_match(match)
    entry = _check_entry(record)
    hands = list(match.hands.order_by("number"))
    result = _score_or_fail(match, [h.record for h in hands] + [entry])
    hand = Hand.objects.create(
        match=match,
        number=len(hands) + 1,
        record=entry,
        status=str(result.hands[-1].status),
        recorded_by=recorded_by,
    )
    _derive(match, [*hands, hand], result)
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
    if not match.seats:
        match_start(match=match, by=recorded_by)
        match = _locked_match(match)
    entries = [_check_entry(r) for r in records]
    existing = list(match.hands.order_by("number"))
    result = _score_or_fail(match, [h.record for h in existing] + entries)
    created = Hand.objects.bulk_create(
        [
            Hand(match=match, number=len(existing) + k, record=entry, recorded_by=recorded_by)
            for k, entry in enumerate(entries, start=1)
        ]
    )
    _derive(match, existing + created, result)
    return created


@transaction.atomic
def hand_correct(
    *, hand: Hand, record: Mapping[str, Any], corrected_by: AbstractBaseUser | None
) -> Hand:
    """Replace a recorded hand (a referee fixing a mistake) and derive everything again.

    The whole match is re-scored with the corrected hand; if any hand becomes illegal, or a
    later hand is no longer possible (the match now ends earlier), nothing changes.
    """
    match = _locked_match(hand.match)
    _check_may_write(match, corrected_by)
    entry = _check_entry(record)
    hands = list(match.hands.order_by("number"))
    entries = [entry if h.pk == hand.pk else h.record for h in hands]
    result = _score_or_fail(match, entries)
    target = next(h for h in hands if h.pk == hand.pk)
    target.record = entry
    target.recorded_by = corrected_by or target.recorded_by
    target.corrected_at = timezone.now()
    target.save(update_fields=["record", "recorded_by", "corrected_at"])
    _derive(match, hands, result)
    return target


@transaction.atomic
def hand_delete_last(*, match: Match, deleted_by: AbstractBaseUser | None = None) -> None:
    """Delete the last hand of a match (as ``deleted_by``, ``None`` for the system) and
    derive everything again."""
    match = _locked_match(match)
    _check_may_write(match, deleted_by)
    hands = list(match.hands.order_by("number"))
    if not hands:
        raise TournamentError(_("This match has no hand to delete."), code="no_hand")
    if match.status == Match.Status.WALKOVER:
        raise TournamentError(
            _("This match was decided by walkover: undo the walkover first."), code="walkover"
        )
    hands.pop().delete()
    result = _score_or_fail(match, [h.record for h in hands])
    _derive(match, hands, result)


def _derive(match: Match, hands: list[Hand], result: MatchResult) -> None:
    """Store what the engine derived: hands' context and points, games, the match's result."""
    team_of = {"A": match.team_a_id, "B": match.team_b_id}
    match.games.all().delete()
    games: list[Game] = [
        Game(
            match=match,
            number=number,
            score_a=game.score.get("A", 0),
            score_b=game.score.get("B", 0),
            winner_id=team_of[game.winner],
        )
        for number, game in enumerate(result.games, start=1)
    ]
    if result.hands and result.hands[-1].status != HandStatus.GAME_OVER:
        last = result.hands[-1].score
        games.append(
            Game(
                match=match,
                number=len(games) + 1,
                score_a=last.get("A", 0),
                score_b=last.get("B", 0),
            )
        )
    games = Game.objects.bulk_create(games)

    for hand, scored in zip(hands, result.hands, strict=True):
        hand.game = games[scored.game - 1] if games else None
        hand.order = list(scored.order)
        hand.score_before_a = scored.score_before.get("A", 0)
        hand.score_before_b = scored.score_before.get("B", 0)
        hand.points_a = scored.points.get("A", 0)
        hand.points_b = scored.points.get("B", 0)
        hand.score_a = scored.score.get("A", 0)
        hand.score_b = scored.score.get("B", 0)
        hand.status = str(scored.status)
    Hand.objects.bulk_update(
        hands,
        [
            "game",
            "order",
            "score_before_a",
            "score_before_b",
            "points_a",
            "points_b",
            "score_a",
            "score_b",
            "status",
        ],
    )

    was_decided = match.status in _DECIDED
    old_winner = match.winner_id
    match.chicos_a = sum(1 for g in result.games if g.winner == "A")
    match.chicos_b = sum(1 for g in result.games if g.winner == "B")
    match.tantos_a = sum(g.score_a for g in games)
    match.tantos_b = sum(g.score_b for g in games)
    winner = result.winner
    match.winner_id = team_of[winner] if winner else None
    if winner:
        match.status = Match.Status.FINISHED
        match.outcome = Match.Outcome.PLAYED
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.status = Match.Status.IN_PROGRESS if hands else Match.Status.SCHEDULED
        match.outcome = ""
        match.finished_at = None
    match.save(
        update_fields=[
            "chicos_a",
            "chicos_b",
            "tantos_a",
            "tantos_b",
            "winner",
            "status",
            "outcome",
            "finished_at",
        ]
    )
    if was_decided or winner:
        _result_changed(
            match, advanced=was_decided != bool(winner) or old_winner != match.winner_id
        )


def _result_changed(match: Match, *, advanced: bool = True) -> None:
    """A decided result appeared, changed or vanished: brackets and standings follow."""
    if match.bracket_id and advanced:
        bracket_sync(stage=match.stage)
    standings_invalidate(stage=match.stage)


@transaction.atomic
def match_walkover(
    *,
    match: Match,
    winner: Team,
    reason: str,
    forfeit: bool = False,
    recorded_by: AbstractBaseUser | None = None,
) -> Match:
    """Decide a match without play: ``winner`` takes it, the other team did not turn up.

    With ``forfeit`` the other team gave up (or was disqualified) during the match: the
    hands already recorded stay. The winner is credited the chicos still needed to win the
    match, each at the rule set's target; the loser keeps what it had won.
    """
    match = _locked_match(match)
    _check_may_write(match, recorded_by)
    _check_playable(match)
    if match.status == Match.Status.FINISHED:
        raise TournamentError(_("This match is already decided."), code="match_over")
    if winner.pk not in (match.team_a_id, match.team_b_id):
        raise TournamentError(
            _("%(team)s does not play this match."), code="not_in_match", params={"team": winner}
        )
    if not reason.strip():
        raise TournamentError(_("Give the reason for the walkover."), code="reason_missing")
    if not forfeit and match.hands.exists():
        raise TournamentError(
            _("Hands have been recorded in this match: record a forfeit instead."),
            code="walkover_after_play",
        )
    rules = RuleSet.from_spec(rules_spec(match.stage.championship, best_of=match.best_of))
    need = match.best_of // 2 + 1
    finished_games = list(match.games.filter(winner__isnull=False))
    # An unfinished chico of a forfeit goes to the winner: drop its partial score.
    match.games.filter(winner__isnull=True).delete()
    won = sum(1 for g in finished_games if g.winner_id == winner.pk)
    is_a = winner.pk == match.team_a_id
    for number in range(len(finished_games) + 1, len(finished_games) + need - won + 1):
        Game.objects.create(
            match=match,
            number=number,
            score_a=rules.target if is_a else 0,
            score_b=0 if is_a else rules.target,
            winner=winner,
        )
    games = list(match.games.all())
    match.chicos_a = sum(1 for g in games if g.winner_id == match.team_a_id)
    match.chicos_b = sum(1 for g in games if g.winner_id == match.team_b_id)
    match.tantos_a = sum(g.score_a for g in games)
    match.tantos_b = sum(g.score_b for g in games)
    match.winner = winner
    match.status = Match.Status.WALKOVER
    match.outcome = Match.Outcome.FORFEIT if forfeit else Match.Outcome.WALKOVER
    match.reason = reason.strip()
    match.finished_at = timezone.now()
    match.save()
    _result_changed(match)
    return match


def standings_invalidate(*, stage: Stage) -> None:
    """Mark the stage's snapshots stale now; queue their refresh once the result commits.

    The old snapshot is kept until the refresh replaces it, but is no longer served. A
    broker that is down never fails the result: the periodic repair refreshes it later.
    """
    standing_services.standings_outdate(stage=stage)
    tasks.refresh_standings_on_commit(stage_id=stage.pk)
