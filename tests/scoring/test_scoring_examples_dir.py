"""Every record in ``examples/`` (the README's command-line examples) scores as it says.

Each file is a hand record (``hand-*.json``) or a match record (``match-*.json``) with two
extra fields the scorer ignores: ``about``, the story in words, and ``expected``, the part
of the output it must produce (or the ``error`` it must exit with).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from scoring.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FILES = sorted(EXAMPLES.glob("*.json"))


def _matches(expected, got) -> bool:
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(_matches(v, got.get(k)) for k, v in expected.items())
    if isinstance(expected, list):
        return (
            isinstance(got, list)
            and len(got) == len(expected)
            and all(_matches(e, g) for e, g in zip(expected, got, strict=True))
        )
    return expected == got


class _Out(io.StringIO):
    pass


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_example_scores_as_stated(path):
    example = json.loads(path.read_text(encoding="utf-8"))
    command = path.stem.split("-")[0]
    out = _Out()
    code = main([command, str(path)], out=out)
    printed = json.loads(out.getvalue())
    assert code == (2 if "error" in example["expected"] else 0), printed
    assert _matches(example["expected"], printed), example["about"]


def test_there_are_hand_and_match_examples_including_seed_001():
    names = {p.stem for p in FILES}
    assert "hand-console-game" in names and any(n.startswith("match-") for n in names)
