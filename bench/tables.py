"""Benchmark the Swiss system of tables of three: N players, some rounds of random
tables, time the seating of the next round.

    .venv/bin/python bench/tables.py --players 30 [--rounds 4] [--seed 1] [--repeat 3]

Prints ``tables N players after R rounds: X.XXX s, exact, repeats K`` (the best of
``--repeat`` timings of ``tournaments.formats.tables.tables_swiss`` for round
``rounds + 1``, from the placement points and meetings a championship would have then).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats.tables import TablesRound, tables_swiss

POINTS = (3, 1, 0)  # the default placement points


def play(
    players: list[int], points: dict[int, float], met: dict[int, set[int]], rnd: random.Random
) -> TablesRound:
    """One round: seat it as a championship would, then random places at each table."""
    order = sorted(players, key=lambda p: -points[p])
    seated = tables_swiss(order, points, met, remainder="table_of_two", seed=rnd.random())
    for table in seated.tables:
        ranked = list(table)
        rnd.shuffle(ranked)
        for place, player in enumerate(ranked):
            points[player] += POINTS[place] if len(table) == 3 else (3, 0)[place]
            met[player].update(p for p in table if p != player)
    return seated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    players = list(range(1, args.players + 1))
    points: dict[int, float] = dict.fromkeys(players, 0.0)
    met: dict[int, set[int]] = defaultdict(set)
    for _ in range(args.rounds):
        play(players, points, met, rnd)
    order = sorted(players, key=lambda p: -points[p])
    best = float("inf")
    result = None
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = tables_swiss(order, points, met, remainder="table_of_two", seed=args.seed)
        best = min(best, time.perf_counter() - start)
    assert result is not None
    exact = "exact" if result.exact else "best found (budget)"
    print(
        f"tables {args.players} players after {args.rounds} rounds: {best:.3f} s, "
        f"{exact}, repeats {len(result.repeats)}"
    )


if __name__ == "__main__":
    main()
