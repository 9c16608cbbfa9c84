"""Reads of matches and their hands, and who may write hands there and then."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, QuerySet, prefetch_related_objects
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.championships.selectors import MEMBERS_IN_ORDER, can_manage, is_referee
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    Hand,
    HandDraft,
    HandRevision,
    Match,
    MatchConfirmation,
    Round,
    Scorekeeping,
    Team,
    TeamAct,
)
from tournaments.stages.selectors import table_key


def match_detail(*, pk: int) -> Match:
    """A match with its teams and players, games, and hands (with who recorded them).

    In a few small queries rather than one join of nine tables: PostgreSQL spent some
    8 ms planning that join against 0.17 ms running it, on every view (bench/README.md,
    "Public pages"). The winners (of the match, of each game) are one of its two teams,
    taken from those already read, and each hand's game from the match's games.
    """
    # Its group and referee joined too (two queries less, some 0.3 ms more planning).
    match = Match.objects.select_related("stage__championship", "round", "group", "referee").get(
        pk=pk
    )
    # Both teams and their players in two queries (one prefetch per team would be four).
    by_id = Team.objects.prefetch_related(
        Prefetch("memberships", queryset=MEMBERS_IN_ORDER)
    ).in_bulk([t for t in (match.team_a_id, match.team_b_id, match.team_c_id) if t is not None])
    match.team_a = by_id[match.team_a_id]
    if match.team_b_id is not None:
        match.team_b = by_id[match.team_b_id]
    if match.team_c_id is not None:  # a table of three
        match.team_c = by_id[match.team_c_id]
    prefetch_related_objects(
        [match],
        "games",
        Prefetch("hands", queryset=Hand.objects.select_related("recorded_by")),
    )
    if match.winner_id is not None:
        match.winner = by_id.get(match.winner_id) or match.winner
    games = {}
    for game in match.games.all():
        games[game.pk] = game
        if game.winner_id is not None:
            game.winner = by_id.get(game.winner_id) or game.winner
    for hand in match.hands.all():
        if hand.game_id is not None:
            hand.game = games.get(hand.game_id) or hand.game
    return match


def match_of(*, championship: Championship, match_id: int) -> Match:
    """A match of ``championship`` with its teams and stage, else ``Http404``."""
    match = (
        Match.objects.select_related("stage", "round", "team_a", "team_b", "winner")
        .filter(stage__championship=championship, pk=match_id)
        .first()
    )
    if match is None:
        raise Http404("No such match.")
    match.stage.championship = championship
    return match


def hand_write_problem(*, match: Match, user: Any | None) -> TournamentError | None:
    """Why hands of ``match`` may not be recorded, corrected or deleted by ``user`` now, or
    ``None`` when they may. The results services raise it; the tablet shows it beforehand.

    - Only while the championship is **running**: not in draft, nor while entries are open
      (registration: no match is played yet), nor once finished (the results are final;
      the organiser moves it back to running to fix one).
    - Only by a referee of the championship (:func:`is_referee`: active and on its list of
      referees; no site-wide group or flag makes one) or who manages it (:func:`can_manage`:
      its organisers, staff with the permission). Which match a referee reaches is the
      pages' business (``referees.selectors.match_for_referee``: the ones assigned to him);
      this is the rule no page or API gets around: a referee assigned to a match but not
      (or no longer) on its championship's list is refused here, on the tablet and through
      the API alike (which answers it ``403``).
    - ``user`` ``None`` is the system itself (demo data, commands): only the status applies.
    """
    championship = match.stage.championship
    if championship.status != Championship.Status.RUNNING:
        return TournamentError(
            _(
                "Hands can be recorded, corrected or deleted only while the championship is "
                "in play, and %(championship)s is “%(status)s”: nothing was saved."
            ),
            code="championship_not_running",
            params={
                "championship": championship.name,
                "status": Championship.Status(championship.status).label,
            },
        )
    if user is None or is_referee(user, championship) or can_manage(user, championship):
        return None
    return TournamentError(
        _(
            "Your account may not referee (it is not among the referees, or it is disabled): "
            "nothing was saved. Ask the organiser of the championship."
        ),
        code="not_referee",
    )


def by_hands_problem(*, match: Match) -> TournamentError | None:
    """Why no hand of ``match`` may be recorded or drafted: its result was reported (by a
    team, or typed at the desk). A match has one way of being recorded and the first
    stored wins; ``None`` when hands may be. ``match`` must have been read under the
    match's lock (``results.locking.lock_match``, the services' ``_locked_match``)."""
    if match.recorded != Match.Recorded.RESULT:
        return None
    return TournamentError(
        _(
            "The result of this match has been reported, so its hands are not recorded: "
            "nothing was saved. The organiser may change how it is recorded."
        ),
        code="result_reported",
    )


def team_scorer_problem(*, match: Match, team: Team) -> TournamentError | None:
    """Why ``team`` may not keep the score of ``match`` hand by hand from a player's phone
    now (through its personal link), or ``None`` when it may: the championship must be in
    play (:func:`hand_write_problem`), the team one of the match's (a table of three's
    third too), and the match's stage one where a player of the table keeps the score
    (``Stage.scorekeeping_in_force``). The referee's rule is :func:`hand_write_problem`'s;
    both sheets share everything else (``referees.scorers``)."""
    problem = hand_write_problem(match=match, user=None)
    if problem is not None:
        return problem
    if match.side_of(team.pk) is None:
        return TournamentError(
            _("This match is not one of %(team)s's."),
            code="not_team_match",
            params={"team": team.name},
        )
    in_force = match.stage.scorekeeping_in_force
    if in_force == Scorekeeping.REFEREES:
        return TournamentError(
            _(
                "In this championship the referees keep the score: the result comes from "
                "the referee's tablet. Nothing was saved."
            ),
            code="referees_keep_score",
        )
    if in_force == Scorekeeping.RESULTS:
        return TournamentError(
            _(
                "In this championship only the result is reported, not each hand: report "
                "it from your team's page. Nothing was saved."
            ),
            code="results_only",
        )
    return None


def championship_matches(*, championship: Championship) -> QuerySet[Match]:
    """Every match of a championship, in stage and round order, with teams and referee."""
    return (
        Match.objects.filter(stage__championship=championship)
        .select_related("stage", "round", "group", "team_a", "team_b", "team_c", "referee")
        .order_by("stage__order", "round__number", "pk")
    )


def match_hands(*, match: Match) -> QuerySet[Hand]:
    """The hands of a match in order, with who recorded them and their game."""
    return match.hands.select_related("recorded_by", "game").order_by("number")


@dataclass(frozen=True)
class DraftView:
    """The hand in progress of a match as clients read it (``GET .../draft/``)."""

    number: int
    record: dict[str, Any]
    device: str
    revision: int
    updated_at: datetime.datetime | None
    held_since: datetime.datetime | None
    entry: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "record": self.record,
            "device": self.device,
            "revision": self.revision,
            "updated_at": self.updated_at.isoformat() if self.updated_at else None,
            "entry": self.entry,
        }


def draft_record(*, match_id: int, number: int) -> dict[str, Any] | None:
    """The record of the hand in progress of a match if it is hand ``number``'s (the
    next one), else None: what the public match page tells, one query."""
    found = (
        HandDraft.objects.filter(match_id=match_id, number=number)
        .values_list("record", flat=True)
        .first()
    )
    return found if isinstance(found, dict) else None


def match_draft(*, match: Match, hands: int | None = None) -> DraftView:
    """The hand in progress of ``match`` (``hands``: its number of stored hands, counted
    when not given). Without a draft, or with one for another hand number than the next
    (a hand deleted since), the record is empty and the number is the next hand's."""
    if hands is None:
        hands = Hand.objects.filter(match=match).count()
    return draft_view(match=match, draft=HandDraft.objects.filter(match=match).first(), hands=hands)


def draft_view(*, match: Match, draft: HandDraft | None, hands: int) -> DraftView:
    """:func:`match_draft` of a draft already read (or just written: the tablet's sync
    answers it without reading it again)."""
    number = hands + 1
    if draft is None:
        return DraftView(number, {}, "", 0, None, None, match.entry)
    record = draft.record if draft.number == number and isinstance(draft.record, dict) else {}
    return DraftView(
        number,
        record,
        draft.device,
        draft.revision,
        draft.updated_at,
        draft.held_since,
        match.entry,
    )


def result_change_problem(*, match: Match, user: Any | None) -> TournamentError | None:
    """Why ``user`` may not correct or remove a hand of ``match`` now, or ``None``.

    On top of :func:`hand_write_problem`: the organiser (whoever manages the championship)
    always may; the match's own referee only until a side has confirmed the result; any
    other referee never. ``None`` is the system.
    """
    problem = hand_write_problem(match=match, user=user)
    if problem is not None or user is None:
        return problem
    if can_manage(user, match.stage.championship):
        return None
    if match.referee_id is None or match.referee_id != user.pk:
        return TournamentError(
            _(
                "Only the organiser or the match's referee may correct its hands: "
                "nothing was saved."
            ),
            code="not_match_referee",
        )
    if match.confirmations.filter(status=MatchConfirmation.Status.CONFIRMED).exists():
        return TournamentError(
            _(
                "The result has been confirmed at the table: only the organiser may correct "
                "it now. Nothing was saved."
            ),
            code="result_confirmed",
        )
    return None


def last_revision(*, match: Match) -> int:
    """The id of the match's latest result change (0 before any): a correction form carries
    it, so a correction made on a page older than another change is refused."""
    latest = HandRevision.objects.filter(match=match).order_by("-pk").values_list("pk", flat=True)
    return latest.first() or 0


def match_revisions(*, match: Match) -> QuerySet[HandRevision]:
    """The result changes of a match, oldest first, with who made them."""
    return HandRevision.objects.filter(match=match).select_related("by").order_by("pk")


def championship_revisions(
    *,
    championship: Championship,
    stage_id: int | None = None,
    round_number: int | None = None,
    match_id: int | None = None,
    action: str | None = None,
) -> QuerySet[HandRevision]:
    """Every result change of a championship (its audit log), newest first, optionally of
    one stage, one round (of that stage), one match or one kind of change."""
    changes = HandRevision.objects.filter(match__stage__championship=championship)
    if action is not None:
        changes = changes.filter(action=action)
    if stage_id is not None:
        changes = changes.filter(match__stage_id=stage_id)
    if round_number is not None:
        changes = changes.filter(match__round__number=round_number)
    if match_id is not None:
        changes = changes.filter(match_id=match_id)
    return changes.select_related(
        "by", "match__stage", "match__round", "match__team_a", "match__team_b", "match__team_c"
    ).order_by("-pk")


def championship_team_acts(
    *, championship: Championship, action: str | None = None, via: str | None = None
) -> QuerySet[TeamAct]:
    """The audit log of the championship's teams (entries, personal links, check-in and
    what a team did through its link), newest first, optionally of one kind of act or
    one way in (form, link, organiser, API)."""
    acts = TeamAct.objects.filter(championship=championship)
    if action is not None:
        acts = acts.filter(action=action)
    if via is not None:
        acts = acts.filter(via=via)
    return acts.select_related(
        "by", "match__stage", "match__round", "match__team_a", "match__team_b", "match__team_c"
    ).order_by("-pk")


def match_confirmations(*, match: Match) -> dict[str, MatchConfirmation]:
    """Each side's answer to the result (``{"A": ..., "B": ...}``; a side without one is
    missing)."""
    return {
        c.side: c for c in MatchConfirmation.objects.filter(match=match).select_related("player")
    }


def disputed_matches(*, championship: Championship) -> QuerySet[MatchConfirmation]:
    """The organiser's queue: the disputes of a championship's results, oldest first."""
    return (
        MatchConfirmation.objects.filter(
            match__stage__championship=championship,
            status=MatchConfirmation.Status.DISPUTED,
        )
        .select_related(
            "match__stage", "match__round", "match__team_a", "match__team_b", "match__team_c"
        )
        .select_related("player", "by")
        .order_by("at")
    )


def overdue_reports(*, championship: Championship, now: Any = None) -> QuerySet[Match]:
    """Results a team reported that the other side has not answered within the
    championship's time (``Championship.confirm_within``) and nobody disputed: they wait
    for the organiser, oldest first."""
    now = now or timezone.now()
    deadline = now - datetime.timedelta(minutes=championship.confirm_within)
    disputed = MatchConfirmation.objects.filter(
        match=OuterRef("pk"), status=MatchConfirmation.Status.DISPUTED
    )
    return (
        Match.objects.filter(
            stage__championship=championship,
            recorded=Match.Recorded.RESULT,
            status=Match.Status.FINISHED,
            confirmed_at__isnull=True,
            reported_at__lte=deadline,
        )
        .exclude(reported_side="")
        .exclude(Exists(disputed))
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .order_by("reported_at", "pk")
    )


def match_for_results(*, user: Any, slug: str, match_id: int) -> tuple[Match, bool]:
    """A match of championship ``slug`` whose results ``user`` may see and change, and
    whether he manages the championship: its organisers, and its own referee; ``Http404``
    for anyone else, as if it did not exist."""
    match = (
        Match.objects.select_related(
            "stage__championship", "round", "group", "team_a", "team_b", "winner", "referee"
        )
        .filter(stage__championship__slug=slug, pk=match_id, team_b__isnull=False)
        .first()
    )
    if match is None or not user.is_authenticated:
        raise Http404("No such match.")
    if can_manage(user, match.stage.championship):
        return match, True
    if match.referee_id is not None and match.referee_id == user.pk and user.is_active:
        return match, False
    raise Http404("No such match.")


def provisional_matches(*, championship: Championship, now: Any = None) -> QuerySet[Match]:
    """The championship's played results that are still provisional (not confirmed by both
    sides), oldest first; but not those the organiser's queue lists already, disputed
    (:func:`disputed_matches`) or unanswered in time (:func:`overdue_reports`): listed
    twice, one of them offered "confirm for both sides" beside the dispute it would
    silence."""
    disputed = MatchConfirmation.objects.filter(
        match=OuterRef("pk"), status=MatchConfirmation.Status.DISPUTED
    )
    overdue = overdue_reports(championship=championship, now=now).values("pk")
    return (
        Match.objects.filter(
            stage__championship=championship,
            status=Match.Status.FINISHED,
            confirmed_at__isnull=True,
            team_b__isnull=False,
        )
        .exclude(Exists(disputed))
        .exclude(pk__in=overdue)
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .order_by("finished_at", "pk")
    )


def desk_matches(*, round: Round) -> list[Match]:
    """A round's matches as the desk lists them (``web/organiser/desk.py``), tables in the
    hall's order ("2" before "10"), byes last: their teams and games, and ``has_hands``
    (whether hands were recorded: such a match is kept hand by hand). ``round`` comes with
    its stage and championship attached. Two queries."""
    matches = list(
        Match.objects.filter(round=round)
        .select_related("team_a", "team_b", "team_c", "winner", "group")
        .annotate(has_hands=Exists(Hand.objects.filter(match=OuterRef("pk"))))
        .prefetch_related("games")
        .order_by()
    )
    for match in matches:
        match.round = round
        match.stage = round.stage
    return sorted(matches, key=lambda m: (m.is_bye, table_key(m.table), m.pk))
