"""Helpers for the engine tests: build a hand record around a list of events.

Seats (playing order, the mano first): two players ana (A) v beto (B); four players
ana, beto, alba, bruno; six players adds aina (A) and bru (B) at the end. Catalan records
get ana and beto as caps de colla.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import EngineError
from scoring.record import score_hand

SEATS = {
    2: (["ana"], ["beto"], ["ana", "beto"]),
    3: (["ana"], ["beto", "bruno"], ["ana", "beto", "bruno"]),
    4: (["ana", "alba"], ["beto", "bruno"], ["ana", "beto", "alba", "bruno"]),
    6: (
        ["ana", "alba", "aina"],
        ["beto", "bruno", "bru"],
        ["ana", "beto", "alba", "bruno", "aina", "bru"],
    ),
}


def make_record(
    events: list[dict[str, Any]],
    rules: Any = "argentine",
    players: int = 2,
    score: tuple[int, int] = (0, 0),
    **extra: Any,
) -> dict[str, Any]:
    a, b, order = SEATS[players]
    record: dict[str, Any] = {
        "rules": rules,
        "teams": {"A": a, "B": b},
        "order": order,
        "score": {"A": score[0], "B": score[1]},
        "events": events,
    }
    preset = rules if isinstance(rules, str) else rules.get("preset")
    if preset == "catalan":
        record["captains"] = {"A": "ana", "B": "beto"}
    record.update(extra)
    return record


def score(events: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    """score_hand of the record built by :func:`make_record`."""
    return score_hand(make_record(events, **kwargs))


def refused(events: list[dict[str, Any]], **kwargs: Any) -> EngineError:
    """The EngineError score_hand raises for this record (fails the test if none)."""
    with pytest.raises(EngineError) as info:
        score(events, **kwargs)
    return info.value


@pytest.fixture
def hand():
    return score


@pytest.fixture
def illegal():
    return refused


@pytest.fixture
def record():
    return make_record
