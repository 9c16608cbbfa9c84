"""Malas, buenas and mestre: where a side's score stands, per rule set."""

import pytest

from scoring import RuleSet, phase

ARGENTINE = RuleSet.from_spec("argentine")
TO_15 = RuleSet.from_spec({"preset": "argentine", "target": 15})
CATALAN = RuleSet.from_spec("catalan")


@pytest.mark.parametrize(
    ("rules", "score", "side", "expected"),
    [
        (ARGENTINE, {"A": 0, "B": 0}, "A", ("malas", 0)),
        (ARGENTINE, {"A": 14, "B": 0}, "A", ("malas", 14)),
        (ARGENTINE, {"A": 15, "B": 0}, "A", ("buenas", 0)),
        (ARGENTINE, {"A": 22, "B": 3}, "A", ("buenas", 7)),
        (ARGENTINE, {"A": 22, "B": 3}, "B", ("malas", 3)),
        (TO_15, {"A": 14, "B": 0}, "A", None),
        (CATALAN, {"A": 11, "B": 10}, "A", ("mestre", 11)),
        (CATALAN, {"A": 11, "B": 10}, "B", None),
        (CATALAN, {"A": 10, "B": 3}, "A", None),
        # A side the score does not name yet (a chico's first hand) has no points.
        (ARGENTINE, {"A": 20}, "B", ("malas", 0)),
        (CATALAN, {"A": 11}, "A", ("mestre", 11)),
    ],
)
def test_phase_names_the_half_or_the_mestre(rules, score, side, expected):
    found = phase(rules, score, side)
    assert (tuple(found) if found else None) == expected
