"""Reads of a team's personal-link page and of the organiser's side of the links.

The team's page shows its players and entry, its next match (stage, round, table, time,
opponent), the results of its own that await its answer and those it answered (confirmed,
or disputed and waiting for the organiser), and its check-in; the organiser's team page
shows whether a live link exists; a token names its link (:func:`link_by_token`, the
page's and the API's one reading of it). Each read owns its joins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core import signing
from django.db.models import Exists, Max, OuterRef, Prefetch, Q
from django.utils.translation import gettext_lazy as _

from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    CheckIn,
    Match,
    MatchConfirmation,
    Round,
    Stage,
    Team,
    TeamLink,
)

# The personal link's token: a signed TeamLink id (``TeamLink.token``); the salt keeps it
# from being any other of the site's signed values (a check-in QR code, an invitation).
from tournaments.models.entries import LINK_SALT


def link_page_team(*, team: Team) -> Team:
    """``team`` with its championship and its entry policy (the fee), its players in
    seating order and its entry (if it entered through the form): what the page's head
    shows."""
    return (
        Team.objects.select_related("championship__entry_policy", "entry")
        .prefetch_related(Prefetch("memberships", queryset=MEMBERS_IN_ORDER))
        .get(pk=team.pk)
    )


@dataclass(frozen=True)
class Fixture:
    """A match seen from one of its teams: its side and its opponent (``None``: a bye)."""

    match: Match
    side: str
    opponent: Team | None
    # Everyone the team faces: the opponent, or a table of three's other two players.
    others: tuple[Team, ...] = ()


def _fixture(match: Match, team: Team) -> Fixture:
    side = match.side_of(team.pk) or "A"
    others = tuple(t for s, t in match.teams_by_side().items() if s != side and t is not None)
    return Fixture(match=match, side=side, opponent=others[0] if others else None, others=others)


def next_match(*, team: Team) -> Fixture | None:
    """The team's next match to play (the first one not decided, in stage and round order),
    with its opponent's players; ``None`` when no match is scheduled yet. Two queries."""
    match = (
        Match.objects.of_team(team)
        .exclude(status__in=Match.DECIDED)
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_c__memberships", queryset=MEMBERS_IN_ORDER),
        )
        .order_by("stage__order", "round__number", "pk")
        .first()
    )
    return _fixture(match, team) if match is not None else None


def awaiting_answer(*, team: Team) -> list[Fixture]:
    """The team's results played to their end whose side has not answered yet (confirm or
    dispute), oldest first. One query."""
    answered = MatchConfirmation.objects.filter(match=OuterRef("pk"))
    matches = (
        Match.objects.filter(status=Match.Status.FINISHED, team_b__isnull=False)
        .filter(
            Q(team_a=team) & ~Exists(answered.filter(side="A"))
            | Q(team_b=team) & ~Exists(answered.filter(side="B"))
            | Q(team_c=team) & ~Exists(answered.filter(side="C"))
        )
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .order_by("finished_at", "pk")
    )
    return [_fixture(match, team) for match in matches]


@dataclass(frozen=True)
class Answered:
    """A result the team answered: its answer, and whether every side has confirmed."""

    fixture: Fixture
    status: str  # MatchConfirmation.Status: confirmed or disputed
    settled: bool  # every side confirmed: the result is no longer provisional

    @property
    def disputed(self) -> bool:
        return self.status == MatchConfirmation.Status.DISPUTED


def answered_results(*, team: Team) -> list[Answered]:
    """The team's results it has answered, most recent first, each with its side's answer
    (an answer the organiser gave for it counts: it settles a dispute). One query."""
    answers = (
        MatchConfirmation.objects.filter(
            Q(match__team_a=team, side="A")
            | Q(match__team_b=team, side="B")
            | Q(match__team_c=team, side="C")
        )
        .select_related(
            "match__stage", "match__round", "match__team_a", "match__team_b", "match__team_c"
        )
        .order_by("-match__finished_at", "-match__pk")
    )
    return [
        Answered(
            fixture=_fixture(answer.match, team),
            status=answer.status,
            settled=answer.match.confirmed_at is not None,
        )
        for answer in answers
    ]


@dataclass(frozen=True)
class CheckInMark:
    """The team's check-in for the next round (``number``) of one stage."""

    stage: Stage
    number: int
    present: bool


def check_in_marks(*, team: Team, stages: Sequence[Stage]) -> list[CheckInMark]:
    """The team's mark for the next round of each of ``stages`` (those that take check-in:
    ``stages.services.team_check_in_stages``). Two queries."""
    if not stages:
        return []
    last = dict(
        Round.objects.filter(stage__in=stages)
        .values("stage_id")
        .annotate(top=Max("number"))
        .values_list("stage_id", "top")
    )
    numbers = {stage.pk: (last.get(stage.pk) or 0) + 1 for stage in stages}
    present = {
        (stage_id, number)
        for stage_id, number in CheckIn.objects.filter(
            team=team, stage__in=stages, present=True
        ).values_list("stage_id", "round_number")
    }
    return [
        CheckInMark(
            stage=stage,
            number=numbers[stage.pk],
            present=(stage.pk, numbers[stage.pk]) in present,
        )
        for stage in stages
    ]


def championship_started(championship: Championship) -> bool:
    """Whether play has begun (running or finished, or a match made): a team may no longer
    withdraw itself (``entries.services.entry_withdraw`` refuses it from then on)."""
    return (
        championship.status
        in (
            Championship.Status.RUNNING,
            Championship.Status.FINISHED,
        )
        or Match.objects.filter(stage__championship=championship).exists()
    )


def link_by_token(*, token: str) -> TeamLink:
    """The live personal link ``token`` names, with its team and championship; a tampered
    token or a revoked link raises ``TournamentError`` (the team's page and the API's
    ``TeamLink`` credentials both read a token here)."""
    try:
        value = signing.loads(token, salt=LINK_SALT)
        link_id = int(value["l"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise TournamentError(
            _("This link is not valid: copy it again from the message you received."),
            code="link_invalid",
        ) from None
    link = TeamLink.objects.select_related("team__championship").filter(pk=link_id).first()
    if link is None or link.revoked_at is not None:
        raise TournamentError(
            _("This link was revoked by the organiser: ask him for the new one."),
            code="link_revoked",
        )
    return link


def live_link(*, team: Team) -> TeamLink | None:
    """The team's personal link that still works (at most one), or ``None``."""
    return team.links.filter(revoked_at__isnull=True).order_by("-created_at").first()


def team_match(*, team: Team, match_id: object) -> Match | None:
    """The match ``match_id`` (as posted) if ``team`` holds one of its sides (a table of
    three's third too), else ``None``."""
    try:
        pk = int(str(match_id))
    except ValueError:
        return None
    if not 0 < pk < 2**31:  # not an id any database holds
        return None
    return Match.objects.of_team(team).filter(pk=pk).first()
