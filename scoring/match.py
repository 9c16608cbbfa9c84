"""The match: a sequence of hands scored into chicos (or catalan jocs) and a partida.

docs/rules.md "Scoring a game", "Six and eight players", "Three players, gallo" and
docs/hand-record.md "Scoring a match". This module is the match layer's front: a whole
match record scored (:func:`score_match_result`, :func:`score_match`), one more hand from
where a match stands (:func:`score_next_hand`, :class:`MatchState`), the next hand's
context. How each hand is played at the table and counted into chicos (mano rotation,
redondo and pica-pica, the gallo, closing chicos) is :mod:`scoring.table`; this module
replays records through it and carries its state between requests.

>>> result = score_match({
...     "rules": {"preset": "argentine", "target": 15, "best_of": 1},
...     "teams": {"A": ["ana"], "B": ["beto"]},
...     "seats": ["ana", "beto"],
...     "hands": [{"events": [{"by": "beto", "mazo": True}]}],
... })
>>> result["hands"][0]["points"], result["winner"]
({'A': 2, 'B': 0}, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import EngineError, error
from scoring.record import check_text
from scoring.results import Game, MatchHand, NextHand
from scoring.table import PAIR_DETAIL, Table, check_teams, new_table

__all__ = [
    "MatchResult",
    "MatchState",
    "next_hand",
    "next_hand_from_state",
    "score_match",
    "score_match_result",
    "score_next_hand",
    "subhand_record",
]


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


def _fail(code: str, *, hand: int | None = None, **params: Any) -> EngineError:
    return error(code, hand=hand, **params)


def _with_hand(error: EngineError, hand: int) -> EngineError:
    """Tag an error raised while scoring one hand with that hand's index."""
    error.hand = hand
    return error


def score_match_result(record: Mapping[str, Any]) -> MatchResult:
    """Score a whole match record into a typed :class:`~scoring.match.MatchResult`.

    Each hand carries its number, game, kind, playing order (mano first), the score before
    it, its points, the score after it and its status; ``next`` is the next hand's
    context, or None once the match is decided.

    >>> result = score_match_result({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...     "seats": ["ana", "beto"], "hands": [{"events": [{"trick": "A"}, {"trick": "A"}]}]})
    >>> hand = result.hands[0]
    >>> hand.order, hand.score_before, hand.score, hand.status
    (('ana', 'beto'), {'A': 0, 'B': 0}, {'A': 1, 'B': 0}, <HandStatus.COMPLETE: 'complete'>)
    >>> result.next.number, result.next.mano, result.next.score
    (2, 'beto', {'A': 1, 'B': 0})
    """
    table = _replay(record)
    return MatchResult(
        hands=tuple(table.hands),
        games=tuple(table.games),
        winner=table.winner,
        next=table.next_hand(),
        state=_state(table),
    )


def score_next_hand(
    match_head: Mapping[str, Any], state: MatchState | None, entry: Mapping[str, Any]
) -> tuple[MatchHand, MatchState]:
    """Score one more hand of a match from the state the hands before it left.

    ``match_head`` is the match record without its hands (``rules``, ``teams``, ``seats``,
    ``captains``; a ``hands`` field is ignored), ``state`` the match's
    :class:`~scoring.match.MatchState` after its last hand (None before the first) and
    ``entry`` the new hand's entry of the match record. Returns the hand as the match
    layer scored it and the state after it: exactly what :func:`score_match_result` gives
    for the whole record with ``entry`` appended (its last hand and its ``state``), without
    replaying the hands before. Errors are those of :func:`score_match_result`, with
    ``hand`` the new hand's index.

    >>> head = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...         "seats": ["ana", "beto"]}
    >>> hand, state = score_next_hand(head, None, {"events": [{"trick": "B"}, {"trick": "B"}]})
    >>> hand.number, hand.mano, hand.score, state.hands
    (1, 'ana', {'A': 0, 'B': 1}, 1)
    >>> hand, state = score_next_hand(head, state, {"events": [{"trick": "A"}, {"trick": "A"}]})
    >>> hand.number, hand.mano, hand.score_before, hand.score
    (2, 'beto', {'A': 0, 'B': 1}, {'A': 1, 'B': 1})
    >>> state.next_hand(head).mano
    'ana'
    """
    table = _table(match_head, state)
    index = table.count
    if table.winner is not None:
        raise _fail("match_over", hand=index, winner=table.winner, number=index + 1)
    if not isinstance(entry, Mapping):
        raise _fail("hand_invalid", hand=index, number=index + 1)
    try:
        check_text(entry)
        table.play(entry, index)
    except EngineError as error:
        raise _with_hand(error, index) from None
    return table.hands[-1], _state(table)


def next_hand_from_state(
    match_head: Mapping[str, Any], state: MatchState | None
) -> NextHand | None:
    """The next hand's context from a state (:meth:`MatchState.next_hand`; None: before
    the first hand), or None once the match is decided."""
    return _table(match_head, state).next_hand()


def score_match(record: Mapping[str, Any]) -> dict[str, Any]:
    """Score a whole match record (docs/hand-record.md, ``python -m scoring match``).

    Returns ``{"hands": [{"points", "score", "status"}, ...], "games": [{"winner",
    "score"}, ...], "winner": side or None}``; raises :class:`EngineError` with ``hand``
    set to the index of the offending hand (``None`` when the record as a whole is wrong).

    >>> rec = {"rules": "catalan", "teams": {"A": ["anna"], "B": ["biel"]},
    ...        "captains": {"A": "anna", "B": "biel"}, "seats": ["anna", "biel"],
    ...        "hands": [{"events": [{"trick": "A"}, {"trick": "A"}]}]}
    >>> score_match(rec)["hands"][0]["score"]
    {'A': 1, 'B': 0}
    """
    return score_match_result(record).to_dict()


def next_hand(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the next hand of a match is, for a referee about to record it.

    ``record`` is a match record (its ``hands`` may be empty). Returns ``None`` once the
    match is decided, else ``{"number", "game", "kind", "mano", "score", "record"}``:
    the hand's 1-based number, the chico/joc it belongs to, ``"redondo"`` or
    ``"pica_pica"``, its mano, the running score, and for a redondo the hand record to
    feed :func:`scoring.record.hand_from_record` once its ``events`` are filled in (for
    a pica-pica hand, build each pair's record with :func:`subhand_record`).

    >>> rec = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...        "seats": ["ana", "beto"],
    ...        "hands": [{"events": [{"trick": "A"}, {"trick": "A"}]}]}
    >>> info = next_hand(rec)
    >>> info["number"], info["mano"], info["score"], info["record"]["order"]
    (2, 'beto', {'A': 1, 'B': 0}, ['beto', 'ana'])
    """
    upcoming = _replay(record).next_hand()
    return None if upcoming is None else upcoming.to_dict()


def subhand_record(
    info: Mapping[str, Any], record: Mapping[str, Any], first: str, second: str
) -> dict[str, Any]:
    """The two-player hand record of one pica-pica pair, ``first`` being its mano.

    ``info`` is what :func:`next_hand` returned for a pica-pica hand and ``record`` the
    match record; the events are left empty for the referee to fill in.
    """
    teams = check_teams(record.get("teams"))
    side_of = {p: side for side, members in teams.items() for p in members}
    if first not in side_of or second not in side_of or side_of[first] == side_of[second]:
        raise _fail("pica_pica_invalid", detail=PAIR_DETAIL)
    return {
        "rules": record.get("rules"),
        "teams": {side_of[first]: [first], side_of[second]: [second]},
        "order": [first, second],
        "score": dict(info["score"]),
        "pica_pica": True,
        "events": [],
    }


def _replay(record: Mapping[str, Any]) -> Table:
    """Play every hand of a match record, returning the table as it stands after them."""
    if not isinstance(record, Mapping):
        raise _fail("match_invalid", detail="The match record must be a JSON object.")
    check_text(record)
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise _fail("match_invalid", detail="'hands' must be a list of hand records.")
    table = new_table(record)
    for index, hand in enumerate(hands):
        if table.winner is not None:
            raise _fail("match_over", hand=index, winner=table.winner, number=index + 1)
        if not isinstance(hand, Mapping):
            raise _fail("hand_invalid", hand=index, number=index + 1)
        try:
            table.play(hand, index)
        except EngineError as error:
            raise _with_hand(error, index) from None
    return table


def _table(match_head: Mapping[str, Any], state: MatchState | None) -> Table:
    """The table of a match record's head as ``state`` left it (None: the first hand)."""
    if not isinstance(match_head, Mapping):
        raise _fail("match_invalid", detail="The match record must be a JSON object.")
    check_text({k: v for k, v in match_head.items() if k != "hands"})
    table = new_table(match_head)
    if state is not None:
        _restore(table, state)
    return table


# -- the state between hands --------------------------------------------------------------
def _state(table: Table) -> MatchState:
    """Where the match at ``table`` stands now, to go on from with :func:`_restore`."""
    return MatchState(
        hands=table.count,
        mano=table.mano,
        score=dict(table.score),
        wins=dict(table.wins),
        hands_in_chico=table.hands_in_chico,
        last_kind=table.last_kind,
        games=tuple(table.games),
        winner=table.winner,
    )


def _restore(table: Table, state: MatchState) -> None:
    """Set ``table`` at ``state`` (``match_invalid`` if it cannot be a state of its match)."""
    sides = set(table.teams)
    if (
        set(state.score) != sides
        or set(state.wins) != sides
        or not 0 <= state.mano < len(table.seats)
        or any(g.winner not in sides or set(g.score) != sides for g in state.games)
        or state.winner not in (None, *sides)
        or (state.winner is None) != (max(state.wins.values()) < table.need)
        or any(state.wins[s] != sum(g.winner == s for g in state.games) for s in sides)
        or any(n >= table.rules.target for n in state.score.values())
    ):
        raise _fail("match_invalid", detail="The match state does not fit this match.")
    table.count = state.hands
    table.mano = state.mano
    table.score = dict(state.score)
    table.wins = dict(state.wins)
    table.hands_in_chico = state.hands_in_chico
    table.last_kind = state.last_kind
    table.games = list(state.games)
    table.winner = state.winner
