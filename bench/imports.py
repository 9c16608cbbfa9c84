"""Benchmark: import a CSV file of teams at the documented limits (docs/csv.md).

    .venv/bin/python bench/imports.py                      # a temporary SQLite database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/EMPTY_DB .venv/bin/python bench/imports.py

Builds two files at the limits of ``tournaments.io.imports``: ``MAX_ROWS`` rows of players
with long names (the file just under ``MAX_BYTES``), once as one-player teams (the most
teams a file can hold) and once as pairs; imports each into a new championship of a
database of its own and prints the file size, the teams and the time of the import.
The request timeout to compare with is gunicorn's default, 30 s.
"""

from __future__ import annotations

import datetime
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(rows: int, team_size: int) -> bytes:
    lines = ["team,player,seed,club"]
    for n in range(rows):
        team = n // team_size + 1
        seed = str(team) if n % team_size == 0 else ""
        lines.append(
            f"{f'Equipo {team:04d} ':x<200},{f'Jugador {n:04d} ':y<200},{seed},{'Club ':z<100}"
        )
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments.championships import services
    from tournaments.io import imports

    call_command("migrate", verbosity=0)
    print(f"database: {django.db.connection.vendor}; Python {sys.version.split()[0]}")
    print(f"limits: {imports.MAX_BYTES:,} bytes, {imports.MAX_ROWS:,} rows")
    print(f"{'team size':>9} {'bytes':>9} {'teams':>6} {'seconds':>8}")
    for size in (1, 2):
        data = build(imports.MAX_ROWS, size)
        assert len(data) <= imports.MAX_BYTES, len(data)
        championship = services.championship_create(
            name=f"Banco {size}", slug=f"bench-import-{size}", start_date=datetime.date(2026, 1, 1)
        )
        championship.team_size = size
        championship.save()
        start = time.perf_counter()
        created = imports.teams_import(championship=championship, file=data)
        seconds = time.perf_counter() - start
        print(f"{size:>9} {len(data):>9,} {len(created):>6,} {seconds:>8.2f}")


if __name__ == "__main__":
    main()
