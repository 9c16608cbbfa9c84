"""Round robin by the circle method (Berger tables): single or double cycle, a bye when odd.

The first team stays fixed and the others rotate one place a round, which gives every
pair exactly once per cycle and, with an odd count, one bye per team. Home and away follow
Berger's alternation: in a cycle every team is home as often as away, give or take one,
with the fewest possible breaks; the second cycle mirrors the first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.formats.base import FormatError, Pairing, TeamId, check_teams


@dataclass(frozen=True)
class Round:
    """One round of a schedule: its matches and the team sitting out (odd counts only)."""

    number: int
    cycle: int
    pairings: tuple[Pairing, ...]
    bye: TeamId | None = None


def round_robin(
    teams: Iterable[TeamId], *, cycles: int = 1, seed: int | str | None = None
) -> list[Round]:
    """Every round of a round robin over ``teams``.

    With ``seed`` the team order is first shuffled reproducibly (same seed, same
    schedule); without it the given order is used as is. ``cycles=2`` plays every pair
    twice, home and away swapped.

    >>> [[(p.home, p.away) for p in r.pairings] for r in round_robin(["A", "B", "C", "D"])]
    [[('A', 'D'), ('C', 'B')], [('C', 'A'), ('B', 'D')], [('A', 'B'), ('D', 'C')]]
    >>> [r.bye for r in round_robin([1, 2, 3])]
    [3, 2, 1]
    """
    order = check_teams(teams)
    if cycles not in (1, 2):
        raise FormatError("bad_cycles", f"a round robin has 1 or 2 cycles, not {cycles}")
    if seed is not None:
        random.Random(f"{seed}").shuffle(order)
    # With an odd count the bye is the fixed slot, so it never upsets the alternation.
    slots: list[TeamId | None] = [None, *order] if len(order) % 2 else list(order)
    n = len(slots)
    first_cycle: list[tuple[list[tuple[TeamId, TeamId]], TeamId | None]] = []
    for r in range(n - 1):
        pairs: list[tuple[TeamId, TeamId]] = []
        bye = None
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            # Berger: the fixed team alternates each round and the other rows alternate
            # by position, so as the teams rotate they mostly alternate home and away
            # (n - 2 breaks in all, the minimum).
            if (r % 2 == 1) if i == 0 else (i % 2 == 1):
                a, b = b, a
            if a is None or b is None:
                bye = b if a is None else a
                continue
            pairs.append((a, b))
        first_cycle.append((pairs, bye))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    rounds = []
    for cycle in range(1, cycles + 1):
        for pairs, bye in first_cycle:
            pairings = tuple(Pairing(a, b) if cycle == 1 else Pairing(b, a) for a, b in pairs)
            rounds.append(Round(len(rounds) + 1, cycle, pairings, bye))
    return rounds
