"""Fuzzing ``python -m scoring hand -`` in a subprocess: any input gets an exit status and
a message, never a traceback (docs/hand-record.md's error contract)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_cli(data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "hand", "-"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=30,
    )


def assert_answered(done: subprocess.CompletedProcess) -> None:
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    assert b"Traceback" not in done.stderr, done.stderr[-2000:]


@FUZZ
@given(data=st.binary(max_size=200))
@example(data=b"\xff\xfe\x00")
@example(data=b"[" * 100_000)
def test_random_bytes(data):
    assert_answered(run_cli(data))


def _hand(name: str, call: str) -> dict:
    return {
        "rules": "argentine",
        "teams": {"A": [name], "B": ["b"]},
        "order": [name, "b"],
        "score": {"A": 0, "B": 0},
        "events": [{"by": name, "call": call}],
    }


@FUZZ
@given(name=st.text(min_size=1, max_size=5), call=st.text(max_size=5))
@example(name="a", call="\ud800")
def test_strings_with_lone_surrogates(name, call):
    assert_answered(run_cli(json.dumps(_hand(name, call)).encode()))
