"""Reads of championships for the pages, the API, exports and the services.

Selectors own ``select_related``/``prefetch_related``, so a page's query count does not
grow with the number of teams, matches or hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet

from tournaments import tiebreaks
from tournaments.formats import Bracket
from tournaments.models import (
    Championship,
    Group,
    Hand,
    Match,
    Membership,
    Round,
    Stage,
    StandingsSnapshot,
    Team,
)

_DECIDED = (Match.Status.FINISHED, Match.Status.WALKOVER)
_MEMBERS = Membership.objects.select_related("player").order_by("order")


def championship_list_public() -> QuerySet[Championship]:
    """Championships the public may see: every one that is no longer a draft."""
    return Championship.objects.exclude(status=Championship.Status.DRAFT)


def championship_detail(*, slug: str) -> Championship:
    """A championship with its stages, and its teams with their players (raises DoesNotExist)."""
    return Championship.objects.prefetch_related(
        "stages",
        Prefetch(
            "teams",
            queryset=Team.objects.prefetch_related(Prefetch("memberships", queryset=_MEMBERS)),
        ),
    ).get(slug=slug)


def team_list(*, championship: Championship) -> QuerySet[Team]:
    """The teams of a championship in seed order, with their players."""
    return championship.teams.prefetch_related(Prefetch("memberships", queryset=_MEMBERS))


def _match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related(
        "team_a", "team_b", "winner", "round", "group", "referee"
    ).order_by("round__number", "group__name", "pk")


def round_matches(*, round: Round) -> QuerySet[Match]:
    """The matches of a round with their teams, group and referee."""
    return _match_queryset().filter(round=round)


def stage_rounds(*, stage: Stage) -> QuerySet[Round]:
    """The rounds of a stage, each with its matches (two queries in all)."""
    return stage.rounds.prefetch_related(Prefetch("matches", queryset=_match_queryset()))


def stage_matches(*, stage: Stage) -> QuerySet[Match]:
    return _match_queryset().filter(stage=stage)


def match_detail(*, pk: int) -> Match:
    """A match with its teams and players, games, and hands (with who recorded them)."""
    return (
        Match.objects.select_related(
            "stage__championship", "round", "group", "team_a", "team_b", "winner", "referee"
        )
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=_MEMBERS),
            Prefetch("team_b__memberships", queryset=_MEMBERS),
            "games__winner",
            Prefetch("hands", queryset=Hand.objects.select_related("recorded_by", "game")),
        )
        .get(pk=pk)
    )


@dataclass(frozen=True)
class BracketView:
    """A stage's bracket (``tournaments.formats.Bracket``) and its stored matches by id."""

    bracket: Bracket
    matches: dict[str, Match]
    teams: dict[int, Team]


def stage_bracket(*, stage: Stage) -> BracketView | None:
    """The bracket of an elimination (or the knockout of a groups) stage, or None yet."""
    from tournaments.services import stage_bracket as build

    # The bracket's positions are written by round_generate: read them fresh.
    stage = Stage.objects.get(pk=stage.pk)
    stored = list(_match_queryset().filter(stage=stage).exclude(bracket_id=""))
    bracket = build(stage, [m for m in stored if m.status in _DECIDED])
    if bracket is None:
        return None
    ids = [t for m in bracket.matches.values() for t in m.teams if t is not None]
    return BracketView(
        bracket=bracket,
        matches={m.bracket_id: m for m in stored},
        teams=Team.objects.in_bulk(ids),
    )


# -- standings ------------------------------------------------------------------------------


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
    matches = Match.objects.filter(stage=stage, status__in=_DECIDED)
    if group is not None:
        matches = matches.filter(group=group)
    elif stage.format == Stage.Format.GROUPS_KNOCKOUT:
        matches = matches.filter(bracket_id="")
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
    after each result. A handful of queries whatever the number of teams. Pass ``stage``
    with its championship (``select_related``) to save one.
    """
    championship = stage.championship
    if use_snapshot:
        snapshot = StandingsSnapshot.objects.filter(stage=stage, group=group).first()
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
