"""Typed, frozen results: one hand (:class:`HandResult`) and one match (:class:`MatchResult`).

The command line prints the plain dicts of docs/hand-record.md; these classes carry the
same values with names and types, plus what the match layer knows and the JSON leaves
out: each hand's number, game, kind, playing order and score before it, and the context
of the next hand. ``to_dict()`` gives back exactly the JSON of the command line.

>>> r = HandResult.from_dict({"points": {"A": 1, "B": 0}, "score": {"A": 1, "B": 0},
...     "items": [{"kind": "truco", "side": "A", "points": 1, "calls": []}],
...     "status": "complete", "winner": None})
>>> r.status is HandStatus.COMPLETE, r.items[0].kind, r.items[0].details["calls"]
(True, 'truco', [])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.enums import HandKind, HandStatus

__all__ = ["Game", "HandResult", "Item", "MatchHand", "NextHand"]


@dataclass(frozen=True, slots=True)
class Item:
    """One scoring line of a hand: ``kind`` (envido, flor, truco, mazo, penalty, mestre),
    the ``side`` it goes to, its ``points`` and the rest of its fields in ``details``."""

    kind: str
    side: str
    points: int
    details: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, item: Mapping[str, Any]) -> Item:
        rest = {k: v for k, v in item.items() if k not in ("kind", "side", "points")}
        return cls(item["kind"], item["side"], item["points"], rest)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "points": self.points, **self.details}


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand scored: the points each side made in it (not capped), the score after it
    (capped at the target), its items, its status, and the chico's winner if it ended."""

    points: Mapping[str, int]
    score: Mapping[str, int]
    items: tuple[Item, ...]
    status: HandStatus
    winner: str | None

    @classmethod
    def from_dict(cls, result: Mapping[str, Any]) -> HandResult:
        return cls(
            points=dict(result["points"]),
            score=dict(result["score"]),
            items=tuple(Item.from_dict(i) for i in result["items"]),
            status=HandStatus(result["status"]),
            winner=result["winner"],
        )

    def to_dict(self) -> dict[str, Any]:
        """The output object of ``python -m scoring hand``."""
        return {
            "points": dict(self.points),
            "score": dict(self.score),
            "items": [i.to_dict() for i in self.items],
            "status": str(self.status),
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class MatchHand:
    """One hand of a match as the match layer scored it.

    ``number`` counts from 1 over the whole match, ``game`` the chico (or joc) it belongs
    to; ``order`` is the seats from this hand's mano on (a pica-pica hand's pairs are in
    ``pairs``); ``score_before`` / ``score`` are the running score of the chico before and
    after it; ``parts`` the scored hand records (one for a redondo, the counted sub-hands
    of a pica-pica hand) and ``records`` the complete hand records they were scored from,
    one per part (what :func:`scoring.facts.match_hand_facts` reads who called what in).
    """

    number: int
    game: int
    kind: HandKind
    order: tuple[str, ...]
    score_before: Mapping[str, int]
    points: Mapping[str, int]
    score: Mapping[str, int]
    status: HandStatus
    gallo: str | None = None
    pairs: tuple[tuple[str, str], ...] = ()
    parts: tuple[HandResult, ...] = ()
    records: tuple[Mapping[str, Any], ...] = field(default=(), compare=False, repr=False)
    # The side that won the chico with this hand (status game_over), as the match layer
    # decided it: with the gallo por turno two players may reach the target at once.
    chico_winner: str | None = None

    @property
    def mano(self) -> str:
        return self.order[0]

    def to_dict(self) -> dict[str, Any]:
        """The hand's entry in ``python -m scoring match``'s output."""
        return {"points": dict(self.points), "score": dict(self.score), "status": str(self.status)}


@dataclass(frozen=True, slots=True)
class Game:
    """A finished chico (or joc): its winner and its final score."""

    winner: str
    score: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "score": dict(self.score)}


@dataclass(frozen=True, slots=True)
class NextHand:
    """What the next hand of an undecided match is, for a referee about to record it.

    ``record`` is the hand record to fill with events for a redondo (None for pica-pica:
    each pair's record comes from :func:`scoring.match.subhand_record`).
    """

    number: int
    game: int
    kind: HandKind
    order: tuple[str, ...]
    score: Mapping[str, int]
    record: Mapping[str, Any] | None
    gallo: str | None = None

    @property
    def mano(self) -> str:
        return self.order[0]

    @classmethod
    def from_dict(cls, info: Mapping[str, Any]) -> NextHand:
        """Back from :meth:`to_dict` (what :func:`scoring.match.next_hand` returns)."""
        record = info.get("record")
        return cls(
            number=info["number"],
            game=info["game"],
            kind=HandKind(info["kind"]),
            order=tuple(info["order"]),
            score=dict(info["score"]),
            record=None if record is None else dict(record),
            gallo=None if record is None else record.get("gallo"),
        )

    def to_dict(self) -> dict[str, Any]:
        """The dict of :func:`scoring.match.next_hand`."""
        return {
            "number": self.number,
            "game": self.game,
            "kind": str(self.kind),
            "mano": self.mano,
            "order": list(self.order),
            "score": dict(self.score),
            "record": None if self.record is None else dict(self.record),
        }
