"""Reads of stages, rounds and brackets.

``bracket_state`` (``tournaments.standings.brackets``, below the placements that need it
too) rebuilds a stage's bracket from its stored positions and decided matches; it only
reads, so the bracket page and ``stages.rounds.bracket_sync`` share it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db.models import Count, F, Max, Min, Prefetch, Q, QuerySet
from django.http import Http404

from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.formats import Bracket
from tournaments.models import (
    Championship,
    CheckIn,
    Match,
    Membership,
    Round,
    Stage,
    Team,
    name_key,
    public_name,
)
from tournaments.people.history import folded_matcher
from tournaments.standings.brackets import bracket_state


def _match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related(
        "team_a", "team_b", "team_c", "winner", "round", "group", "referee"
    ).order_by("round__number", "group__name", "pk")


def round_matches(*, round: Round) -> QuerySet[Match]:
    """The matches of a round with their teams, group and referee."""
    return _match_queryset().filter(round=round)


def round_match_ids(*, round: Round) -> list[int]:
    """The ids of a round's matches, in the order of ``round_matches``."""
    return list(_match_queryset().filter(round=round).values_list("pk", flat=True))


def match_cards(*, ids: Iterable[int]) -> QuerySet[Match]:
    """The matches ``ids`` with what a match's card in a list shows (its teams, its
    group), unordered: the card of a match that changed is rendered again after every
    hand, and PostgreSQL planned ``matches_of``'s eight joins in some 3 ms against
    0.25 ms running them (bench/README.md)."""
    # No ordering: the model's joins the round, the stage and the championship.
    return (
        Match.objects.select_related("team_a", "team_b", "team_c", "group")
        .filter(pk__in=list(ids))
        .order_by()
    )


def matches_of(*, ids: Iterable[int]) -> QuerySet[Match]:
    """The matches ``ids`` (e.g. a round just generated) with their teams and round."""
    return _match_queryset().select_related("stage__championship").filter(pk__in=list(ids))


def stage_rounds(*, stage: Stage) -> QuerySet[Round]:
    """The rounds of a stage, each with its matches (two queries in all)."""
    return stage.rounds.prefetch_related(Prefetch("matches", queryset=_match_queryset()))


@dataclass(frozen=True)
class BracketView:
    """A stage's bracket (``tournaments.formats.Bracket``) and its stored matches by id."""

    bracket: Bracket
    matches: dict[str, Match]
    teams: dict[int, Team]


def stage_bracket(*, stage: Stage) -> BracketView | None:
    """The bracket of an elimination (or the knockout of a groups) stage, or None yet."""

    # The bracket's positions are written by round_generate: read them fresh.
    stage = Stage.objects.get(pk=stage.pk)
    stored = list(_match_queryset().filter(stage=stage).exclude(bracket_id=""))
    bracket = bracket_state(stage, [m for m in stored if m.status in Match.DECIDED])
    if bracket is None:
        return None
    ids = [t for m in bracket.matches.values() for t in m.teams if t is not None]
    return BracketView(
        bracket=bracket,
        matches={m.bracket_id: m for m in stored},
        teams=Team.objects.in_bulk(ids),
    )


def stage_of(*, championship: Championship, stage_id: int) -> Stage:
    """A stage of ``championship`` (with it attached, saving a query), else ``Http404``."""
    stage = championship.stages.filter(pk=stage_id).first()
    if stage is None:
        raise Http404("No such stage.")
    stage.championship = championship
    return stage


def round_of(*, stage: Stage, number: int) -> Round:
    round_ = stage.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404("No such round.")
    round_.stage = stage
    return round_


def team_matches(*, team: Team) -> QuerySet[Match]:
    """Every match of ``team`` in play order (stage, round), with both teams' players."""
    return (
        Match.objects.of_team(team)
        .select_related("stage__championship", "round", "team_a", "team_b", "team_c", "winner")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_c__memberships", queryset=MEMBERS_IN_ORDER),
        )
        .order_by("stage__order", "round__number", "pk")
    )


@dataclass(frozen=True)
class CheckInState:
    """The check-in of a stage's next round: each team present or not, and whether it is
    taken at all (no mark yet: every team will be paired)."""

    rows: list[tuple[Team, bool | None]]  # None: not marked
    taken: bool

    @property
    def present(self) -> int:
        return sum(1 for _team, present in self.rows if present)

    def plays(self, present: bool | None) -> bool:
        """Whether a team so marked is paired in the next round."""
        return bool(present) or not self.taken


def check_in_state(*, stage: Stage, number: int) -> CheckInState:
    """Each team of ``stage`` (seed order) with its mark for round ``number``."""
    marks = dict(
        CheckIn.objects.filter(stage=stage, round_number=number).values_list("team_id", "present")
    )
    teams = stage.teams.prefetch_related(Prefetch("memberships", queryset=MEMBERS_IN_ORDER))
    return CheckInState(rows=[(team, marks.get(team.pk)) for team in teams], taken=bool(marks))


class RoundNow(NamedTuple):
    """A stage's current round: its number, and whether a match of it is still to be
    decided (False: every round is over, this is the last one played)."""

    number: int
    open: bool


def rounds_now(*, championship: Championship) -> dict[int, RoundNow]:
    """Each stage's current round: the first round with a match still to be decided,
    else the last round (one query). Stages without rounds are left out."""
    rows = (
        Round.objects.filter(stage__championship=championship)
        .values("stage_id")
        .annotate(
            last=Max("number"),
            open=Min("number", filter=~Q(matches__status__in=Match.DECIDED)),
        )
    )
    return {
        row["stage_id"]: RoundNow(row["open"] or row["last"], row["open"] is not None)
        for row in rows
    }


def current_rounds(*, championship: Championship) -> dict[int, int]:
    """Each stage's current round number (``rounds_now``'s, without whether it is open)."""
    return {stage_id: now.number for stage_id, now in rounds_now(championship=championship).items()}


def championship_rounds(*, championship: Championship) -> list[Round]:
    """Every round of ``championship``'s stages, in stage order then number, each with its
    stage attached and ``open``: its matches still to be decided (one query)."""
    rounds = list(
        Round.objects.filter(stage__championship=championship)
        .select_related("stage")
        .annotate(open=Count("matches", filter=~Q(matches__status__in=Match.DECIDED)))
        .order_by("stage__order", "number")
    )
    for round_ in rounds:
        round_.stage.championship = championship
    return rounds


def rounds_in_play(*, stage: Stage) -> tuple[list[Round], int | None]:
    """The rounds of ``stage`` and the number of its current one (the first with a match
    still to be decided, else the last; None before the first round), in one query."""
    rounds = list(
        stage.rounds.annotate(open=Count("matches", filter=~Q(matches__status__in=Match.DECIDED)))
    )
    for round_ in rounds:
        round_.stage = stage
    current = next((r.number for r in rounds if r.open), rounds[-1].number if rounds else None)
    return rounds, current


def board_matches(*, championship: Championship) -> tuple[list[Match], list[Match]]:
    """The championship's matches in play and its latest results (one query each), for
    the board: in play by table, results most recent first."""
    base = Match.objects.filter(stage__championship=championship, team_b__isnull=False)
    base = base.select_related("stage", "round", "group", "team_a", "team_b", "team_c", "winner")
    playing = list(base.filter(status=Match.Status.IN_PROGRESS))
    playing.sort(key=lambda m: (table_key(m.table), m.pk))
    recent = list(
        base.filter(status__in=Match.DECIDED).order_by(
            F("finished_at").desc(nulls_last=True), "-pk"
        )[:RECENT_RESULTS]
    )
    return playing, recent


RECENT_RESULTS = 8


def table_key(table: str) -> tuple[int, int, str]:
    """Tables in the hall's order: "2" before "10", named tables after numbered ones."""
    if table.isdigit():
        return (0, int(table), "")
    return (1 if table else 2, 0, table)


def _schedule_order(scheduled_at: Any, table: str, stage_order: int, pk: int) -> tuple:
    """Where a match comes in the schedule: by time, then table (the hall's order)."""
    return (scheduled_at is None, scheduled_at or 0, table_key(table), stage_order, pk)


@dataclass(frozen=True)
class ScheduleRow:
    """A match of the schedule as its list needs it before any row is drawn: which, in
    order, and who plays it (for a search)."""

    pk: int
    decided: bool
    teams: tuple[int | None, ...]


def schedule_rows(*, championship: Championship) -> list[ScheduleRow]:
    """Every match of each stage's current round (byes aside), by time, then table: where
    everyone plays now, without the matches themselves (their rows are drawn from the
    cache, ``schedule``'s matches only for the rows that changed). Two queries."""
    current = current_rounds(championship=championship)
    if not current:
        return []
    which = Q()
    for stage_id, number in current.items():
        which |= Q(stage_id=stage_id, round__number=number)
    matches = Match.objects.filter(which, stage__championship=championship, team_b__isnull=False)
    found = matches.order_by().values_list(
        "pk", "scheduled_at", "table", "stage__order", "status", "team_a", "team_b", "team_c"
    )
    ordered = sorted(found, key=lambda row: _schedule_order(row[1], row[2], row[3], row[0]))
    return [
        ScheduleRow(pk=pk, decided=status in Match.DECIDED, teams=(a, b, c))
        for pk, _at, _table, _order, status, a, b, c in ordered
    ]


def schedule(*, championship: Championship, ids: list[int]) -> list[Match]:
    """The matches ``ids`` of :func:`schedule_rows`, in its order, each with its stage,
    round, group and teams. One query however many matches."""
    matches = Match.objects.filter(pk__in=ids, stage__championship=championship)
    shown = list(
        matches.select_related("stage", "round", "group", "team_a", "team_b", "team_c", "winner")
    )
    for match in shown:
        match.stage.championship = championship
    shown.sort(key=lambda m: _schedule_order(m.scheduled_at, m.table, m.stage.order, m.pk))
    return shown


@dataclass(frozen=True)
class Found:
    """A team a search found, and its matches in the current rounds (none: it does not
    play now)."""

    team: Team
    matches: list[Match]


def schedule_names(*, championship: Championship) -> list[tuple[int, list[str]]]:
    """Each team of ``championship`` that plays, in the teams' order, with the names a
    search of the schedule looks in, folded (``name_key``): its own and its players'
    public names ("Ana R.", never a hidden surname). Two queries and no model built: the
    page keeps this in the cache until a name or a line-up changes."""
    teams = championship.teams.playing().values_list("pk", "name")
    names = {pk: [name_key(name)] for pk, name in teams}
    players = Membership.objects.filter(team__in=list(names)).values_list(
        "team", "player__name", "player__person__initial_only"
    )
    for team, name, initial_only in players:
        names[team].append(name_key(public_name(name, initial_only=initial_only)))
    return list(names.items())


def schedule_search(
    *,
    championship: Championship,
    rows: list[ScheduleRow],
    names: list[tuple[int, list[str]]],
    query: str,
) -> list[Found]:
    """The teams of ``names`` (:func:`schedule_names`) whose name, or a player's public
    name, has every word of ``query`` (case and accents aside: "begona" finds Begoña),
    with their matches among ``rows`` (:func:`schedule_rows`). Three queries at most, for
    the teams found alone."""
    found_in = folded_matcher(query)
    chosen = [pk for pk, folded in names if found_in(folded)]
    if not chosen:
        return []
    found = Team.objects.filter(pk__in=chosen).prefetch_related(
        Prefetch("memberships", queryset=MEMBERS_IN_ORDER)
    )
    teams = {team.pk: team for team in found}
    mine = set(teams)
    theirs = [row.pk for row in rows if mine.intersection(row.teams)]
    matches = schedule(championship=championship, ids=theirs) if theirs else []
    return [
        Found(team=team, matches=[m for m in matches if m.side_of(team.pk) is not None])
        for team in (teams[pk] for pk in chosen if pk in teams)
    ]
