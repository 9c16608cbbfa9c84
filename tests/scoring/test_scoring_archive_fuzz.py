"""Fuzzing ``python -m scoring archive-check -`` in a subprocess: random bytes, random JSON,
truncated files, wrong types, huge numbers and deep nesting all get an exit status and a
JSON answer, never a traceback (docs/hand-record.md's error contract)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.scoring.archives import duel_archive

ROOT = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HONEST = json.dumps(duel_archive(hands=6)).encode()


def run_cli(data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "archive-check", "-"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def assert_answered(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    assert b"Traceback" not in done.stderr, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    if done.returncode == 2:
        assert set(answer["error"]) >= {"code", "message", "event", "path"}
    return answer


@FUZZ
@given(data=st.binary(max_size=300))
@example(data=b"\xff\xfe\x00")
@example(data=b"[" * 100_000)
@example(data=b'{"format": "tanteo-archive", "version": 1, "championship": ' + b"[" * 5000)
def test_random_bytes(data):
    assert_answered(run_cli(data))


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(HONEST)))
def test_truncated_files(cut):
    assert_answered(run_cli(HONEST[:cut]))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)
PLACES = [
    ("championship",),
    ("championship", "rules"),
    ("matches",),
    ("matches", 0),
    ("matches", 0, "lineup"),
    ("matches", 0, "seats"),
    ("matches", 0, "best_of"),
    ("matches", 0, "hands", 0),
    ("matches", 0, "hands", 0, "record"),
    ("matches", 0, "hands", 0, "record", "events"),
    ("matches", 0, "hands", 1, "points"),
    ("matches", 0, "games"),
    ("matches", 0, "id"),
]


@FUZZ
@given(place=st.sampled_from(PLACES), value=JSON)
@example(place=("matches", 0, "best_of"), value=10**4000)
@example(place=("matches", 0, "hands", 1, "points"), value={"A": 10**300, "B": -1})
@example(
    place=("matches", 0, "hands", 0, "record", "events"), value=[{"by": "\ud800", "call": "truco"}]
)
def test_wrong_types_anywhere(place, value):
    archive = json.loads(HONEST)
    target = archive
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    try:
        data = json.dumps(archive).encode("utf-8", "surrogatepass")
    except ValueError:
        return  # a float hypothesis made that JSON cannot carry
    assert_answered(run_cli(data))


def test_deep_nesting_inside_a_valid_archive():
    archive = json.loads(HONEST)
    archive["matches"][0]["hands"][0]["record"]["events"] = json.loads("[" * 900 + "]" * 900)
    answer = assert_answered(run_cli(json.dumps(archive).encode()))
    assert answer.get("agree") is False or "error" in answer
