"""Fixture lists: the matchdays of a championship and a team's season, read for the public
pages, the printed lists, the calendar feeds and the API.

Times are given in the championship's time zone. A match moved from its matchday
(``Match.postponed``) is marked postponed while it is still to be played.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournaments.models import Championship, Match, Postponement, Round, Stage, Team

_RELATED = ("stage__championship", "round", "team_a", "team_b", "team_c")


@dataclass
class Fixture:
    """One match of a fixture list, as people read it."""

    match: Match
    when: dt.datetime | None  # local to the championship
    title: str  # its matchday's (or round's) name
    history: list[Postponement] = field(default_factory=list)  # see with_history

    @property
    def home(self) -> Team:
        return self.match.team_a

    @property
    def away(self) -> Team | None:
        return self.match.team_b

    @property
    def decided(self) -> bool:
        return self.match.is_decided

    @property
    def postponed(self) -> bool:
        return self.match.postponed and not self.match.is_decided

    @property
    def result(self) -> str:
        """The chicos won, home first ("2–1"; a table of three's three, "0–1–2"), once
        decided; else empty."""
        if not self.decided:
            return ""
        return self.match.chicos_text

    @property
    def venue(self) -> str:
        return self.match.venue_name


@dataclass
class Matchday:
    """A round of a stage with its date and its fixtures (byes aside)."""

    stage: Stage
    round: Round
    title: str
    fixtures: list[Fixture] = field(default_factory=list)
    resting: list[Team] = field(default_factory=list)  # a bye, in an odd league

    @property
    def date(self) -> dt.date | None:
        return self.round.date


@dataclass
class TeamFixture:
    """One match of a team's season, seen from the team."""

    fixture: Fixture
    is_home: bool
    opponent: Team | None
    # Everyone the team faces: the opponent, or a table of three's other two players.
    others: list[Team] = field(default_factory=list)
    team_id: int | None = None

    @property
    def at_table(self) -> bool:
        """A table of three: no home or away, the team's place instead of a win."""
        return self.fixture.match.team_c_id is not None

    @property
    def place(self) -> int | None:
        """The team's place at a table of three (None elsewhere, or before a hand)."""
        return self.fixture.match.place_of(self.team_id)

    @property
    def result(self) -> str:
        """The chicos, the team's first ("1–2"; at a table of three, each side's in the
        table's order, "0–1–2"), once decided."""
        match = self.fixture.match
        if not self.fixture.result:
            return ""
        if self.at_table:
            return match.chicos_text
        ours, theirs = (
            (match.chicos_a, match.chicos_b) if self.is_home else (match.chicos_b, match.chicos_a)
        )
        return f"{ours}–{theirs}"

    @property
    def won(self) -> bool | None:
        """Won (at a table of three: first place), lost, or None while undecided."""
        match = self.fixture.match
        if not match.is_decided:
            return None
        if self.at_table:
            return self.place == 1
        return match.winner_id == (match.team_a_id if self.is_home else match.team_b_id)


def _local(championship: Championship, moment: dt.datetime | None) -> dt.datetime | None:
    if moment is None:
        return None
    return timezone.localtime(moment, zoneinfo.ZoneInfo(championship.time_zone))


def _fixture(match: Match) -> Fixture:
    return Fixture(
        match=match,
        when=_local(match.stage.championship, match.scheduled_at),
        title=match.round.name_in(match.stage),
    )


def scheduled_stages(*, championship: Championship) -> list[Stage]:
    """The stages of ``championship`` with a dated matchday or a match given a time."""
    dated = Round.objects.filter(stage=OuterRef("pk"), date__isnull=False)
    timed = Match.objects.filter(stage=OuterRef("pk"), scheduled_at__isnull=False)
    return list(
        championship.stages.filter(Exists(dated) | Exists(timed))
        .select_related("championship")
        .order_by("order")
    )


def has_fixtures(*, championship: Championship) -> bool:
    return bool(scheduled_stages(championship=championship))


def matchdays(*, stage: Stage, number: int | None = None) -> list[Matchday]:
    """Every round of ``stage`` (or round ``number`` only) with its fixtures in playing
    order: two queries whatever the size of the league."""
    found = list(stage.rounds.order_by("number"))
    if number is not None:
        found = [r for r in found if r.number == number]
    days = {r.pk: Matchday(stage=stage, round=r, title=r.name_in(stage)) for r in found}
    matches = (
        Match.objects.filter(round__in=found)
        .select_related(*_RELATED)
        .order_by("scheduled_at", "pk")
    )
    for match in matches:
        day = days[match.round_id]
        if match.team_b_id is None:
            if not match.is_absence:
                day.resting.append(match.team_a)
            continue
        day.fixtures.append(_fixture(match))
    return list(days.values())


def championship_matchdays(*, championship: Championship) -> list[Matchday]:
    """The matchdays of every scheduled stage of ``championship``, stage by stage."""
    return [
        day
        for stage in scheduled_stages(championship=championship)
        for day in matchdays(stage=stage)
    ]


def team_fixtures(*, championship: Championship, team: Team) -> list[TeamFixture]:
    """``team``'s season: each of its matches against an opponent, in playing order."""
    matches = (
        Match.objects.filter(stage__championship=championship)
        .of_team(team)
        .exclude(team_b=None)
        .select_related(*_RELATED)
        .order_by("stage__order", "round__number", "scheduled_at", "pk")
    )
    seasons = []
    for m in matches:
        others = m.others_of(team.pk)
        seasons.append(
            TeamFixture(
                fixture=_fixture(m),
                is_home=m.team_a_id == team.pk,
                opponent=others[0],
                others=others,
                team_id=team.pk,
            )
        )
    return seasons


def feed_matches(*, championship: Championship, team: Team | None = None) -> QuerySet[Match]:
    """The matches of a calendar feed: every match of ``championship`` (or of ``team``)
    against an opponent that has a date and time, and those postponed with their date to
    be fixed, each with ``was``: when it was to be played (its event stays there, marked,
    rather than vanish from the phones that had it)."""
    was = Postponement.objects.filter(match=OuterRef("pk")).order_by("-at", "-pk")
    to_be_fixed = Q(postponed=True, scheduled_at__isnull=True) & ~Q(status__in=Match.DECIDED)
    found = (
        Match.objects.filter(stage__championship=championship)
        .filter(Q(scheduled_at__isnull=False) | to_be_fixed)
        .exclude(team_b=None)
        .annotate(was=Subquery(was.values("from_at")[:1]))
    )
    if team is not None:
        found = found.of_team(team)
    return found.select_related(*_RELATED).order_by(Coalesce("scheduled_at", "was"), "pk")


def with_history(days: list[Matchday]) -> list[Matchday]:
    """``days`` with each fixture's postponements (oldest first, their author too): one
    query for them all, for the organiser's matchdays page."""
    fixtures = {f.match.pk: f for day in days for f in day.fixtures}
    moves = (
        Postponement.objects.filter(match__in=list(fixtures))
        .select_related("by")
        .order_by("at", "pk")
    )
    for move in moves:
        fixtures[move.match_id].history.append(move)
    return days


def postponed_matches(*, stage: Stage) -> list[Match]:
    """The matches of ``stage`` moved from their matchday and still to be played."""
    return list(
        stage.matches.filter(postponed=True)
        .exclude(status__in=Match.DECIDED)
        .select_related(*_RELATED)
        .order_by("scheduled_at", "pk")
    )


def last_postponement(*, match: Match) -> Postponement | None:
    """The latest move of a match still postponed (its reason, from when), else None (and
    no query)."""
    if not match.is_postponed:
        return None
    return match.postponements.order_by("-at", "-pk").first()
