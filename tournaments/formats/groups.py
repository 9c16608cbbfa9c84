"""Groups then knockout: snake seeding into groups, the top K of each go to a bracket.

Seeds 1..G go to groups A..G, seeds G+1..2G back from the last group to the first, and
so on, so every group gets the same spread of strength. From the groups the winners are
the top seeds of the knockout (in group order: A1 is seed 1), the runners-up come next,
and so on; each place after the first is spread over its seeds so that teams from the
same group meet as late as possible (opposite halves for two per group), and where that
leaves a choice a team meets the winner of the neighbouring group first (A2 v B1, B2 v
A1, C2 v D1, ...): the classic crossing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import rustworkx as rx

from tournaments.formats.base import FormatError, TeamId, check_teams
from tournaments.formats.elimination import (
    Bracket,
    bracket_from_positions,
    bracket_size,
    seed_order,
)


def snake_groups(seeds: Iterable[TeamId], group_count: int) -> list[list[TeamId]]:
    """Split teams in seed order into ``group_count`` groups, snake-wise.

    >>> snake_groups(range(1, 9), 3)
    [[1, 6, 7], [2, 5, 8], [3, 4]]
    """
    teams = check_teams(seeds)
    if group_count < 1 or len(teams) < 2 * group_count:
        raise FormatError(
            "bad_group_count",
            f"{len(teams)} teams cannot make {group_count} groups of at least two",
        )
    groups: list[list[TeamId]] = [[] for _ in range(group_count)]
    for k, team in enumerate(teams):
        row, col = divmod(k, group_count)
        groups[col if row % 2 == 0 else group_count - 1 - col].append(team)
    return groups


def knockout_positions(
    group_rankings: Sequence[Sequence[TeamId]], advance: int
) -> list[TeamId | None]:
    """First-round bracket positions (None for a bye) from each group's final order.

    >>> knockout_positions([["A1", "A2"], ["B1", "B2"]], 2)
    ['A1', 'B2', 'B1', 'A2']
    >>> knockout_positions([["A1", "A2"], ["B1", "B2"], ["C1", "C2"], ["D1", "D2"]], 2)
    ['A1', 'B2', 'D1', 'C2', 'C1', 'D2', 'B1', 'A2']
    """
    group_count = len(group_rankings)
    if advance < 1:
        raise FormatError("bad_advance", "at least one team per group must advance")
    for g, ranking in enumerate(group_rankings):
        if len(ranking) < advance:
            raise FormatError(
                "group_too_small",
                f"group {_group_name(g)} has {len(ranking)} teams, fewer than the {advance} "
                "that advance",
            )
    entrants = [team for ranking in group_rankings for team in ranking[:advance]]
    check_teams(entrants)
    size = bracket_size(len(entrants))
    order = seed_order(size)
    position_of_seed = {seed: pos for pos, seed in enumerate(order)}
    placed: dict[int, tuple[TeamId, int]] = {}  # position -> (team, group)

    for g, ranking in enumerate(group_rankings):
        placed[position_of_seed[g + 1]] = (ranking[0], g)
    for place in range(1, advance):
        seeds = list(range(place * group_count + 1, (place + 1) * group_count + 1))
        assignment = _spread(seeds, group_count, position_of_seed, placed)
        for g, seed in assignment.items():
            placed[position_of_seed[seed]] = (group_rankings[g][place], g)
    return [placed[pos][0] if pos in placed else None for pos in range(size)]


def _spread(
    seeds: list[int],
    group_count: int,
    position_of_seed: dict[int, int],
    placed: dict[int, tuple[TeamId, int]],
) -> dict[int, int]:
    """Give each group's team of this place one of ``seeds``, by maximum weight matching.

    Priorities, each above the most the ones below can add up to: the earliest round in
    which the team could meet a team of its own group, as late as possible; a first
    opponent from the neighbouring group (A-B, C-D...); the group order kept.
    """
    order_unit = 1
    neighbour_unit = group_count * group_count + 1
    round_unit = (group_count + 1) * neighbour_unit
    graph = rx.PyGraph()
    graph.add_nodes_from(range(2 * group_count))
    for g in range(group_count):
        for k, seed in enumerate(seeds):
            pos = position_of_seed[seed]
            mates = [p for p, (_, grp) in placed.items() if grp == g]
            earliest = min(((pos ^ p).bit_length() for p in mates), default=0)
            opponent = placed.get(pos ^ 1)
            neighbour = opponent is not None and opponent[1] == (g ^ 1)
            weight = (
                earliest * round_unit
                + neighbour * neighbour_unit
                + (group_count - abs(g - k)) * order_unit
            )
            graph.add_edge(g, group_count + k, weight)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    result = {}
    for a, b in matching:
        g, k = min(a, b), max(a, b) - group_count
        result[g] = seeds[k]
    return result


def groups_knockout(
    group_rankings: Sequence[Sequence[TeamId]],
    advance: int,
    *,
    double: bool = False,
    reset: bool = True,
    third_place: bool = False,
) -> Bracket:
    """The knockout bracket fed by the top ``advance`` teams of each group.

    >>> b = groups_knockout([["A1", "A2", "A3"], ["B1", "B2", "B3"]], 2)
    >>> [m.teams for m in b.ready()]
    [['A1', 'B2'], ['B1', 'A2']]
    """
    return bracket_from_positions(
        knockout_positions(group_rankings, advance),
        double=double,
        reset=reset,
        third_place=third_place,
    )


def _group_name(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...

    >>> [_group_name(i) for i in (0, 25, 26)]
    ['A', 'Z', 'AA']
    """
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name
