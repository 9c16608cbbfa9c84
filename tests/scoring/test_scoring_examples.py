"""Every worked ``hand`` record in ../shared/hand-examples scores exactly as shown there.

The folder sits beside the project checkout; a user's clone has none, so the test skips.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.errors import EngineError
from scoring.record import score_hand

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "hand-examples"


def _hand_examples() -> list[Path]:
    if not EXAMPLES.is_dir():
        return []
    return [
        path
        for path in sorted(EXAMPLES.glob("*.json"))
        if json.loads(path.read_text(encoding="utf-8")).get("command") == "hand"
    ]


def _matches(expected, got) -> bool:
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(_matches(v, got.get(k)) for k, v in expected.items())
    return expected == got


@pytest.mark.parametrize("path", _hand_examples(), ids=lambda p: p.stem)
def test_hand_example(path):
    example = json.loads(path.read_text(encoding="utf-8"))
    expected = example["expected"]
    if "error" in expected:
        with pytest.raises(EngineError) as info:
            score_hand(example["input"])
        assert _matches(expected["error"], info.value.to_dict()), example["note"]
    else:
        assert _matches(expected, score_hand(example["input"])), example["note"]


def test_the_examples_are_there_or_the_suite_says_so():
    if not EXAMPLES.is_dir():
        pytest.skip(f"{EXAMPLES} is absent (a plain clone of the project)")
    assert len(_hand_examples()) >= 11


def test_the_hand_record_md_example():
    # The input and output shown in docs/hand-record.md itself.
    record = {
        "rules": "argentine",
        "teams": {"A": ["ana", "beto"], "B": ["carla", "dani"]},
        "order": ["ana", "carla", "beto", "dani"],
        "score": {"A": 12, "B": 27},
        "cards": {"ana": ["1E", "7O", "4C"]},
        "events": [
            {"by": "carla", "call": "envido"},
            {"by": "beto", "call": "real_envido"},
            {"by": "dani", "answer": "quiero"},
            {"envido": {"ana": 7, "carla": 31}},
            {"trick": "B"},
            {"by": "ana", "call": "truco"},
            {"by": "carla", "answer": "no_quiero"},
        ],
    }
    assert score_hand(record) == {
        "points": {"A": 0, "B": 5},
        "score": {"A": 12, "B": 30},
        "items": [
            {
                "kind": "envido",
                "side": "B",
                "points": 5,
                "calls": ["envido", "real_envido"],
                "accepted": True,
            }
        ],
        "status": "game_over",
        "winner": "B",
    }
