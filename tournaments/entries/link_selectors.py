"""Reads of a team's personal-link page and of the organiser's side of the links.

The team's page shows its players and entry, its matches as fixtures (its side and its
opponents: ``report_selectors.team_matches`` reads them), the results it answered
(``Answered``), and its check-in; the organiser's team page shows whether a live link
exists; a token names its link (:func:`link_by_token`, the page's and the API's one
reading of it). Each read owns its joins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core import signing
from django.db.models import Max, Prefetch, prefetch_related_objects
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
    """``team``, as :func:`link_by_token` read it (with its championship, entry policy and
    entry), with its players in seating order: what the page's head shows. One query."""
    prefetch_related_objects([team], Prefetch("memberships", queryset=MEMBERS_IN_ORDER))
    return team


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


@dataclass(frozen=True)
class Answered:
    """A result the team answered: its answer, and whether every side has confirmed."""

    fixture: Fixture
    status: str  # MatchConfirmation.Status: confirmed or disputed
    settled: bool  # every side confirmed: the result is no longer provisional

    @property
    def disputed(self) -> bool:
        return self.status == MatchConfirmation.Status.DISPUTED


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
    """The live personal link ``token`` names, with its team, the team's entry, its
    championship and the championship's entry policy; a tampered token or a revoked link
    raises ``TournamentError`` (the team's page and the API's ``TeamLink`` credentials
    both read a token here)."""
    try:
        value = signing.loads(token, salt=LINK_SALT)
        link_id = int(value["l"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise TournamentError(
            _("This link is not valid: copy it again from the message you received."),
            code="link_invalid",
        ) from None
    # The team's page shows its entry and the championship's fee: read with the link.
    link = (
        TeamLink.objects.select_related("team__championship__entry_policy", "team__entry")
        .filter(pk=link_id)
        .first()
    )
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
