"""Catalan joc: the rule of 11 (*mestre*), both sides at 11, and the *podrides* redeal.

docs/rules.md "Catalan joc and the rule of 11" (seed ``002``):

- A side at 11 while the other is below 11 is mestre: before anything else its cap de
  colla decides to ``play`` or ``pass``; in a hand the mestre plays nobody may announce.
- ``mestre_penalty: to_opponent`` (default): pass gives the other side 1; playing makes
  the hand worth 3 to its winner. ``from_mestre`` (literal ``002``): pass takes 1 from the
  mestre; playing and losing takes 3 from it; winning scores 1 (negative points here are
  the rule).
- Both sides at 11 go back to 6 at once: a hand never starts at 11–11.
- Three pardas (*podrides*): the hand is dealt again, no points (``tricks.hand_result``).

>>> mestre_side({"A": 11, "B": 7})
'A'
>>> reset_eleven({"A": 11, "B": 11})
{'A': 6, 'B': 6}
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.errors import error
from scoring.state import HandState

__all__ = ["check_decision", "mestre_item", "mestre_side", "reset_eleven"]

MESTRE = 11
BACK_TO = 6
PLAY_VALUE = 3


def reset_eleven(score: Mapping[str, int]) -> dict[str, int]:
    """Both sides at 11: both back to 6; any other score is returned unchanged."""
    for value in score.values():
        if value != MESTRE:
            return dict(score)
    return dict.fromkeys(score, BACK_TO)


def mestre_side(score: Mapping[str, int]) -> str | None:
    """The side at 11 while the other is below 11, if any."""
    at = [s for s, v in score.items() if v == MESTRE]
    return at[0] if len(at) == 1 else None


def check_decision(state: HandState, by: str) -> None:
    if state.mestre is None:
        raise error("not_mestre")
    if state.mestre_decision is not None:
        raise error("mestre_decided")
    captain = state.captains[state.mestre]
    if by != captain:
        raise error("not_captain", captain=captain, side=state.mestre)


def mestre_item(state: HandState) -> dict[str, object] | None:
    """The scoring line of a hand under the rule of 11 (pass, or played and won by
    ``state.winner``)."""
    mestre = state.mestre
    assert mestre is not None
    other = state.other(mestre)
    from_mestre = state.rules.mestre_penalty == "from_mestre"
    if state.decided == "mestre_pass":
        side, points = (mestre, -1) if from_mestre else (other, 1)
        return {"kind": "mestre", "side": side, "points": points, "decision": "pass"}
    if state.winner is None:
        return None
    if from_mestre:
        side, points = (mestre, 1) if state.winner == mestre else (mestre, -PLAY_VALUE)
    else:
        side, points = state.winner, PLAY_VALUE
    return {"kind": "mestre", "side": side, "points": points, "decision": "play"}
