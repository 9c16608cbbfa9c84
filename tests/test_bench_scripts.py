"""The benchmarks still run: each script once, at a tiny size (their figures are in bench/)."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tournaments.models import CheckIn, Match

ROOT = Path(settings.BASE_DIR)

SCRIPTS = [
    [
        "bench/circuit_ranking.py",
        "--events",
        "3",
        "--people",
        "60",
        "--teams",
        "8",
        "--rounds",
        "2",
        "--repeat",
        "1",
    ],
    ["bench/engine.py", "--hands", "20", "--repeat", "1"],
    ["bench/pairing.py", "--teams", "16", "--rounds", "2", "--repeat", "1"],
    ["bench/exports.py", "--hands", "50"],
    ["bench/statistics_pages.py", "--hands", "60", "--repeat", "1"],
    [
        "bench/ratings.py",
        "--matches",
        "200",
        "--people",
        "100",
        "--championships",
        "2",
        "--repeat",
        "1",
        "--updates",
        "2",
    ],
]


@pytest.mark.parametrize("command", SCRIPTS, ids=lambda c: c[0])
def test_the_benchmark_runs(command):
    # A database of its own: the scripts make a temporary SQLite one without DATABASE_URL.
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    done = subprocess.run(
        [sys.executable, *command],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="bench/load/setup.py builds its day on PostgreSQL"
)
def test_the_load_days_players_check_in_report_and_confirm_through_their_links(
    asgi_live_server, tmp_path, monkeypatch
):
    """The load benchmark's day (bench/load/setup.py) built in this test's database, then
    its players (bench/load/players.py) sent by Locust to the site: every team checks in
    from its link, each match where the teams report is reported by one and confirmed by
    the other, and the summary names each kind (``link act``: the three acts together)."""
    data = tmp_path / "data.json"
    spec = importlib.util.spec_from_file_location("bench_load_setup", ROOT / "bench/load/setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    argv = ["setup.py", "--tables", "2", "--report-tables", "2", "--out", str(data)]
    monkeypatch.setattr(sys, "argv", argv)
    setup.main()
    day = json.loads(data.read_text())
    assert len(day["teams"]) == 8 and all(team["token"] for team in day["teams"])

    summary = tmp_path / "summary.json"
    env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PYTHONPATH")},
        "BENCH_LOAD_DATA": str(data),
        "BENCH_SUMMARY": str(summary),
        "BENCH_TABLES": "0",  # the referees have a benchmark of their own: players alone
        "BENCH_SPECTATORS": "0",
        "BENCH_PLAYERS": "8",
        # The day in a few seconds: every act is there, no player waits longer than a
        # second between two of them once checked in.
        "BENCH_DURATION": "10",
        "BENCH_CHECK_IN": "3",
        "BENCH_PLAYER_THINK": "0.5,1",
        "BENCH_PLAYER_TOLD": "0.5,1",
    }
    done = subprocess.run(
        [
            *(str(Path(sys.executable).parent / "locust"), "-f", "bench/load/locustfile.py"),
            *("--headless", "--host", asgi_live_server.url, "-u", "8", "-r", "8", "-t", "12s"),
            *("--stop-timeout", "2", "--only-summary", "--loglevel", "WARNING"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    summed = json.loads(summary.read_text())
    kinds = summed["kinds"]
    failed = {k: kinds[k]["failures"] for k in kinds if kinds[k]["failures"]}
    assert failed == {}, summed["errors"]
    assert kinds["check-in"]["requests"] == 8
    assert (kinds["report"]["requests"], kinds["confirm"]["requests"]) == (2, 2)
    assert kinds["link act"]["requests"] == 12
    assert {"link", "search", "team", "person"} <= set(kinds)
    # What the players did is in the database: every team present for the afternoon's
    # round, each reported result confirmed by both teams.
    assert CheckIn.objects.filter(present=True, stage__name="Suizo de la tarde").count() == 8
    reported = Match.objects.filter(pk__in=day["report_matches"])
    assert all(m.confirmed_at and m.reported_side for m in reported)
