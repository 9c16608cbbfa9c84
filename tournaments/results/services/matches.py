"""A match made ready to play: assigned a table, a time and a referee, seated, started.

Also the checks every write of a match shares: the row lock, who may write, whether it
may be played now.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext_lazy as _

from tournaments import tasks
from tournaments.championships.selectors import (
    MEMBERS_IN_ORDER,
    is_referee,
)
from tournaments.championships.services import team_check_ready
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    Match,
    Round,
    Stage,
)
from tournaments.notices.services import notice_table_given
from tournaments.results import records
from tournaments.results.selectors import by_hands_problem, hand_write_problem
from tournaments.signals import announce_match
from tournaments.stages import league
from tournaments.standings import services as standing_services


def _locked_match(match: Match) -> Match:
    """The match, locked against a concurrent writer, with what the records need."""
    # No ordering: the default one joins the round, and FOR UPDATE would lock that row too,
    # making the referees of one round wait for each other.
    Match.objects.select_for_update().filter(pk=match.pk).order_by().only("pk").first()
    return _match_for_records(match)


def _match_for_records(match: Match) -> Match:
    """The match read again with what the records need (its championship, teams and
    players), by a writer that holds its lock."""
    found = Match.objects.select_related("stage__championship", "team_a", "team_b", "team_c").get(
        pk=match.pk
    )
    # Both teams' players in one query (a prefetch per team would be two).
    teams = [team for team in (found.team_a, found.team_b, found.team_c) if team is not None]
    prefetch_related_objects(teams, Prefetch("memberships", queryset=MEMBERS_IN_ORDER))
    return found


@transaction.atomic
def match_assign(
    *,
    match: Match,
    table: str | None = None,
    scheduled_at: datetime.datetime | None = None,
    referee: AbstractBaseUser | None = None,
    entry: str | None = None,
) -> Match:
    """Set a match's table, time, referee (one of its championship's referees:
    :func:`_check_referee`) and how its hands are entered on the tablet (``Match.Entry``).

    Arguments left ``None`` are not changed. A league's match takes a new time from the
    league's own service (``stages.league.match_schedule``: in the season, on a day both
    teams are free, its calendar event moved), under the championship's lock first, as
    every move of a league's match.
    """
    if Stage.objects.filter(matches=match.pk, format=league.KEY).exists():
        stored = league.lock_to_move(match)
        if scheduled_at is not None and scheduled_at != stored.scheduled_at:
            league.match_schedule(match=stored, scheduled_at=scheduled_at)
        scheduled_at = None
    match = Match.objects.select_for_update().get(pk=match.pk)
    if referee is not None:
        _check_referee(referee, match.stage.championship)
        match.referee = referee
    table_given = table is not None and table != match.table
    if table is not None:
        match.table = table
    if scheduled_at is not None:
        match.scheduled_at = scheduled_at
    if entry is not None:
        if entry not in Match.Entry.values:
            raise TournamentError(_("Unknown way of entering hands."), code="bad_entry")
        match.entry = entry
    match.save(update_fields=["referee", "table", "scheduled_at", "entry"])
    announce_match(match, "match")
    if table_given:
        notice_table_given(match=match)
    return match


@transaction.atomic
def round_assign_referee(*, round: Round, referee: AbstractBaseUser) -> int:
    """Give every match of ``round`` still to be decided (byes aside) to ``referee``, who
    must be one of its championship's referees (:func:`_check_referee`); returns how many
    matches."""
    _check_referee(referee, round.stage.championship)
    return (
        Match.objects.filter(round=round, team_b__isnull=False)
        .exclude(status__in=Match.DECIDED)
        .update(referee=referee)
    )


def _check_referee(referee: AbstractBaseUser, championship: Championship) -> None:
    """Refuse to assign anyone but the championship's referees (``is_referee``: on its
    list): a referee of another championship, or of none, is not offered by the pages
    either. The code is not ``not_referee`` (the acting user may not referee): here the
    organiser may act, his choice is wrong."""
    if not is_referee(referee, championship):
        raise TournamentError(
            _("%(user)s is not a referee of %(championship)s: add him to its referees first."),
            code="not_championship_referee",
            params={"user": referee.get_username(), "championship": championship.name},
        )


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


def _check_by_hands(match: Match) -> None:
    """Refuse a hand for a match recorded as its result (``by_hands_problem``)."""
    problem = by_hands_problem(match=match)
    if problem is not None:
        raise problem


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
    _check_by_hands(match)
    if match.hands.exists():
        raise TournamentError(
            _("The seats cannot change once hands have been recorded."), code="seats_locked"
        )
    championship = match.stage.championship
    for team in (match.team_a, match.team_b, match.team_c):
        if team is not None:
            team_check_ready(team, championship)
    # The players who start the match stay its players (a substitution later on changes
    # the team, not this match): a lineup frozen by a substitution is kept.
    lineup = records.lineup(match)
    teams = records.sided(lineup)
    if seats is None:
        chosen = records.default_seats(teams)
    else:
        chosen = [s if isinstance(s, str) else f"p{s}" for s in seats]
        if sorted(chosen) != sorted(key for members in teams.values() for key in members):
            raise TournamentError(
                _("The seats must list every player of both teams exactly once."),
                code="seats_invalid",
            )
    match.seats = chosen
    match.lineup = lineup
    match.status = Match.Status.IN_PROGRESS
    match.save(update_fields=["seats", "lineup", "status"])
    announce_match(match, "match")
    return match


def standings_invalidate(*, stage: Stage) -> None:
    """Mark the stage's snapshots stale now; queue their refresh once the result commits.

    The old snapshot is kept until the refresh replaces it, but is no longer served. A
    broker that is down never fails the result: the periodic repair refreshes it later.
    """
    standing_services.standings_outdate(stage=stage)
    tasks.refresh_standings_on_commit(stage_id=stage.pk)
