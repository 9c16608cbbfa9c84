"""A match recorded as its result: no referee at the table (docs/tournaments.md, "No referee
at the table").

The final score of each chico (catalan: joc; a table of three: the three scores) is
checked by the engine against the rules in force (``scoring.score_reported_result``) and
stored exactly as a match entered hand by hand stands once decided: its games, chicos,
tantos, winner, places and state, so the standings, brackets, placements, circuits and
ratings follow it like any result. It has no hands, so the hand statistics leave it out.

- A team reports it through its personal link (:func:`match_result_report`): the result
  counts at once, provisional, the reporting side's answer is its confirmation and the
  other side (each other player at a table of three) confirms or disputes it. A second
  report of the same result is that side's confirmation; of another result, its dispute:
  never two results.
- The organiser types it at the desk (:func:`match_result_record`): the paper sheet the
  teams signed, so it is confirmed for every side at once; a result already reported
  differently is not overwritten there (he corrects it, :func:`match_result_correct`,
  with a reason).
- A match has one way of being recorded (``Match.recorded``): one kept hand by hand gets
  no result and a result gets no hands, unless the organiser changes the way, with a
  reason (:func:`match_recording_change`). The first stored wins; the other is told why.

Every write locks the match first and is kept in its history (``HandRevision``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import EngineError, ReportedResult, score_reported_result
from tournaments.championships.selectors import can_manage, rules_spec
from tournaments.errors import TournamentError, from_engine
from tournaments.models import (
    Game,
    Hand,
    HandDraft,
    HandRevision,
    Match,
    MatchConfirmation,
    Player,
    Scorekeeping,
)
from tournaments.notices.services import notice_result_reported, notice_result_settled
from tournaments.results import records
from tournaments.results.selectors import hand_write_problem
from tournaments.results.services.derive import _result_changed
from tournaments.results.services.hands import _revise, _revision
from tournaments.results.services.matches import _check_playable, _locked_match
from tournaments.results.services.outcomes import _answer, match_confirm

Games = Sequence[Mapping[str, Any]]


def result_sides(match: Match) -> list[str]:
    """The sides a result of ``match`` gives a score to: ``A`` and ``B``, and ``C`` at a
    table of three with ``gallo: por_turno`` (with ``gallo: fijo`` the pair is side B)."""
    return ["A", "B", "C"] if match.team_c_id and not records.is_fijo(match) else ["A", "B"]


def result_check(*, match: Match, games: Games, winner: str | None = None) -> ReportedResult:
    """The engine's verdict on ``games`` as the result of ``match``, under its rules and
    best of: the scored result, or a translated ``TournamentError`` naming what is wrong
    (the desk checks a row with it as it is typed; nothing is stored)."""
    championship = match.stage.championship
    report: dict[str, Any] = {
        "rules": rules_spec(championship, best_of=match.best_of),
        "sides": len(result_sides(match)),
        "games": [dict(game) for game in games],
    }
    if winner:
        report["winner"] = winner
    chain = match.stage.settings.get("placement")
    if chain is not None:
        report["tiebreaks"] = chain
    try:
        return score_reported_result(report)
    except EngineError as error:
        raise from_engine(error, names=records.names(match)) from None


def _summary(match: Match) -> dict[str, Any]:
    """A stored result as the history keeps it: each chico's score by side, the winner."""
    columns = records.column_sides(match)
    games = [
        {side: getattr(game, f"score_{column}") for column, side in columns.items()}
        # Sorted here rather than by the query: a list of results prefetches their games.
        for game in sorted(match.games.all(), key=lambda game: game.number)
    ]
    winner = match.side_of(match.winner_id) if match.winner_id else None
    return {"games": games, "winner": winner}


def _same(match: Match, result: ReportedResult) -> bool:
    """Whether ``result`` is the result ``match`` already holds."""
    return match.state == result.state.to_dict()


def _reports_same(match: Match, games: Games, winner: str | None) -> bool:
    """Whether ``games`` is a possible result and the one ``match`` holds."""
    try:
        return _same(match, result_check(match=match, games=games, winner=winner))
    except TournamentError:
        return False


def _store(match: Match, result: ReportedResult) -> None:
    """Store ``result`` as ``match``'s (locked by the caller): what a match entered hand
    by hand stores once decided, from the engine's answer."""
    was_decided = match.status in Match.DECIDED
    old_winner = match.winner_id
    columns = records.column_sides(match)
    team_of = records.side_team_ids(match)
    match.games.all().delete()
    games = [
        Game(
            match=match,
            number=number,
            **{f"score_{column}": scores.get(column, 0) for column in "abc"},
            winner_id=team_of[winner] if winner else None,
        )
        for number, (scores, winner) in enumerate(
            records.games_of(result.state, None, columns), start=1
        )
    ]
    Game.objects.bulk_create(games)
    for column, side in columns.items():
        setattr(match, f"chicos_{column}", result.chicos.get(side, 0))
        setattr(match, f"tantos_{column}", result.tantos.get(side, 0))
    match.places = records.table_places(match, result.state) if match.team_c_id else {}
    match.winner_id = team_of[result.winner]
    match.status = Match.Status.FINISHED
    match.outcome = Match.Outcome.PLAYED
    match.finished_at = timezone.now()
    match.state = result.state.to_dict()
    match.recorded = Match.Recorded.RESULT
    # Who played: the teams as they are now, kept with the match as play does.
    match.lineup = match.lineup or records.lineup(match)
    match.save()
    _result_changed(match, advanced=not was_decided or old_winner != match.winner_id)


def _check_open_for_result(match: Match) -> None:
    """Refuse a result for a match that is not to be recorded so: a bye, a walkover, or
    one kept hand by hand (the first stored wins)."""
    _check_playable(match)
    if match.recorded == Match.Recorded.HANDS and match.hands.exists():
        raise TournamentError(
            _(
                "This match is being kept hand by hand: its result comes from its hands. "
                "Nothing was saved; the organiser may change how it is recorded."
            ),
            code="kept_hand_by_hand",
        )


def _side_team_name(match: Match, side: str) -> str:
    return records.side_names(match).get(side, side)


def result_text(match: Match, result: ReportedResult | None = None) -> str:
    """A result in words, as the teams say it: "2–1 (30–25, 18–30, 30–12)", by side in
    order (``result``: one just scored, else the stored one)."""
    sides = result_sides(match)
    if result is None:
        stored = _summary(match)
        games = [[game[side] for side in sides] for game in stored["games"]]
        chicos = [getattr(match, f"chicos_{side.lower()}") for side in sides]
    else:
        games = [[game.score[side] for side in sides] for game in result.games]
        chicos = [result.chicos[side] for side in sides]
    scores = ", ".join("–".join(str(n) for n in game) for game in games)
    return f"{'–'.join(str(n) for n in chicos)} ({scores})"


def _check_team_may_report(match: Match) -> None:
    """A team reports only where the stage lets the players keep the score or report it,
    while the championship is running."""
    problem = hand_write_problem(match=match, user=None)
    if problem is not None:
        raise problem
    if match.stage.scorekeeping_in_force == Scorekeeping.REFEREES:
        raise TournamentError(
            _(
                "In this championship the referees keep the score: the result comes from "
                "the referee's tablet. Nothing was saved."
            ),
            code="referees_keep_score",
        )


@transaction.atomic
def match_result_report(
    *,
    match: Match,
    side: str,
    games: Games,
    winner: str | None = None,
    player: Player | None = None,
) -> MatchConfirmation:
    """Side ``side`` reports the result of ``match`` (through its personal link: the
    entries' ``link_report`` checks the team first). Returns the side's answer: its
    confirmation of the result it reported, or of the same result reported before; a
    dispute when another result was reported first (saying which it reported)."""
    match = _locked_match(match)
    _check_team_may_report(match)
    if side not in match.teams_by_side():
        raise TournamentError(_("Choose the side that answers."), code="bad_side")
    _check_open_for_result(match)
    decided = match.status == Match.Status.FINISHED
    answered = MatchConfirmation.objects.filter(match=match, side=side).first() if decided else None
    if answered is not None:
        # The same result again (a second tap, the desk having typed it first) changes
        # nothing; anything else is for the organiser.
        if answered.status == MatchConfirmation.Status.CONFIRMED and _reports_same(
            match, games, winner
        ):
            return answered
        raise TournamentError(
            _(
                "%(team)s has already answered this result (%(result)s): only the "
                "organiser may change it now."
            ),
            code="already_answered",
            params={"team": _side_team_name(match, side), "result": result_text(match)},
        )
    result = result_check(match=match, games=games, winner=winner)
    if decided:
        # Reported already (by the other side, or at the desk): one result, and this side's
        # report is its answer to it.
        if _same(match, result):
            return match_confirm(match=match, side=side, by=None, player=player)
        comment = _("%(team)s reported another result: %(result)s.") % {
            "team": _side_team_name(match, side),
            "result": result_text(match, result),
        }
        return _answer(
            match=match,
            side=side,
            status=MatchConfirmation.Status.DISPUTED,
            by=None,
            player=player,
            comment=str(comment),
        )
    _store(match, result)
    match.reported_at = timezone.now()
    match.reported_side = side
    match.save(update_fields=["reported_at", "reported_side"])
    _revise(
        match, [_revision(None, HandRevision.Action.RESULT, None, _summary(match), side=side)], None
    )
    answer = match_confirm(match=match, side=side, by=None, player=player)
    # The other side is told it has a result to answer (sent once this commits).
    notice_result_reported(match=match, side=side, result=result_text(match, result))
    return answer


def _check_organiser(match: Match, by: AbstractBaseUser | None) -> None:
    problem = hand_write_problem(match=match, user=by)
    if problem is not None:
        raise problem
    if by is not None and not can_manage(by, match.stage.championship):
        raise TournamentError(
            _("Only the organiser types results at the desk: nothing was saved."),
            code="not_organiser",
        )


def _confirm_for_every_side(match: Match, by: AbstractBaseUser | None) -> None:
    """The organiser confirms for each side that has not confirmed (a paper sheet signed
    by the teams, or his settlement): the result is final."""
    answered = dict(MatchConfirmation.objects.filter(match=match).values_list("side", "status"))
    for side in match.teams_by_side():
        if answered.get(side) != MatchConfirmation.Status.CONFIRMED:
            match_confirm(match=match, side=side, by=by, player=None)


@transaction.atomic
def match_result_record(
    *,
    match: Match,
    games: Games,
    by: AbstractBaseUser | None,
    winner: str | None = None,
) -> Match:
    """The organiser types the result of ``match`` at the desk, from the paper sheet the
    teams signed: stored and confirmed for every side. The same result reported already
    by a team is confirmed; another one is refused (the organiser corrects it from the
    match's page, with a reason: :func:`match_result_correct`)."""
    match = _locked_match(match)
    _check_organiser(match, by)
    _check_open_for_result(match)
    result = result_check(match=match, games=games, winner=winner)
    if match.status == Match.Status.FINISHED:
        if not _same(match, result):
            raise TournamentError(
                _(
                    "This match already has a result, %(result)s, not %(typed)s: correct it "
                    "from the match's page, with the reason. Nothing was saved."
                ),
                code="result_differs",
                params={"result": result_text(match), "typed": result_text(match, result)},
            )
    else:
        _store(match, result)
        match.reported_at = timezone.now()
        match.reported_side = ""
        match.save(update_fields=["reported_at", "reported_side"])
        _revise(match, [_revision(None, HandRevision.Action.RESULT, None, _summary(match))], by)
    _confirm_for_every_side(match, by)
    match.refresh_from_db()
    return match


@transaction.atomic
def match_result_correct(
    *,
    match: Match,
    games: Games,
    reason: str,
    by: AbstractBaseUser | None,
    winner: str | None = None,
) -> Match:
    """The organiser corrects the result of a match recorded as its result (a dispute
    settled, a mistake at the desk), saying why: kept in its history; the sides' answers
    give way to his, for every side (his word settles it)."""
    match = _locked_match(match)
    _check_organiser(match, by)
    if match.recorded != Match.Recorded.RESULT or match.status != Match.Status.FINISHED:
        raise TournamentError(
            _("Only a result reported or typed at the desk is corrected here."),
            code="not_a_result",
        )
    if not reason.strip():
        raise TournamentError(_("Give the reason for the correction."), code="reason_missing")
    result = result_check(match=match, games=games, winner=winner)
    before = _summary(match)
    if not _same(match, result):
        _store(match, result)
    MatchConfirmation.objects.filter(match=match).delete()
    match.confirmed_at = None
    match.save(update_fields=["confirmed_at"])
    revision = _revision(
        None, HandRevision.Action.RESULT_CORRECTED, before, _summary(match), reason=reason.strip()
    )
    _revise(match, [revision], by)
    _confirm_for_every_side(match, by)
    match.refresh_from_db()
    notice_result_settled(match=match, result=result_text(match), by=by)
    return match


@transaction.atomic
def match_recording_change(
    *, match: Match, to: str, reason: str, by: AbstractBaseUser | None
) -> Match:
    """The organiser changes how ``match`` is recorded (``Match.Recorded``), saying why:
    from its hands to its result (a phone that died: the hands recorded so far are
    removed, kept in the history, and the result is reported or typed), or from its result
    to hands (a player keeps the score after all: the result goes). The match is to be
    played again as far as Tanteo knows."""
    match = _locked_match(match)
    _check_organiser(match, by)
    if to not in Match.Recorded.values:
        raise TournamentError(_("Unknown way of recording a match."), code="bad_recorded")
    if not reason.strip():
        raise TournamentError(_("Give the reason for the change."), code="reason_missing")
    _check_playable(match)
    hands = match.hands.count()
    if to == match.recorded and not (to == Match.Recorded.RESULT and hands):
        raise TournamentError(
            _("This match is already recorded that way."), code="recorded_already"
        )
    before = {"recorded": match.recorded, "hands": hands, **_summary(match)}
    was_decided = match.status in Match.DECIDED
    Hand.objects.filter(match=match).delete()
    HandDraft.objects.filter(match=match).delete()
    match.games.all().delete()
    MatchConfirmation.objects.filter(match=match).delete()
    for column in "abc":
        setattr(match, f"chicos_{column}", 0)
        setattr(match, f"tantos_{column}", 0)
    match.places = {}
    match.winner = None
    match.status = Match.Status.SCHEDULED
    match.outcome = ""
    match.finished_at = None
    match.confirmed_at = None
    match.state = None
    match.reported_at = None
    match.reported_side = ""
    match.recorded = to
    match.save()
    if was_decided:
        _result_changed(match)
    revision = _revision(
        None, HandRevision.Action.CONVERTED, before, {"recorded": to}, reason=reason.strip()
    )
    _revise(match, [revision], by)
    return match
