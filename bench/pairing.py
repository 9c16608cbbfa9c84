"""Benchmark the Swiss pairing: N teams, a few rounds of random results, time the next.

    .venv/bin/python bench/pairing.py --teams 1024 [--rounds 5] [--seed 1] [--repeat 3]
                                      [--complete-graph]

Prints ``pairing N teams: X.XX s`` (the best of ``--repeat`` timings of the pairing of
round ``rounds + 1``, from the standings a championship would have then).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats import swiss
from tournaments.formats.swiss import SwissTeam, swiss_pairings, swiss_teams
from tournaments.standings.tiebreaks import MatchResult, standings

CHAIN = ["points", "buchholz", "chico_diff", "lots"]


def current_standing(teams: list[int], results: list[MatchResult], seed: int) -> list[SwissTeam]:
    rows = standings(teams, results, chain=CHAIN, seed=seed)
    opponents: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        opponents[row.team] = row.totals.opponents
    return swiss_teams(
        [r.team for r in rows],
        {r.team: r.totals.points for r in rows},
        opponents,
        byes=[r.team for r in rows if r.totals.byes],
    )


def play_round(standing: list[SwissTeam], rnd: random.Random) -> list[MatchResult]:
    pairing = swiss_pairings(standing)
    results = []
    for p in pairing.pairings:
        winner = rnd.choice((p.home, p.away))
        loser_chicos = rnd.choice((0, 1))
        winner_tantos = 2 * 30 + loser_chicos * 30
        loser_tantos = rnd.randrange(0, 30) * 2 + loser_chicos * 30
        if winner == p.home:
            results.append(
                MatchResult(p.home, p.away, winner, 2, loser_chicos, winner_tantos, loser_tantos)
            )
        else:
            results.append(
                MatchResult(p.home, p.away, winner, loser_chicos, 2, loser_tantos, winner_tantos)
            )
    if pairing.bye is not None:
        results.append(MatchResult(pairing.bye))
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=5, help="rounds played before the timed one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--complete-graph",
        action="store_true",
        help="match on the complete graph for comparison (no candidate window)",
    )
    args = parser.parse_args(argv)
    if args.complete_graph:
        swiss.EXACT_LIMIT = args.teams

    rnd = random.Random(args.seed)
    teams = list(range(1, args.teams + 1))
    results: list[MatchResult] = []
    for _ in range(args.rounds):
        results += play_round(current_standing(teams, results, args.seed), rnd)

    start = time.perf_counter()
    standing = current_standing(teams, results, args.seed)
    standings_time = time.perf_counter() - start
    timings = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        pairing = swiss_pairings(standing)
        timings.append(time.perf_counter() - start)
    print(f"pairing {args.teams} teams: {min(timings):.2f} s")
    print(
        f"  (standings {standings_time:.2f} s; {len(pairing.pairings)} matches, "
        f"bye {pairing.bye}, rematches {len(pairing.rematches)})",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
