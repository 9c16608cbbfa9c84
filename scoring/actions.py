"""Actions: one small frozen dataclass per event kind of docs/hand-record.md.

Each action serialises back to its event with ``to_event()`` and :func:`action_from_event`
parses an event dict (checking its shape and types, not its legality: that is
:func:`scoring.hand.apply`'s job).

>>> action_from_event({"by": "ana", "call": "truco"})
Call(by='ana', call='truco')
>>> Play("ana", parse_card("7E")).to_event()
{'by': 'ana', 'play': '7E'}
>>> action_from_event({"by": "ana", "answer": "maybe"})
Traceback (most recent call last):
...
scoring.errors.RecordError: Event 1 is not a valid event: unknown answer 'maybe'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.cards import CATALAN_48, Card, parse_card
from scoring.errors import EngineError, error

__all__ = [
    "ANSWERS",
    "Action",
    "Answer",
    "Call",
    "EnvidoPoints",
    "EnvidoWinner",
    "FlorPoints",
    "FlorWinner",
    "Mazo",
    "MestreDecision",
    "Penalty",
    "Play",
    "Trick",
    "Void",
    "action_from_event",
]

ANSWERS = ("quiero", "no_quiero", "con_flor_me_achico", "con_flor_quiero")
PARDA = "parda"


@dataclass(frozen=True, slots=True)
class Call:
    """``{"by": P, "call": C}``: truco/envido/flor family call or raise."""

    by: str
    call: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "call": self.call}


@dataclass(frozen=True, slots=True)
class Answer:
    """``{"by": P, "answer": A}``: quiero, no_quiero, con_flor_me_achico, con_flor_quiero."""

    by: str
    answer: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "answer": self.answer}


@dataclass(frozen=True, slots=True)
class Play:
    """``{"by": P, "play": "7E"}``: detailed entry, a card played."""

    by: str
    card: Card

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "play": str(self.card)}


@dataclass(frozen=True, slots=True)
class Trick:
    """``{"trick": S}``: quick entry, side S (or ``"parda"``) took the next trick."""

    winner: str

    def to_event(self) -> dict[str, Any]:
        return {"trick": self.winner}


@dataclass(frozen=True, slots=True)
class Mazo:
    """``{"by": P, "mazo": true}``: P folds."""

    by: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "mazo": True}


@dataclass(frozen=True, slots=True)
class EnvidoPoints:
    """``{"envido": {P: n}}``: an accepted envido settled by declared points."""

    points: tuple[tuple[str, int], ...]

    def to_event(self) -> dict[str, Any]:
        return {"envido": dict(self.points)}


@dataclass(frozen=True, slots=True)
class EnvidoWinner:
    """``{"envido_winner": S}``: an accepted envido settled by the referee's word."""

    side: str

    def to_event(self) -> dict[str, Any]:
        return {"envido_winner": self.side}


@dataclass(frozen=True, slots=True)
class FlorPoints:
    """``{"flor": {P: n}}``: a contested flor settled by declared points."""

    points: tuple[tuple[str, int], ...]

    def to_event(self) -> dict[str, Any]:
        return {"flor": dict(self.points)}


@dataclass(frozen=True, slots=True)
class FlorWinner:
    """``{"flor_winner": S}``: a contested flor settled by the referee's word."""

    side: str

    def to_event(self) -> dict[str, Any]:
        return {"flor_winner": self.side}


@dataclass(frozen=True, slots=True)
class MestreDecision:
    """``{"by": P, "mestre": "play" | "pass"}``: catalan rule of 11, by the cap de colla."""

    by: str
    decision: str

    def to_event(self) -> dict[str, Any]:
        return {"by": self.by, "mestre": self.decision}


@dataclass(frozen=True, slots=True)
class Penalty:
    """``{"penalty": {"to": S, "points": n, "reason": "..."}}``: a referee's award."""

    to: str
    points: int
    reason: str

    def to_event(self) -> dict[str, Any]:
        return {"penalty": {"to": self.to, "points": self.points, "reason": self.reason}}


@dataclass(frozen=True, slots=True)
class Void:
    """``{"void": "reason"}``: the referee annuls the hand."""

    reason: str

    def to_event(self) -> dict[str, Any]:
        return {"void": self.reason}


Action = (
    Call
    | Answer
    | Play
    | Trick
    | Mazo
    | EnvidoPoints
    | EnvidoWinner
    | FlorPoints
    | FlorWinner
    | MestreDecision
    | Penalty
    | Void
)

_KINDS = (
    "call",
    "answer",
    "play",
    "mazo",
    "mestre",
    "trick",
    "envido",
    "envido_winner",
    "flor",
    "flor_winner",
    "penalty",
    "void",
)
_KIND_SET = frozenset(_KINDS)
_BY_KINDS = frozenset(("call", "answer", "play", "mazo", "mestre"))


_ABSENT = object()  # an event without "by" (a "by": null is a value, and refused)
# Events repeat (the same player calls truco, the same side takes a trick, hand after
# hand): an event already parsed is answered with the action it gave, since building a
# frozen dataclass was the largest part of parsing one. Actions are values, so sharing
# them is safe; the key holds everything the parse depends on, the deck included. Emptied
# when it reaches _MEMO_MAX entries, so no input can make it grow without end.
_MEMO: dict[tuple[Any, ...], Action] = {}
_MEMO_MAX = 4096
_MEMO_KINDS = frozenset(("call", "answer", "play", "mestre", "trick"))


def _bad(index: int, detail: str) -> EngineError:
    return error("bad_event", event=index, number=index + 1, detail=detail)


def action_from_event(event: Any, deck: frozenset[Card] = CATALAN_48, *, index: int = 0) -> Action:
    """Parse one event of a record into an :class:`Action` (``index`` names it in errors)."""
    # type() first: isinstance against the Mapping ABC is slow on the hot path.
    if type(event) is not dict and not isinstance(event, Mapping):
        raise _bad(index, "an event must be a JSON object")
    kind = None
    for key in event:  # a loop, not a comprehension: no frame to build on the hot path
        if key in _KIND_SET:
            if kind is not None:
                raise _bad(index, "it must hold exactly one action")
            kind = key
    if kind is None:
        raise _bad(index, "it holds no known action")
    value = event[kind]
    by = event.get("by", _ABSENT)
    if type(value) is str and kind in _MEMO_KINDS and (type(by) is str or by is _ABSENT):
        memo_key = (kind, by, value, deck)
        action = _MEMO.get(memo_key)
        if action is None:
            action = _parse(kind, value, by, deck, index)
            if len(_MEMO) >= _MEMO_MAX:
                _MEMO.clear()
            _MEMO[memo_key] = action
        return action
    return _parse(kind, value, by, deck, index)


def _parse(kind: str, value: Any, by: Any, deck: frozenset[Card], index: int) -> Action:
    """The action of an event whose one action is ``kind: value`` (``by``: its "by", or
    ``_ABSENT``)."""
    if kind in _BY_KINDS:
        if not isinstance(by, str) or not by:
            raise _bad(index, f"'{kind}' needs the player in 'by'")
        if kind == "call":
            if not isinstance(value, str):
                raise _bad(index, "the call must be a name")
            return Call(by, value)
        if kind == "answer":
            if value not in ANSWERS:
                raise _bad(index, f"unknown answer {_show(value)}")
            return Answer(by, value)
        if kind == "play":
            if not isinstance(value, str):
                raise _bad(index, "the card must be written like 7E")
            try:
                return Play(by, parse_card(value, deck))
            except EngineError as exc:
                exc.event = index
                raise
        if kind == "mazo":
            if value is not True:
                raise _bad(index, "'mazo' must be true")
            return Mazo(by)
        if value not in ("play", "pass"):
            raise _bad(index, "'mestre' must be play or pass")
        return MestreDecision(by, value)
    if by is not _ABSENT:
        raise _bad(index, f"'{kind}' takes no 'by'")
    if kind == "trick" or kind.endswith("_winner"):
        if not isinstance(value, str) or not value:
            raise _bad(index, f"'{kind}' must name a side")
        if kind == "trick":
            return Trick(value)
        return EnvidoWinner(value) if kind == "envido_winner" else FlorWinner(value)
    if kind in ("envido", "flor"):
        if not isinstance(value, Mapping) or not value:
            raise _bad(index, f"'{kind}' must map players to their points")
        points = []
        for player, n in value.items():
            if type(n) is not int or not 0 <= n <= 38:
                raise _bad(index, f"the {kind} points of {player} must be a whole number 0–38")
            points.append((player, n))
        cls = EnvidoPoints if kind == "envido" else FlorPoints
        return cls(tuple(points))
    if kind == "penalty":
        if not isinstance(value, Mapping):
            raise _bad(index, "'penalty' must be an object with to, points and reason")
        to, points, reason = value.get("to"), value.get("points"), value.get("reason", "")
        if not isinstance(to, str) or not to:
            raise _bad(index, "the penalty must name the side it goes 'to'")
        if type(points) is not int or points < 1:
            raise _bad(index, "the penalty points must be a whole number of at least 1")
        if not isinstance(reason, str):
            raise _bad(index, "the penalty reason must be text")
        return Penalty(to, points, reason)
    if not isinstance(value, str):
        raise _bad(index, "'void' must give the reason as text")
    return Void(value)


def _show(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else type(value).__name__
