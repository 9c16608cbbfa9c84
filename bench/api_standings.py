"""Benchmark: reads per second of the API's standings endpoint, served by gunicorn.

    .venv/bin/python bench/api_standings.py                  # a temporary SQLite database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/EMPTY_DB .venv/bin/python bench/api_standings.py

Builds, in a database of its own (a temporary SQLite file unless ``DATABASE_URL`` names an
empty PostgreSQL database), a running championship of ``--teams`` pairs in a single round
robin with every round generated and every match decided (walkovers: the standings read
results, not hands), so the standings have a full table and the stored snapshot. Then it
starts gunicorn (``--workers`` sync workers, DEBUG off, throttles out of the way) on a free
port and has ``--clients`` threads GET ``/api/v1/championships/<slug>/stages/<id>/standings/``
for ``--seconds``, once plainly (200) and once with the ETag of the first answer
(``If-None-Match``: 304). Prints requests per second and the median latency of each.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(teams: int) -> str:
    """The championship, in the database of ``DATABASE_URL``; returns the standings path."""
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments.championships import services as championship_services
    from tournaments.results import services as result_services
    from tournaments.stages import services as stage_services
    from tournaments.standings import selectors as standing_selectors

    call_command("migrate", verbosity=0)
    championship = championship_services.championship_create(
        name="Banco de pruebas", slug="bench-api", start_date=datetime.date(2026, 1, 1)
    )
    for n in range(1, teams + 1):
        championship_services.team_create(
            championship=championship, name=f"Pareja {n}", seed=n, players=[f"J{n}a", f"J{n}b"]
        )
    for status in ("registration", "running"):
        championship_services.championship_set_status(championship=championship, status=status)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    for _ in range(teams - 1 + teams % 2):
        for match in stage_services.round_generate(stage=stage):
            if not match.is_bye:
                winner = match.team_a if match.team_a.seed < match.team_b.seed else match.team_b
                result_services.match_walkover(match=match, winner=winner, reason="bench")
    lines = standing_selectors.stage_standings(stage=stage)
    assert len(lines) == teams
    return f"/api/v1/championships/{championship.slug}/stages/{stage.pk}/standings/"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, response.getheader("ETag") or ""


def hammer(port: int, path: str, headers: dict, clients: int, seconds: float, expect: int):
    latencies: list[float] = []
    errors: list[int] = []
    stop = time.perf_counter() + seconds

    def client() -> None:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            status, _ = get(port, path, headers)
            latencies.append(time.perf_counter() - start)
            if status != expect:
                errors.append(status)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    assert not errors, f"unexpected statuses: {sorted(set(errors))}"
    return len(latencies) / elapsed, statistics.median(latencies) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()

    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "false",
            "SECRET_KEY": "bench-" * 10,
            "SECURE_SSL_REDIRECT": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "API_THROTTLE_ANON": "100000000/min",
            "LOG_LEVEL": "WARNING",
        }
    )
    sys.path.insert(0, str(ROOT))
    path = build(args.teams)

    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            f"--workers={args.workers}",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
    )
    try:
        for _ in range(100):
            try:
                status, etag = get(port, path, {})
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200, status
        for _ in range(20):  # warm every worker
            get(port, path, {})
        vendor = "PostgreSQL" if os.environ["DATABASE_URL"].startswith("postgres") else "SQLite"
        print(
            f"{vendor}, {args.teams} teams, {args.workers} gunicorn workers, "
            f"{args.clients} clients, {args.seconds:.0f} s each"
        )
        plain = hammer(port, path, {}, args.clients, args.seconds, 200)
        print(f"  GET 200:                {plain[0]:7.0f} req/s, median {plain[1]:.1f} ms")
        cached = hammer(port, path, {"If-None-Match": etag}, args.clients, args.seconds, 304)
        print(f"  GET If-None-Match, 304: {cached[0]:7.0f} req/s, median {cached[1]:.1f} ms")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
