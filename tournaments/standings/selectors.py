"""Reads of standings: computed from the decided matches, or from the stored snapshot.

The tie-breaks themselves are pure (``tournaments.standings.tiebreaks``); this module
feeds them the results and names the championship's chain for the pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, F, OuterRef, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Championship, Group, Match, Stage, StandingsSnapshot, Team
from tournaments.standings import tiebreaks
from tournaments.standings.tables import (
    TABLE_CHAIN,
    PlacementPoints,
    TableResult,
    table_standings,
)

TABLE_FORMATS = frozenset({"tables_swiss", "tables_round_robin", "final_table"})
"""The stage formats of tables of three (``stages.registry``, ``has_tables``): ranked by
placement points (``standings.tables``), not by the two-sided chain."""


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings: the team, its rank, its totals and tie-break values."""

    team: Team
    rank: int
    position: int
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    chicos_for: int
    chicos_against: int
    tantos_for: int
    tantos_against: int
    metrics: dict[str, float | None] = field(default_factory=dict)

    _TOTALS = (
        "points",
        "played",
        "wins",
        "draws",
        "losses",
        "byes",
        "chicos_for",
        "chicos_against",
        "tantos_for",
        "tantos_against",
    )

    def to_row(self) -> dict[str, Any]:
        """Plain data for the snapshot (and the API)."""
        row = {"team": self.team.pk, "rank": self.rank, "position": self.position}
        row.update({key: getattr(self, key) for key in self._TOTALS})
        row["metrics"] = dict(self.metrics)
        return row


def _results(stage: Stage, group: Group | None) -> list[tiebreaks.MatchResult]:
    matches = Match.objects.filter(stage=stage, status__in=Match.DECIDED)
    if group is not None:
        matches = matches.filter(group=group)
    else:
        # A stage with groups ranks its group matches, not the knockout that follows them
        # (in the same query: no extra round trip for the pages).
        matches = matches.filter(Q(bracket_id="") | ~Exists(Group.objects.filter(stage=stage)))
    results = []
    for row in matches.values_list(
        "team_a_id",
        "team_b_id",
        "winner_id",
        "chicos_a",
        "chicos_b",
        "tantos_a",
        "tantos_b",
        "status",
    ):
        a, b, winner, ca, cb, ta, tb, status = row
        results.append(
            tiebreaks.MatchResult(
                a, b, winner, ca, cb, ta, tb, walkover=status == Match.Status.WALKOVER
            )
        )
    return results


def stage_standings(
    *, stage: Stage, group: Group | None = None, use_snapshot: bool = True
) -> list[StandingLine]:
    """The standings of a stage, or of one of its groups, best first.

    Computed from the decided matches with the championship's tie-break chain (lots
    seeded by the championship), or read from the snapshot the standings task stores
    after each result, when that snapshot is current: computed at the stage's present
    ``results_version`` (a stale one is never served, and costs no extra query). A
    handful of queries whatever the number of teams. Pass ``stage`` with its championship
    (``select_related``) to save one.
    """
    championship = stage.championship
    if use_snapshot:
        snapshot = _current_snapshots().filter(stage=stage, group=group).first()
        if snapshot is not None:
            teams = Team.objects.in_bulk([row["team"] for row in snapshot.rows])
            if len(teams) == len(snapshot.rows):
                return [
                    StandingLine(
                        team=teams[row["team"]], **{k: v for k, v in row.items() if k != "team"}
                    )
                    for row in snapshot.rows
                ]
    source = group if group is not None else stage
    team_ids = list(source.teams.values_list("pk", flat=True))
    if not team_ids:
        return []
    if stage.format in TABLE_FORMATS:
        return _table_lines(stage, team_ids)
    rows = tiebreaks.standings(
        team_ids,
        _results(stage, group),
        chain=championship.tiebreaks,
        seed=championship.lots_seed,
    )
    teams = Team.objects.in_bulk(team_ids)
    lines = []
    for row in rows:
        t = row.totals
        lines.append(
            StandingLine(
                team=teams[row.team],
                rank=row.rank,
                position=row.position,
                points=t.points,
                played=t.played,
                wins=t.wins,
                draws=t.draws,
                losses=t.losses,
                byes=t.byes,
                chicos_for=t.chicos_for,
                chicos_against=t.chicos_against,
                tantos_for=t.tantos_for,
                tantos_against=t.tantos_against,
                metrics=dict(row.metrics),
            )
        )
    return lines


def stage_ranks(
    *, stage: Stage, group: Group | None = None, team_ids: list[int] | None = None
) -> list[tuple[int, int]]:
    """Each team's rank in the standings of a stage (or group), computed now, best first:
    what a placement needs, without the team rows (``team_ids``: the stage's teams when the
    caller has them, saving a query)."""
    if stage.format in TABLE_FORMATS or group is not None or team_ids is None:
        lines = stage_standings(stage=stage, group=group, use_snapshot=False)
        return [(line.team.pk, line.rank) for line in lines]
    if not team_ids:
        return []
    championship = stage.championship
    rows = tiebreaks.standings(
        team_ids, _results(stage, None), chain=championship.tiebreaks, seed=championship.lots_seed
    )
    return [(row.team, row.rank) for row in rows]


def is_table_stage(stage: Stage) -> bool:
    """Whether ``stage`` seats players three to a table (its standings: placement points)."""
    return stage.format in TABLE_FORMATS


def placement_points(stage: Stage) -> PlacementPoints:
    """The stage's placement points (settings ``points``: first, second, third; and
    ``bye_points``), by default 3, 1, 0 and a bye 1."""
    first, second, third = stage.settings.get("points") or (3, 1, 0)
    return PlacementPoints(first, second, third, stage.settings.get("bye_points", 1))


def table_results(stage: Stage) -> list[TableResult]:
    """The decided tables of a table stage, as ``standings.tables`` reads them: a table of
    three by its stored places (``Match.places``), a table of two by its winner (first;
    the other third, or both third without a winner), a bye as a bye; a player absent at
    check-in sat out (nothing)."""
    results = []
    matches = Match.objects.filter(stage=stage, status__in=Match.DECIDED).values_list(
        "team_a_id", "team_b_id", "team_c_id", "winner_id", "places", "outcome",
        "tantos_a", "tantos_b", "tantos_c",
    )  # fmt: skip
    for a, b, c, winner, places, outcome, ta, tb, tc in matches:
        if b is None:
            if outcome == Match.Outcome.BYE:
                results.append(TableResult({a: 1}, bye=True))
            continue
        if c is not None:
            placed = {int(team): place for team, place in (places or {}).items()}
            if set(placed) == {a, b, c}:
                results.append(TableResult(placed, {a: ta, b: tb, c: tc}))
            continue
        placed = {a: 1 if winner == a else 2, b: 1 if winner == b else 2}
        results.append(TableResult(placed, {a: ta, b: tb}))
    return results


def table_chain(stage: Stage) -> list[str]:
    """The stage's chain of table tie-breaks (setting ``chain``, default ``TABLE_CHAIN``)."""
    return list(stage.settings.get("chain") or TABLE_CHAIN)


def _table_lines(stage: Stage, team_ids: list[int]) -> list[StandingLine]:
    results = table_results(stage)
    rows = table_standings(
        team_ids,
        results,
        chain=table_chain(stage),
        points=placement_points(stage),
        seed=stage.championship.lots_seed,
    )
    chicos: dict[int, int] = dict.fromkeys(team_ids, 0)
    for a, b, c, ca, cb, cc in Match.objects.filter(
        stage=stage, status__in=Match.DECIDED, team_b__isnull=False
    ).values_list("team_a_id", "team_b_id", "team_c_id", "chicos_a", "chicos_b", "chicos_c"):
        for team, won in ((a, ca), (b, cb), (c, cc)):
            if team in chicos:
                chicos[team] += won
    tantos: dict[int, int] = dict.fromkeys(team_ids, 0)
    firsts: dict[int, int] = dict.fromkeys(team_ids, 0)
    for result in results:
        if not result.bye:
            for team, place in result.places.items():
                tantos[team] = tantos.get(team, 0) + result.tantos.get(team, 0)
                firsts[team] = firsts.get(team, 0) + (place == 1)
    teams = Team.objects.in_bulk(team_ids)
    return [
        StandingLine(
            team=teams[row.player],
            rank=row.rank,
            position=row.position,
            points=_own_points(results, row.player, placement_points(stage)),
            played=row.tables,
            wins=firsts[row.player],
            draws=0,
            losses=row.tables - firsts[row.player],
            byes=row.byes,
            chicos_for=chicos[row.player],
            chicos_against=0,
            tantos_for=tantos[row.player],
            tantos_against=0,
            metrics=dict(row.metrics),
        )
        for row in rows
    ]


def _own_points(results: list[TableResult], player: int, scheme: PlacementPoints) -> float:
    total: float = 0
    for result in results:
        if player not in result.places:
            continue
        total += scheme.bye if result.bye else scheme.for_places(result.places)[player]
    return total


def _current_snapshots():
    # Compared with the stage row in the same query: never with a stage read earlier.
    return StandingsSnapshot.objects.filter(version=F("stage__results_version"))


def current_snapshots(*, stage_ids: list[int]) -> list[StandingsSnapshot]:
    """The current snapshots of these stages (and of their groups), in one query: a stage
    whose results changed since its last refresh has none."""
    return list(_current_snapshots().filter(stage_id__in=stage_ids))


def stages_needing_refresh(*, limit: int | None = None) -> list[int]:
    """Ids of the stages with a snapshot missing or stale, oldest stage first.

    A stage with groups needs a current snapshot per group; one without, a snapshot of
    the whole stage.
    """
    current = _current_snapshots()
    stale_group = Group.objects.filter(stage=OuterRef("pk")).exclude(
        Exists(current.filter(group=OuterRef("pk")))
    )
    stale_stage = ~Exists(Group.objects.filter(stage=OuterRef("pk"))) & ~Exists(
        current.filter(stage=OuterRef("pk"), group__isnull=True)
    )
    ids = Stage.objects.filter(stale_stage | Exists(stale_group)).order_by("pk")
    ids = ids.values_list("pk", flat=True)
    return list(ids if limit is None else ids[:limit])


@dataclass(frozen=True)
class TieBreakColumn:
    key: str
    name: str
    abbr: str


def tiebreak_columns(championship: Championship) -> list[TieBreakColumn]:
    """The championship's tie-break chain, in order, with names and abbreviations in the
    words of its game (a Catalan championship's jocs, an Argentine one's chicos)."""
    columns = []
    for cls in tiebreaks.check_chain(list(championship.tiebreaks)):
        name, abbr = (
            cls.catalan if championship.is_catalan and cls.catalan else (cls.name, cls.abbr)
        )
        columns.append(TieBreakColumn(key=cls.key, name=str(name), abbr=str(abbr)))
    return columns


TABLE_COLUMNS = {
    "points": (_("Placement points"), _("Pts")),
    "tantos": (_("Tantos made"), _("T")),
    "opponents": (_("Opponents' placement points"), _("Opp")),
    "firsts": (_("First places"), _("1st")),
    "lots": (_("Drawing of lots"), _("Lot")),
}


def stage_tiebreak_columns(stage: Stage) -> list[TieBreakColumn]:
    """The tie-break columns of a stage's standings: the championship's chain, or for a
    table stage its chain of table tie-breaks (placement points, tantos, opponents...)."""
    if not is_table_stage(stage):
        return tiebreak_columns(stage.championship)
    return [
        TieBreakColumn(key=key, name=str(TABLE_COLUMNS[key][0]), abbr=str(TABLE_COLUMNS[key][1]))
        for key in table_chain(stage)
    ]


def tiebreak_choices() -> list[tuple[str, str]]:
    """Every registered tie-break as (key, name) for a form."""
    return [(key, str(cls.name)) for key, cls in tiebreaks.TIEBREAKS.items()]


def default_tiebreaks() -> tuple[str, ...]:
    return tiebreaks.DEFAULT_CHAIN
