"""Swiss pairing: the next round from the current standing, by maximum weight matching.

Teams are paired on a graph whose edge weights encode, in strict order of priority:

1. a perfect pairing (``max_cardinality``), one bye at most when the count is odd;
2. no rematch, unless no pairing without one exists (then as few as possible);
3. the bye to the lowest-ranked team that has not had one;
4. opponents from the same score group, else the nearest groups (squared distance, so
   two floats of one group cost less than one float of two groups);
5. within a score group the top half meets the bottom half (1 v n/2+1, "slide"), and a
   team floating to another group meets the nearest team in the standing.

Each priority is weighted above the largest possible total of all the priorities below
it, so the matching is lexicographic. A complete graph of 1,024 teams takes seconds to
match, so for large fields the graph first holds only the candidate edges near each team
(a window of neighbours in the standing and around the slide partner); it widens while
no perfect pairing without rematch is found in it, up to the complete graph (so a
rematch still happens only when the complete graph has no way round it). Up to
``EXACT_LIMIT`` teams the complete graph is used at once and the result is the exact
optimum of the priorities above (the tests check it against brute force); above it, the
optimum over the candidate edges, which hold every pairing the priorities favour unless
rematches push a team far from its place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import rustworkx as rx

from tournaments.formats.base import FormatError, Pairing, TeamId, check_teams

EXACT_LIMIT = 64
"""Fields of at most this many teams are matched on the complete graph straight away."""

WINDOWS = (32, 128, 512)
"""Candidate windows (neighbours in the standing) tried in turn on larger fields."""


@dataclass(frozen=True)
class SwissTeam:
    """A team as the Swiss generator sees it: its score, past opponents and bye."""

    id: TeamId
    score: float = 0
    opponents: frozenset[TeamId] = field(default_factory=frozenset)
    had_bye: bool = False


@dataclass(frozen=True)
class SwissRound:
    """The pairings of the next round (higher-ranked team first), its bye and rematches."""

    pairings: tuple[Pairing, ...]
    bye: TeamId | None = None
    rematches: tuple[Pairing, ...] = ()


def swiss_pairings(teams: Sequence[SwissTeam]) -> SwissRound:
    """Pair the next Swiss round.

    ``teams`` is the current standing, best first: the order breaks ties inside a score
    group (the Django side passes its standings order); teams are then stably sorted by
    score, highest first.

    >>> first = swiss_pairings([SwissTeam(t) for t in "ABCD"])
    >>> [(p.home, p.away) for p in first.pairings]
    [('A', 'C'), ('B', 'D')]
    >>> second = swiss_pairings([
    ...     SwissTeam("A", 1, frozenset("C")), SwissTeam("B", 1, frozenset("D")),
    ...     SwissTeam("C", 0, frozenset("A")), SwissTeam("D", 0, frozenset("B")),
    ... ])
    >>> [(p.home, p.away) for p in second.pairings]
    [('A', 'B'), ('C', 'D')]
    >>> odd = swiss_pairings([SwissTeam(1), SwissTeam(2), SwissTeam(3, had_bye=True)])
    >>> odd.bye, [(p.home, p.away) for p in odd.pairings]
    (2, [(1, 3)])
    """
    check_teams((t.id for t in teams), minimum=2)
    ranked = sorted(teams, key=lambda t: -t.score)
    n = len(ranked)
    needs_bye = n % 2 == 1
    if needs_bye and all(t.had_bye for t in ranked):
        raise FormatError("no_bye_left", "every team has already had its bye")

    scores = sorted({t.score for t in ranked}, reverse=True)
    group_index = {s: i for i, s in enumerate(scores)}
    group_of = [group_index[t.score] for t in ranked]
    group_start: dict[int, int] = {}
    group_size: dict[int, int] = {}
    for i, g in enumerate(group_of):
        group_start.setdefault(g, i)
        group_size[g] = group_size.get(g, 0) + 1

    # Weights for each priority level, each above the largest total of the levels below.
    pos_unit = 1
    group_unit = n * n + 1
    bye_unit = (n + 1) * (len(scores) ** 2) * group_unit + 1
    rematch_unit = (n + 2) * bye_unit + 1
    top = (n + 1) * rematch_unit

    bye_candidates = [i for i in range(n - 1, -1, -1) if not ranked[i].had_bye]
    bye_cost = {i: k * bye_unit for k, i in enumerate(bye_candidates)}

    def is_rematch(i: int, j: int) -> bool:
        return ranked[j].id in ranked[i].opponents or ranked[i].id in ranked[j].opponents

    def pair_cost(i: int, j: int) -> int:
        gi, gj = group_of[i], group_of[j]
        # Same group: distance from the slide partner; another group: the nearest team.
        position = abs(j - i - group_size[gi] // 2) if gi == gj else j - i
        cost = (gi - gj) ** 2 * group_unit + position * pos_unit
        return cost + rematch_unit if is_rematch(i, j) else cost

    def windowed(window: int) -> Iterable[tuple[int, int]]:
        for i in range(n):
            for j in range(i + 1, min(n, i + window + 1)):
                yield i, j
            g = group_of[i]
            end = group_start[g] + group_size[g]
            slide = i + group_size[g] // 2
            for j in range(
                max(i + window + 1, slide - window // 2), min(end, slide + window // 2 + 1)
            ):
                yield i, j

    def complete() -> Iterable[tuple[int, int]]:
        for i in range(n):
            for j in range(i + 1, n):
                yield i, j

    stages: list[tuple[Iterable[tuple[int, int]], int | None, bool]] = []
    if n > EXACT_LIMIT:
        stages += [(windowed(w), w, False) for w in WINDOWS if w < n]
    stages += [(complete(), None, False), (complete(), None, True)]

    for candidate_pairs, window, allow_rematch in stages:
        matching = _match(
            n,
            candidate_pairs,
            bye_candidates[:window] if window else bye_candidates,
            needs_bye=needs_bye,
            pair_weight=lambda i, j: top - pair_cost(i, j),
            bye_weight=lambda i: top - bye_cost[i],
            allowed=(lambda i, j: True) if allow_rematch else (lambda i, j: not is_rematch(i, j)),
        )
        if matching is not None:
            break
    else:  # pragma: no cover - the last stage is complete with rematches, always perfect
        raise AssertionError("a complete graph always has a perfect matching")

    bye_team = None
    pairs: list[tuple[int, int]] = []
    for a, b in matching:
        if a == n or b == n:
            bye_team = ranked[min(a, b)].id
        else:
            pairs.append((min(a, b), max(a, b)))
    pairs.sort()
    pairings = tuple(Pairing(ranked[i].id, ranked[j].id) for i, j in pairs)
    rematches = tuple(p for p, (i, j) in zip(pairings, pairs, strict=True) if is_rematch(i, j))
    return SwissRound(pairings, bye_team, rematches)


def _match(
    n: int,
    candidate_pairs: Iterable[tuple[int, int]],
    bye_candidates: Sequence[int],
    *,
    needs_bye: bool,
    pair_weight: Callable[[int, int], int],
    bye_weight: Callable[[int], int],
    allowed: Callable[[int, int], bool],
) -> set[tuple[int, int]] | None:
    """A perfect maximum weight matching on the candidate edges, or None if there is none.

    Node ``n`` stands for the bye when the count is odd.
    """
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n + (1 if needs_bye else 0)))
    edges = [(i, j, pair_weight(i, j)) for i, j in candidate_pairs if allowed(i, j)]
    if needs_bye:
        edges += [(i, n, bye_weight(i)) for i in bye_candidates]
    graph.add_edges_from(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    if 2 * len(matching) != graph.num_nodes():
        return None
    return matching


def swiss_teams(
    standing: Sequence[TeamId],
    scores: Mapping[TeamId, float],
    opponents: Mapping[TeamId, Iterable[TeamId]],
    byes: Iterable[TeamId] = (),
) -> list[SwissTeam]:
    """Build the generator's input from plain mappings (teams absent from one get none).

    >>> swiss_teams(["A", "B"], {"A": 1}, {"A": ["B"], "B": ["A"]}, byes=["B"])[1]
    SwissTeam(id='B', score=0, opponents=frozenset({'A'}), had_bye=True)
    """
    had_bye = set(byes)
    return [
        SwissTeam(t, scores.get(t, 0), frozenset(opponents.get(t, ())), t in had_bye)
        for t in standing
    ]
