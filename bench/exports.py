"""Benchmark: stream the CSV exports of a championship with many hands; memory stays flat.

    .venv/bin/python bench/exports.py                      # 10,000 then 100,000 hands, SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tanteo_bench .venv/bin/python bench/exports.py

Builds, in a database of its own (a temporary SQLite file unless ``DATABASE_URL`` names an
empty PostgreSQL database), one championship whose single match holds the hands: the
first is recorded through the services, the others are copies of it written in bulk (the
export reads rows; it does not re-score them). Then it exports hands, matches and
standings at each size and prints, per export, the rows, the CSV size, the time and the
peak memory traced while streaming (``tracemalloc``). Flat memory means the peak at the
largest size is about the peak at the smallest.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCH = 10_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=int, nargs="+", default=[10_000, 100_000], help="sizes, ascending"
    )
    args = parser.parse_args()

    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments.championships import services as championship_services
    from tournaments.io import exports
    from tournaments.models import Hand
    from tournaments.results import services as result_services
    from tournaments.stages import services as stage_services

    call_command("migrate", verbosity=0)
    championship = championship_services.championship_create(
        name="Banco de pruebas", slug="bench-exports", start_date=datetime.date(2026, 1, 1)
    )
    for name in ("Los Anchos", "La Parda"):
        championship_services.team_create(
            championship=championship, name=name, players=[f"{name} 1", f"{name} 2"]
        )
    # Hands are recorded only while a championship is running.
    for status in ("registration", "running"):
        championship_services.championship_set_status(championship=championship, status=status)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    match = result_services.match_start(match=match)
    # Both players of the second side go to the mazo at once: a short, legal hand.
    folds = {"events": [{"by": p, "mazo": True} for p in match.seats[1::2]]}
    result_services.hand_record(match=match, record=folds, recorded_by=None)
    model = Hand.objects.get(match=match)

    print(f"database: {django.db.connection.vendor}; Python {sys.version.split()[0]}")
    print(f"{'hands':>8} {'export':>9} {'rows':>8} {'CSV MB':>7} {'seconds':>8} {'peak MB':>8}")
    have = 1
    for size in sorted(args.hands):
        while have < size:
            upto = min(have + BATCH, size)
            Hand.objects.bulk_create(
                Hand(
                    match=match,
                    number=n,
                    record=model.record,
                    order=model.order,
                    points_a=model.points_a,
                    points_b=model.points_b,
                    status=model.status,
                )
                for n in range(have + 1, upto + 1)
            )
            have = upto
        for kind in ("hands", "matches", "standings"):
            # One pass timed, one traced: tracemalloc slows Python down several times.
            started = time.perf_counter()
            rows, written = _drain(exports.export_csv(championship, kind))
            elapsed = time.perf_counter() - started
            tracemalloc.start()
            _drain(exports.export_csv(championship, kind))
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(
                f"{size:>8,} {kind:>9} {rows:>8,} {written / 1e6:>7.1f} {elapsed:>8.2f}"
                f" {peak / 1e6:>8.1f}"
            )
    folder.cleanup()


def _drain(lines: Iterable[str]) -> tuple[int, int]:
    """Consume an export: its data rows (the header left out) and its size in bytes."""
    rows = -1
    written = 0
    for line in lines:
        rows += line.count("\n")
        written += len(line.encode())
    return rows, written


if __name__ == "__main__":
    main()
