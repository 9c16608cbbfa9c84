"""A championship's placements: every playing team's final place, from its stages.

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
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from tournaments.formats.elimination import Bracket, Section
from tournaments.models import Championship, Stage, Team
from tournaments.stages.selectors import stage_bracket
from tournaments.standings.selectors import stage_standings

# The formats that are a bracket from the start (``stages.registry``, which a read does
# not import): before their draw, all their teams are equal.
KNOCKOUTS = ("single_elimination", "double_elimination")


@dataclass(frozen=True)
class Placement:
    team_id: int
    place: int  # 1-based; tied teams share the place (two 3rds, then 5th)
    tied: bool


def championship_placements(*, championship: Championship) -> list[Placement]:
    """Every playing team of ``championship`` that played in a stage, best first.

    Provisional while the championship runs. A handful of queries per stage.
    """
    playing = set(
        Team.objects.filter(championship=championship).playing().values_list("pk", flat=True)
    )
    stages = list(
        Stage.objects.filter(championship=championship)
        .select_related("championship")
        .prefetch_related("teams")
        .order_by("-order", "-pk")
    )
    placed: list[Placement] = []
    seen: set[int] = set()
    for stage in stages:
        ordered = [
            left
            for equals in _stage_order(stage)
            if (left := [t for t in equals if t in playing and t not in seen])
        ]
        offset = len(placed)
        for group in ordered:
            place = offset + 1
            for team_id in group:
                placed.append(Placement(team_id=team_id, place=place, tied=len(group) > 1))
                seen.add(team_id)
            offset += len(group)
    return placed


def _stage_order(stage: Stage) -> list[list[int]]:
    """The stage's teams as groups of equals, best group first."""
    teams = [t.pk for t in stage.teams.all()]
    groups_first = list(stage.groups.order_by("name")) if _has_groups(stage) else []
    order: list[list[int]] = []
    if stage.settings.get("bracket"):
        view = stage_bracket(stage=stage)
        if view is not None:
            order = bracket_order(view.bracket)
    in_bracket = {t for group in order for t in group}
    if groups_first:
        # The teams out in the groups (all of them while the groups are played).
        by_rank: dict[int, list[int]] = {}
        for group in groups_first:
            for line in stage_standings(stage=stage, group=group):
                if line.team.pk not in in_bracket:
                    by_rank.setdefault(line.rank, []).append(line.team.pk)
        order += [by_rank[rank] for rank in sorted(by_rank)]
    elif stage.format in KNOCKOUTS and not order:
        order = [teams]  # a knockout not drawn yet: nobody is ahead of anybody
    elif not order:
        order = _ranked([(line.team.pk, line.rank) for line in stage_standings(stage=stage)])
    # A team of the stage the reads above missed (none should be): last, together.
    missing = [t for t in teams if t not in {x for group in order for x in group}]
    if missing:
        order.append(missing)
    return order


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
