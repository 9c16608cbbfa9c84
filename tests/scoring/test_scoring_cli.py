"""``python -m scoring``: the commands and the error contract (docs/hand-record.md)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import main

ROOT = Path(__file__).resolve().parents[2]

QUIET = {
    "rules": "argentine",
    "teams": {"A": ["ana"], "B": ["beto"]},
    "order": ["ana", "beto"],
    "score": {"A": 0, "B": 0},
    "events": [{"trick": "B"}, {"trick": "A"}, {"trick": "A"}],
}


def run(argv, data: bytes = b""):
    out = io.StringIO()
    code = main(argv, stdin=io.BytesIO(data), out=out)
    return code, out.getvalue()


def run_json(argv, data: bytes = b""):
    code, text = run(argv, data)
    return code, json.loads(text)


@pytest.mark.parametrize(
    ("argv", "printed"),
    [
        (["envido", "7E", "6E", "1O"], "33"),
        (["flor", "5E", "6E", "7E"], "38"),
        (["envido", "12C", "11O", "10B"], "0"),
        (["flor", "10C", "11C", "12C"], "20"),
    ],
)
def test_envido_and_flor_commands(argv, printed):
    assert run(argv) == (0, printed + "\n")


def test_hand_from_stdin_and_from_a_file(tmp_path):
    code, out = run_json(["hand", "-"], json.dumps(QUIET).encode())
    assert code == 0 and out["points"] == {"A": 1, "B": 0} and out["status"] == "complete"
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(QUIET), encoding="utf-8")
    assert run_json(["hand", str(path)]) == (0, out)


@pytest.mark.parametrize(
    ("argv", "data", "code"),
    [
        (["hand", "-"], b"{not json", "bad_json"),
        (["hand", "-"], b"\xff\xfe\x00garbage", "bad_encoding"),
        (["hand", "-"], b"[1, 2]", "bad_record"),
        (["hand", "-"], b"[" * 100000, "bad_json"),
        (["hand", "-"], json.dumps({**QUIET, "events": 5}).encode(), "bad_field"),
        (["hand", "/nonexistent/hand.json"], b"", "bad_arguments"),
        (["hand"], b"", "bad_arguments"),
        (["hand", "a", "b"], b"", "bad_arguments"),
        (["result"], b"", "bad_arguments"),
        (["result", "-"], b"[1, 2]", "result_invalid"),
        (["deal"], b"", "unknown_command"),
        ([], b"", "bad_arguments"),
        (["envido", "7E", "7E"], b"", "bad_arguments"),
        (["envido", "9E"], b"", "bad_card"),
        (["envido"], b"", "bad_arguments"),
        (["flor", "5E", "6E"], b"", "bad_arguments"),
        (["flor", "5E", "6E", "7O"], b"", "not_a_flor"),
    ],
)
def test_bad_input_exits_2_with_the_error_object(argv, data, code):
    status, out = run_json(argv, data)
    assert status == 2
    assert set(out) == {"error"}
    assert out["error"]["code"] == code
    assert set(out["error"]) >= {"code", "message", "event"}


def test_an_illegal_sequence_names_the_event():
    record = {**QUIET, "events": [{"by": "ana", "call": "truco"}, {"by": "ana", "call": "retruco"}]}
    status, out = run_json(["hand", "-"], json.dumps(record).encode())
    assert status == 2
    assert (out["error"]["code"], out["error"]["event"]) == ("answer_pending", 1)


# -- the real command line, as the referee tablet and scripts call it ----------------------
def _cli(*args: str, data: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        cwd=ROOT,
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_python_m_scoring_end_to_end():
    proc = _cli("envido", "7E", "6E", "1O")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"33\n", b"")
    proc = _cli("hand", "-", data=json.dumps(QUIET).encode())
    assert proc.returncode == 0 and json.loads(proc.stdout)["score"] == {"A": 1, "B": 0}
    proc = _cli("hand", "-", data=b"\x00\x01not json at all")
    assert proc.returncode == 2 and proc.stderr == b""
    assert json.loads(proc.stdout)["error"]["code"] in ("bad_json", "bad_encoding")
    proc = _cli("shuffle")
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"]["code"] == "unknown_command"


def test_non_ascii_names_survive_the_round_trip():
    record = json.loads(json.dumps(QUIET).replace("ana", "Núria").replace("beto", "Pau"))
    record["events"].insert(0, {"penalty": {"to": "B", "points": 1, "reason": "senyes"}})
    proc = _cli("hand", "-", data=json.dumps(record, ensure_ascii=False).encode("utf-8"))
    assert proc.returncode == 0
    assert json.loads(proc.stdout.decode("utf-8"))["items"][0]["reason"] == "senyes"


def test_match_errors_name_the_hand():
    match = {
        "rules": "argentine",
        "teams": {"A": ["ana"], "B": ["beto"]},
        "seats": ["ana", "beto"],
        "hands": [
            {"events": [{"trick": "A"}, {"trick": "A"}]},
            {"events": [{"by": "beto", "call": "truco"}, {"by": "beto", "answer": "quiero"}]},
        ],
    }
    status, out = run_json(["match", "-"], json.dumps(match).encode())
    assert status == 2
    assert (out["error"]["code"], out["error"]["event"], out["error"]["hand"]) == (
        "not_answering_side",
        1,
        1,
    )
    status, out = run_json(["match", "-"], json.dumps({**match, "rules": "x"}).encode())
    assert (status, out["error"]["code"], out["error"]["hand"]) == (2, "unknown_preset", None)
    status, out = run_json(["match", "-"], b"{")
    assert (status, out["error"]["code"], out["error"]["hand"]) == (2, "bad_json", None)


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_the_usage_and_exits_0(flag):
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", flag], cwd=ROOT, capture_output=True, timeout=60
    )
    assert proc.returncode == 0 and proc.stderr == b""
    text = proc.stdout.decode()
    assert text.startswith("usage: python -m scoring")
    commands = ("hand FILE", "match FILE", "result FILE", "archive-check FILE", "envido", "flor")
    assert all(command in text for command in commands)


@pytest.mark.parametrize("argv", [["envido", b"\xff"], ["hand", b"/nonexistent/\xff.json"]])
def test_arguments_that_are_not_utf8_get_the_error_object(argv):
    # Python hands undecodable argument bytes over as lone surrogates; the error message
    # echoes them and must still be printed as JSON, never a traceback.
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", *argv], cwd=ROOT, capture_output=True, timeout=60
    )
    assert proc.returncode == 2 and proc.stderr == b""
    assert set(json.loads(proc.stdout)) == {"error"}
