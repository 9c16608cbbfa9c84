"""Where a side's score stands in the chico (or joc), in the words players use.

A target of 30 has two halves of 15: below 15 a side is in *malas*, from 15 on in
*buenas*, and players count each half from 0 ("3 buenas" is 18). A target of 15 has no
halves. Catalan 12 has no halves either; its one landmark is the rule of 11: a side at 11
while the other is below is *mestre* (docs/rules.md, seed ``002``).

>>> from scoring.rules import RuleSet
>>> phase(RuleSet.from_spec("argentine"), {"A": 18, "B": 7}, "A")
Phase(name='buenas', count=3)
>>> phase(RuleSet.from_spec("argentine"), {"A": 18, "B": 7}, "B")
Phase(name='malas', count=7)
>>> phase(RuleSet.from_spec("catalan"), {"A": 11, "B": 4}, "A")
Phase(name='mestre', count=11)
>>> phase(RuleSet.from_spec({"preset": "argentine", "target": 15}), {"A": 3, "B": 0}, "A")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from scoring.catalan import mestre_side
from scoring.rules import RuleSet

__all__ = ["Phase", "phase"]


class Phase(NamedTuple):
    """``name`` is ``malas``, ``buenas`` or ``mestre``; ``count`` the points as players say
    them (counted from the start of the half)."""

    name: str
    count: int


def phase(rules: RuleSet, score: Mapping[str, int], side: str) -> Phase | None:
    """The phase of ``side`` at ``score`` (each side's points in the chico; a side not
    named has none yet, as in a chico's first hand), or None when the rule set names none
    there."""
    points = score.get(side, 0)
    if rules.has_halves:
        if points < rules.half:
            return Phase("malas", points)
        return Phase("buenas", points - rules.half)
    if rules.has_mestre and mestre_side(score) == side:
        return Phase("mestre", points)
    return None
