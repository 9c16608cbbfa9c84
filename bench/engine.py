"""Engine benchmark: parse and score random legal hand records through ``score_hand``.

Generates seeded random hands (``scoring.simulate``) across every preset and player count,
serialises them to JSON, then times ``json.loads`` + ``score_hand`` over all of them and
prints hands per second, separately for quick entry (trick winners) and detailed entry
(cards played). Reproducible: same seed, same records.

    .venv/bin/python bench/engine.py [--hands 4000] [--repeat 5] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.record import score_hand
from scoring.simulate import PLAYER_COUNTS, random_hand

PRESETS = ("argentine", "argentine_flor", "trucardo", "catalan")


def make_records(count: int, *, detailed: bool, seed: int) -> list[str]:
    """``count`` random legal hands as JSON texts, cycling through presets and sizes."""
    rng = random.Random(seed)
    texts = []
    for i in range(count):
        preset = PRESETS[i % len(PRESETS)]
        counts = PLAYER_COUNTS["catalan" if preset == "catalan" else "argentine"]
        players = counts[(i // len(PRESETS)) % len(counts)]
        record, _ = random_hand(rng, preset, players=players, detailed=detailed)
        texts.append(json.dumps(record))
    return texts


def time_scoring(texts: list[str], repeat: int) -> tuple[float, float]:
    """Best and median hands per second over ``repeat`` passes of parse + score."""
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        for text in texts:
            score_hand(json.loads(text))
        rates.append(len(texts) / (time.perf_counter() - start))
    rates.sort()
    return rates[-1], rates[len(rates) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.system()})")
    for detailed in (False, True):
        texts = make_records(args.hands, detailed=detailed, seed=args.seed)
        events = sum(len(json.loads(t)["events"]) for t in texts) / len(texts)
        best, median = time_scoring(texts, args.repeat)
        mode = "detailed" if detailed else "quick"
        print(
            f"{mode:8s} {args.hands} hands, {events:.1f} events/hand: "
            f"best {best:,.0f} hands/s, median {median:,.0f} hands/s"
        )


if __name__ == "__main__":
    main()
