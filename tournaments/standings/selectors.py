"""Reads of standings: computed from the decided matches, or from the stored snapshot.

The tie-breaks themselves are pure (``tournaments.standings.tiebreaks``); this module
feeds them the results and names the championship's chain for the pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, F, OuterRef, Q

from tournaments.models import Championship, Group, Match, Stage, StandingsSnapshot, Team
from tournaments.standings import tiebreaks


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
    """The championship's tie-break chain, in order, with names and abbreviations."""
    return [
        TieBreakColumn(key=cls.key, name=str(cls.name), abbr=str(cls.abbr))
        for cls in tiebreaks.check_chain(list(championship.tiebreaks))
    ]


def tiebreak_choices() -> list[tuple[str, str]]:
    """Every registered tie-break as (key, name) for a form."""
    return [(key, str(cls.name)) for key, cls in tiebreaks.TIEBREAKS.items()]


def default_tiebreaks() -> tuple[str, ...]:
    return tiebreaks.DEFAULT_CHAIN
