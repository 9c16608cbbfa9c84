"""How a match ends besides its hands: a walkover, the sides' confirmations and disputes."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import RuleSet
from tournaments.championships.selectors import (
    can_manage,
    rules_spec,
)
from tournaments.errors import TournamentError
from tournaments.models import (
    Game,
    HandRevision,
    Match,
    MatchConfirmation,
    Player,
    Team,
)
from tournaments.results.selectors import hand_write_problem
from tournaments.results.services.derive import _result_changed
from tournaments.results.services.hands import _revise, _revision
from tournaments.results.services.matches import (
    _check_may_write,
    _check_playable,
    _locked_match,
)
from tournaments.text import paragraph


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
    if match.team_c_id is not None:
        # A table of three has three places, not a winner and a loser (docs/tournaments.md).
        raise TournamentError(
            _("A table of three is decided by its hands: a walkover has no places to give."),
            code="table_walkover",
        )
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
    finished_games = list(match.games.filter(winner__isnull=False))
    # An unfinished chico of a forfeit goes to the winner: drop its partial score.
    match.games.filter(winner__isnull=True).delete()
    Game.objects.bulk_create(
        match.credit_walkover(winner_id=winner.pk, target=rules.target, finished=finished_games)
    )
    match.winner = winner
    match.status = Match.Status.WALKOVER
    match.outcome = Match.Outcome.FORFEIT if forfeit else Match.Outcome.WALKOVER
    match.reason = paragraph(reason).strip()
    match.reason_code = ""
    match.finished_at = timezone.now()
    match.save()
    _result_changed(match)
    decision = {
        "winner": winner.name,
        "outcome": match.outcome,
        "chicos": {"A": match.chicos_a, "B": match.chicos_b},
    }
    walkover = HandRevision.Action.WALKOVER
    _revise(match, [_revision(None, walkover, None, decision, reason=match.reason)], recorded_by)
    return match


def _answer(
    *,
    match: Match,
    side: str,
    status: str,
    by: AbstractBaseUser | None,
    player: Player | None,
    comment: str,
) -> MatchConfirmation:
    """Store one side's answer to the played result (the checks of both services)."""
    match = _locked_match(match)
    problem = hand_write_problem(match=match, user=by)
    if problem is not None:
        raise problem
    organiser = by is None or can_manage(by, match.stage.championship)
    if not organiser and match.referee_id != by.pk:
        raise TournamentError(
            _("Only the organiser or the match's referee may record the sides' answers."),
            code="not_match_referee",
        )
    if match.status != Match.Status.FINISHED or match.is_bye:
        raise TournamentError(
            _("Only a result played to its end is confirmed: this match is not over."),
            code="not_finished",
        )
    teams = match.teams_by_side()  # a table of three: its third player answers too
    if side not in teams:
        raise TournamentError(_("Choose the side that answers."), code="bad_side")
    team = teams[side]
    if player is not None and not team.memberships.filter(player=player).exists():
        raise TournamentError(
            _("%(player)s does not play for %(team)s."),
            code="not_in_team",
            params={"player": player.name, "team": team.name},
        )
    existing = MatchConfirmation.objects.filter(match=match, side=side).first()
    if existing is not None and not organiser:
        raise TournamentError(
            _("%(team)s has already answered: only the organiser may change it."),
            code="already_answered",
            params={"team": team.name},
        )
    answer = existing or MatchConfirmation(match=match, side=side)
    answer.status = status
    answer.player = player
    answer.on_behalf = player is None and organiser
    answer.comment = comment
    answer.by = by
    answer.save()
    statuses = dict(MatchConfirmation.objects.filter(match=match).values_list("side", "status"))
    confirmed = MatchConfirmation.Status.CONFIRMED
    both = all(statuses.get(s) == confirmed for s in teams)
    match.confirmed_at = (match.confirmed_at or timezone.now()) if both else None
    match.save(update_fields=["confirmed_at"])
    action = HandRevision.Action.CONFIRMED if status == confirmed else HandRevision.Action.DISPUTED
    after = {"player": player.name if player else "", "on_behalf": answer.on_behalf}
    _revise(match, [_revision(None, action, None, after, reason=comment, side=side)], by)
    return answer


@transaction.atomic
def match_confirm(
    *,
    match: Match,
    side: str,
    by: AbstractBaseUser | None,
    player: Player | None = None,
) -> MatchConfirmation:
    """Side ``side`` ("A" or "B"; "C" at a table of three) confirms the played result of
    ``match``.

    At the table the referee hands the tablet to the side (its cap de colla, or any of its
    players: ``player``); the organiser may confirm for a side (``player`` None), which also
    settles its dispute. A side answers once at the table; the organiser may change any
    answer. When every side has confirmed, the result is no longer provisional
    (``Match.confirmed_at``).
    """
    return _answer(
        match=match,
        side=side,
        status=MatchConfirmation.Status.CONFIRMED,
        by=by,
        player=player,
        comment="",
    )


@transaction.atomic
def match_dispute(
    *,
    match: Match,
    side: str,
    comment: str,
    by: AbstractBaseUser | None,
    player: Player | None = None,
) -> MatchConfirmation:
    """Side ``side`` disputes the played result, saying why (``comment``): the match goes
    to the organiser's queue (``results.selectors.disputed_matches``) and stays
    provisional until the organiser corrects it or confirms for the side."""
    if not comment.strip():
        raise TournamentError(
            _("Say what is wrong with the result: the organiser reads it."),
            code="comment_missing",
        )
    return _answer(
        match=match,
        side=side,
        status=MatchConfirmation.Status.DISPUTED,
        by=by,
        player=player,
        comment=paragraph(comment).strip(),
    )
