"""The benchmarks still run: each script once, at a tiny size (their figures are in bench/)."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

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
