"""A championship's placements: every playing team's final place, from its stages. The one
rule for a place, wherever one is shown: a person's and a team's pages, the persons of the
API, a circuit's ranking and qualification (``circuits.qualification`` stores each
event's).

The last stage a team reached places it; teams out in an earlier stage come below every
team that went further, in that stage's order. Within a stage:

- a bracket places by how far each team went: the winner 1st, the loser of the final
  2nd, the third-place match's winner and loser 3rd and 4th (without one the two
  semi-final losers are 3rd together), the quarter-final losers 5th together, and so on;
  in a double elimination, by the losers-bracket round each team lost its second match
  in. A team still in the bracket ranks with the best of the round it has reached (its
  place is provisional, as every place is while the championship runs);
- round robin and Swiss place by their standings, the championship's tie-break chain
  included: only teams tied on the whole chain share a place (a chain ending in lots
  never leaves one);
- groups place by the rank in the group: the group winners together, then the runners-up
  together... (teams of different groups did not play each other, so nothing fairer
  sets them apart); once the knockout is drawn, its teams are placed by the bracket above
  the teams out in the groups.

Tied teams share a place and the next place skips them: two 3rds, then 5th. Teams in no
stage (entered, never drawn) are not placed.

Computing them costs a handful of queries per stage, so the standings' refresh stores them
(``standings.services.placements_refresh``, a ``PlacementSnapshot`` per championship) and
:func:`current_placements` reads those of many championships in a few queries, computing
only a championship whose results changed since (as a stale standings snapshot is).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import BooleanField, ExpressionWrapper, Prefetch, prefetch_related_objects

from tournaments.formats.elimination import Bracket, Section
from tournaments.models import PLAYS, Championship, Group, PlacementSnapshot, Stage, Team
from tournaments.standings.brackets import stage_bracket_state
from tournaments.standings.selectors import current_snapshots, stage_ranks

# The formats that are a bracket from the start (``stages.registry``, which a read does
# not import): before their draw, all their teams are equal.
KNOCKOUTS = ("single_elimination", "double_elimination")


@dataclass(frozen=True)
class Placement:
    team_id: int
    place: int  # 1-based; tied teams share the place (two 3rds, then 5th)
    tied: bool
    of: int  # how many teams are placed
    stage_id: int  # the last stage the team played, which placed it
    group_id: int | None = None  # its group there, when its rank in the group placed it

    def to_row(self) -> dict:
        return {
            "team": self.team_id,
            "place": self.place,
            "tied": self.tied,
            "of": self.of,
            "stage": self.stage_id,
            "group": self.group_id,
        }

    @classmethod
    def from_row(cls, row: dict) -> Placement:
        return cls(
            team_id=row["team"],
            place=row["place"],
            tied=row["tied"],
            of=row["of"],
            stage_id=row["stage"],
            group_id=row.get("group"),
        )


def championship_placements(
    *, championship: Championship, stages: Sequence[Stage] | None = None
) -> list[Placement]:
    """Every playing team of ``championship`` that played in a stage, best first, computed
    from its stages now (:func:`current_placements` reads the stored ones); ``stages``:
    its stages when the caller has them.

    Provisional while the championship runs. Two queries, then one or two per stage whose
    standings changed since their snapshot (two more per bracket).
    """
    if stages is None:
        stages = list(Stage.objects.filter(championship=championship))
    stages = sorted(stages, key=lambda stage: (stage.order, stage.pk), reverse=True)
    for stage in stages:
        stage.championship = championship
    # Every team of each stage, and whether it plays: only those are placed (not those
    # waiting, refused or withdrawn).
    plays = ExpressionWrapper(PLAYS, output_field=BooleanField())
    prefetch_related_objects(
        stages,
        Prefetch(
            "teams", queryset=Team.objects.only("pk").annotate(plays=plays), to_attr="all_teams"
        ),
    )
    ranks = _Ranks(stages)
    placed: list[tuple[int, int, bool, int, int | None]] = []
    seen: set[int] = set()
    for stage in stages:
        order, groups = _stage_order(stage, ranks)
        ordered = [left for equals in order if (left := [t for t in equals if t not in seen])]
        offset = len(placed)
        for equals in ordered:
            place = offset + 1
            for team_id in equals:
                placed.append((team_id, place, len(equals) > 1, stage.pk, groups.get(team_id)))
                seen.add(team_id)
            offset += len(equals)
    return [
        Placement(team_id=t, place=place, tied=tied, of=len(placed), stage_id=s, group_id=g)
        for t, place, tied, s, g in placed
    ]


class _Ranks:
    """The standings' ranks of some stages (and of their groups): from their current
    snapshots, read in one query, or computed for a stage whose results changed since."""

    def __init__(self, stages: Sequence[Stage]) -> None:
        self.snapshots = {
            (snapshot.stage_id, snapshot.group_id): snapshot.rows
            for snapshot in current_snapshots(stage_ids=[stage.pk for stage in stages])
        }

    def __call__(self, stage: Stage, group: Group | None = None) -> list[tuple[int, int]]:
        rows = self.snapshots.get((stage.pk, group.pk if group else None))
        if rows is not None:
            return [(row["team"], row["rank"]) for row in rows]
        team_ids = None if group else [team.pk for team in stage.all_teams]
        return stage_ranks(stage=stage, group=group, team_ids=team_ids)


@dataclass(frozen=True)
class CurrentPlacements:
    """The placements of some championships by team, and their stages by id (a place names
    the stage that made it)."""

    by_championship: dict[int, dict[int, Placement]]
    stages: dict[int, Stage]

    def of(self, team: Team) -> Placement | None:
        return self.by_championship.get(team.championship_id, {}).get(team.pk)


def current_placements(*, championships: Iterable[Championship]) -> CurrentPlacements:
    """The placements of these championships, from their stored snapshots (two queries);
    a championship whose results changed since its snapshot, or without one, is computed
    now (:func:`championship_placements`)."""
    by_id = {championship.pk: championship for championship in championships}
    if not by_id:
        return CurrentPlacements(by_championship={}, stages={})
    stages = list(Stage.objects.filter(championship_id__in=list(by_id)))
    of_championship: dict[int, list[Stage]] = {pk: [] for pk in by_id}
    for stage in stages:
        stage.championship = by_id[stage.championship_id]
        of_championship[stage.championship_id].append(stage)
    stored = {
        snapshot.championship_id: snapshot
        for snapshot in PlacementSnapshot.objects.filter(championship_id__in=list(by_id))
    }
    result: dict[int, dict[int, Placement]] = {}
    for championship_id, championship in by_id.items():
        snapshot = stored.get(championship_id)
        versions = _versions(of_championship[championship_id])
        if snapshot is not None and snapshot.versions == versions:
            placements = [Placement.from_row(row) for row in snapshot.rows]
        else:
            placements = _computed(championship, of_championship[championship_id], versions)
        result[championship_id] = {p.team_id: p for p in placements}
    return CurrentPlacements(by_championship=result, stages={s.pk: s for s in stages})


# The placements computed for a championship whose stored ones are stale, kept under its
# stages' versions: until the standings' refresh stores them (at the next result, or never
# while no match is decided), every page of its people would compute them again (the whole
# field's standings, tens of milliseconds for 400 teams). Computed after the versions were
# read, they reflect at least those results, as a stored snapshot does.
_COMPUTED = "placements:1:"
COMPUTED_TIMEOUT = 3600


def _computed(
    championship: Championship, stages: Sequence[Stage], versions: dict[str, int]
) -> list[Placement]:
    # Its creation's instant too: ids come again in another database on the same cache (a
    # test's, rolled back; a copy restored), never with the same instant.
    created = championship.__dict__.get("created_at")
    if created is None:  # not read with it: computed, not worth a query
        return championship_placements(championship=championship, stages=stages)
    stamp = ",".join(f"{stage}={version}" for stage, version in sorted(versions.items()))
    key = f"{_COMPUTED}{championship.pk}:{created.timestamp()}:{stamp}"
    rows = cache.get(key)
    if rows is None:
        placements = championship_placements(championship=championship, stages=stages)
        cache.set(key, [placement.to_row() for placement in placements], COMPUTED_TIMEOUT)
        return placements
    return [Placement.from_row(row) for row in rows]


def stage_versions(*, championship: Championship) -> dict[str, int]:
    """The championship's stages and their results versions (one query): what its stored
    placements must have been computed from to be current."""
    return _versions(Stage.objects.filter(championship=championship).only("results_version"))


def _versions(stages: Iterable[Stage]) -> dict[str, int]:
    return {str(stage.pk): stage.results_version for stage in stages}


def _stage_order(stage: Stage, ranks: _Ranks) -> tuple[list[list[int]], dict[int, int]]:
    """The stage's playing teams as groups of equals, best group first, and the group of
    each team placed by its rank in its group."""
    teams = [t.pk for t in stage.all_teams]
    playing = {t.pk for t in stage.all_teams if t.plays}
    groups_first = list(stage.groups.order_by("name")) if _has_groups(stage) else []
    order: list[list[int]] = []
    in_group: dict[int, int] = {}
    if stage.settings.get("bracket"):
        bracket = stage_bracket_state(stage)
        if bracket is not None:
            order = bracket_order(bracket)
    in_bracket = {t for group in order for t in group}
    if groups_first:
        # The teams out in the groups (all of them while the groups are played).
        by_rank: dict[int, list[int]] = {}
        for group in groups_first:
            for team_id, rank in ranks(stage, group):
                if team_id not in in_bracket:
                    by_rank.setdefault(rank, []).append(team_id)
                    in_group[team_id] = group.pk
        order += [by_rank[rank] for rank in sorted(by_rank)]
    elif stage.format in KNOCKOUTS and not order:
        order = [teams]  # a knockout not drawn yet: nobody is ahead of anybody
    elif not order:
        order = _ranked(ranks(stage))
    # A team of the stage the reads above missed (none should be): last, together.
    ordered = {team_id for equals in order for team_id in equals}
    missing = [t for t in teams if t not in ordered]
    if missing:
        order.append(missing)
    order = [kept for equals in order if (kept := [t for t in equals if t in playing])]
    return order, in_group


def _has_groups(stage: Stage) -> bool:
    return "groups" in stage.settings


def _ranked(rows: Sequence[tuple[int, Hashable]]) -> list[list[int]]:
    """Teams grouped by equal keys, in the order of the rows (already best first)."""
    groups: list[list[int]] = []
    last: object = object()
    for team_id, key in rows:
        if groups and key == last:
            groups[-1].append(team_id)
        else:
            groups.append([team_id])
        last = key
    return groups


def bracket_order(bracket: Bracket) -> list[list[int]]:
    """The bracket's teams as groups of equals, best first (see the module's docstring).

    Each match has a level, how deep in the bracket it is; a team's key is the deepest
    match it is in and whether it is still standing there (won it, or not played yet):
    losers of the same level share a place.

    >>> from tournaments.formats.elimination import single_elimination
    >>> b = single_elimination([1, 2, 3, 4, 5, 6, 7, 8])
    >>> for mid, w in [("W1-1", 1), ("W1-2", 4), ("W1-3", 3), ("W1-4", 2), ("W2-1", 1)]:
    ...     _ = b.report(mid, w)
    >>> bracket_order(b)
    [[1], [2, 3], [4], [5, 6, 7, 8]]
    """
    level = _levels(bracket)
    best: dict[int, tuple[float, int]] = {}
    for match in bracket.matches.values():
        for team in match.teams:
            if team is None:
                continue
            standing = 0 if match.winner is not None and match.loser == team else 1
            key = (level(match), standing)
            if key > best.get(team, (-1.0, 0)):
                best[team] = key
    # Equals in team order (entry order: the same every time the page is read).
    rows = sorted(best.items(), key=lambda item: (-item[1][0], -item[1][1], item[0]))
    return _ranked(rows)


def _levels(bracket: Bracket) -> Callable[..., float]:
    rounds = (bracket.size - 1).bit_length()

    def level(match) -> float:
        if not bracket.double:
            if match.section is Section.THIRD_PLACE:
                # Between the semi-finals and the final: its loser is 4th, above the
                # losers of the quarter-finals, below the final's.
                return rounds - 0.5
            return float(match.round)
        if match.section is Section.WINNERS:
            # A team still in the winners' bracket stands with the losers-bracket round its
            # loss would send it to (round r's losers drop into losers round 2(r - 1)).
            return float(max(2 * (match.round - 1), 0))
        if match.section is Section.LOSERS:
            return float(match.round)
        if match.section is Section.FINAL:
            return float(2 * rounds)
        return float(2 * rounds + 1)  # the reset

    return level
