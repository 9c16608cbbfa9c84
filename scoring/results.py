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
from scoring.errors import error

__all__ = ["Game", "HandResult", "Item", "MatchHand", "MatchResult", "MatchState", "NextHand"]


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
    after it; ``parts`` the scored sub-hands of a pica-pica hand (those counted).
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


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands between two hands: all the match layer needs to score the next
    hand without replaying the ones before it.

    ``hands`` is the number of hands played, ``mano`` the index in ``seats`` of the next
    hand's mano, ``score`` the running score of the chico (or joc) being played, ``wins``
    the chicos each side has won, ``hands_in_chico`` the hands counted in the current chico
    (void and redealt hands are not), ``last_kind`` the kind of the last hand counted in it
    (``""`` at the start of a chico), ``games`` the finished chicos and ``winner`` the
    match's winner (None while undecided).

    ``to_dict()`` is plain JSON (a database column can hold it) and ``from_dict()`` reads
    it back, refusing anything else with ``match_invalid``. Get one from
    :func:`scoring.score_match_result` (``.state``) or :func:`scoring.score_next_hand`.

    >>> state = MatchState.start(["A", "B"])
    >>> state.to_dict()["score"], MatchState.from_dict(state.to_dict()) == state
    ({'A': 0, 'B': 0}, True)
    """

    hands: int
    mano: int
    score: Mapping[str, int]
    wins: Mapping[str, int]
    hands_in_chico: int = 0
    last_kind: str = ""
    games: tuple[Game, ...] = ()
    winner: str | None = None

    #: The version of :meth:`to_dict`'s format; another one is refused by :meth:`from_dict`.
    VERSION = 1

    @classmethod
    def start(cls, sides: Any) -> MatchState:
        """The state before the first hand of a match between ``sides``."""
        return cls(hands=0, mano=0, score=dict.fromkeys(sides, 0), wins=dict.fromkeys(sides, 0))

    def next_hand(self, match_head: Mapping[str, Any]) -> NextHand | None:
        """The next hand's context (None once the match is decided), from this state and
        ``match_head``, the match record without its hands (``rules``, ``teams``,
        ``seats``, ``captains``): the same as ``score_match_result(record).next``.

        >>> head = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
        ...         "seats": ["ana", "beto"]}
        >>> upcoming = MatchState.start(["A", "B"]).next_hand(head)
        >>> upcoming.number, upcoming.mano, upcoming.record["order"]
        (1, 'ana', ['ana', 'beto'])
        """
        # The match layer imports this module: imported here, when a state is used.
        from scoring.match import next_hand_from_state

        return next_hand_from_state(match_head, self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.VERSION,
            "hands": self.hands,
            "mano": self.mano,
            "score": dict(self.score),
            "wins": dict(self.wins),
            "hands_in_chico": self.hands_in_chico,
            "last_kind": self.last_kind,
            "games": [g.to_dict() for g in self.games],
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchState:
        """Back from :meth:`to_dict`; ``match_invalid`` for anything else."""

        def bad(why: str) -> Exception:
            return error("match_invalid", detail=f"The match state is invalid: {why}.")

        if not isinstance(data, Mapping) or data.get("version") != cls.VERSION:
            raise bad("not a state of this version")
        if set(data) != set(cls.start(()).to_dict()):
            raise bad("its fields are not those of a state")

        def count(value: Any) -> int:
            if type(value) is not int or value < 0:
                raise bad("a count is not a whole number")
            return value

        def points(value: Any) -> dict[str, int]:
            if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
                raise bad("a score is not an object of sides")
            return {side: count(n) for side, n in value.items()}

        games = data["games"]
        if not isinstance(games, list) or not all(
            isinstance(g, Mapping)
            and set(g) == {"winner", "score"}
            and isinstance(g["winner"], str)
            for g in games
        ):
            raise bad("'games' is not a list of games")
        if data["last_kind"] not in ("", "redondo", "pica_pica"):
            raise bad("'last_kind' is not a kind of hand")
        if data["winner"] is not None and not isinstance(data["winner"], str):
            raise bad("'winner' is not a side")
        return cls(
            hands=count(data["hands"]),
            mano=count(data["mano"]),
            score=points(data["score"]),
            wins=points(data["wins"]),
            hands_in_chico=count(data["hands_in_chico"]),
            last_kind=data["last_kind"],
            games=tuple(Game(g["winner"], points(g["score"])) for g in games),
            winner=data["winner"],
        )


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A whole match record scored: its hands, its finished games, the winner (None while
    undecided), the next hand's context (None once decided) and the match's ``state``
    after its last hand (what :func:`scoring.score_next_hand` goes on from)."""

    hands: tuple[MatchHand, ...]
    games: tuple[Game, ...]
    winner: str | None
    next: NextHand | None
    state: MatchState | None = None

    def to_dict(self) -> dict[str, Any]:
        """The output object of ``python -m scoring match``."""
        return {
            "hands": [h.to_dict() for h in self.hands],
            "games": [g.to_dict() for g in self.games],
            "winner": self.winner,
        }
