"""The match: a sequence of hands scored into chicos (or catalan jocs) and a partida.

docs/rules.md "Scoring a game", "Six and eight players", "Three players, gallo" and
docs/hand-record.md "Scoring a match". Each hand is scored by :func:`scoring.record.score_hand`
with the running score of its chico; this module only decides what the hand record is
(whose turn to be mano, which kind of hand, who is the gallo), carries the score from hand
to hand, closes chicos and decides the match.

- Mano rotation: the mano moves one seat along ``seats`` each hand, across chicos too; a
  void hand or a redeal keeps it (``000``, ``003``).
- A chico ends the moment a side reaches the target; the next hand starts a new one at 0.
  The match is won by the first side with a majority of ``best_of`` chicos.
- Six and eight players with ``pica_pica``: each chico opens with a *redondo* hand and then
  alternates redondo and pica-pica until a side reaches ``pica_pica_until``; a pica-pica hand
  is a list of two-player sub-hands whose points go to their sides (``003``).
- Three players (gallo): with ``gallo: fijo`` the teams are the gallo's side and the pair's
  side and nothing else changes. With ``gallo: por_turno`` every player is his own side,
  the dealer (the player before the mano) is the gallo, and what the pair wins is credited
  to each of its two players (``003``).

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

from scoring.enums import HandKind, HandStatus
from scoring.errors import EngineError, error
from scoring.record import check_text, score_hand
from scoring.results import Game, HandResult, MatchHand, NextHand
from scoring.rules import RuleSet

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

# Side-valued fields of hand events; in a gallo por turno hand they may name either pair
# member's side (docs/hand-record.md), so they are rewritten to the pair's side before scoring.
_SIDE_FIELDS = ("trick", "envido_winner", "flor_winner")
_PAIR_DETAIL = "Each pica-pica sub-hand names two opponents in 'order', its mano first."


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
        state=table.state(),
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
    return table.hands[-1], table.state()


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
    teams = _teams(record.get("teams"))
    side_of = {p: side for side, members in teams.items() for p in members}
    if first not in side_of or second not in side_of or side_of[first] == side_of[second]:
        raise _fail("pica_pica_invalid", detail=_PAIR_DETAIL)
    return {
        "rules": record.get("rules"),
        "teams": {side_of[first]: [first], side_of[second]: [second]},
        "order": [first, second],
        "score": dict(info["score"]),
        "pica_pica": True,
        "events": [],
    }


def _replay(record: Mapping[str, Any]) -> _Table:
    """Play every hand of a match record, returning the table as it stands after them."""
    if not isinstance(record, Mapping):
        raise _fail("match_invalid", detail="The match record must be a JSON object.")
    check_text(record)
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise _fail("match_invalid", detail="'hands' must be a list of hand records.")
    table = _new_table(record)
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


def _new_table(record: Mapping[str, Any]) -> _Table:
    """The table before the first hand of a match record (its hands are not looked at)."""
    rules_spec = record.get("rules")
    rules = RuleSet.from_spec(rules_spec)
    teams = _teams(record.get("teams"))
    seats = _seats(record.get("seats"), teams)
    return _Table(rules, rules_spec, teams, seats, record.get("captains"))


def _table(match_head: Mapping[str, Any], state: MatchState | None) -> _Table:
    """The table of a match record's head as ``state`` left it (None: the first hand)."""
    if not isinstance(match_head, Mapping):
        raise _fail("match_invalid", detail="The match record must be a JSON object.")
    check_text({k: v for k, v in match_head.items() if k != "hands"})
    table = _new_table(match_head)
    if state is not None:
        table.restore(state)
    return table


def _teams(value: Any) -> dict[str, list[str]]:
    if not isinstance(value, Mapping) or len(value) < 2:
        raise _fail(
            "match_invalid", detail="'teams' must map each side to the list of its players."
        )
    teams: dict[str, list[str]] = {}
    for side, players in value.items():
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(p, str) and p for p in players)
        ):
            raise _fail("match_invalid", detail=f"Side {side} must have a list of player names.")
        teams[str(side)] = list(players)
    return teams


def _seats(value: Any, teams: Mapping[str, list[str]]) -> list[str]:
    players = [p for members in teams.values() for p in members]
    if not isinstance(value, list) or sorted(map(str, value)) != sorted(players):
        raise _fail("seats_invalid")
    return list(value)


class _Table:
    """The running state of a match between its hands."""

    def __init__(
        self,
        rules: RuleSet,
        rules_spec: Any,
        teams: dict[str, list[str]],
        seats: list[str],
        captains: Any,
    ) -> None:
        self.rules = rules
        self.rules_spec = rules_spec
        self.teams = teams
        self.seats = seats
        self.captains = captains
        self.side_of = {p: side for side, members in teams.items() for p in members}
        self.need = rules.best_of // 2 + 1
        self.gallo_por_turno = len(seats) == 3 and len(teams) == 3
        self._check_shape()
        self.count = 0  # hands played
        self.mano = 0
        self.score = dict.fromkeys(teams, 0)
        self.wins = dict.fromkeys(teams, 0)
        self.hands_in_chico = 0
        self.last_kind = ""
        self.hands: list[MatchHand] = []
        self._parts: list[HandResult] = []  # the hand being played: its scored sub-hands
        self._records: list[dict[str, Any]] = []  # and the hand records they were scored from
        self._pairs: tuple[tuple[str, str], ...] = ()
        self.games: list[Game] = []
        self.winner: str | None = None

    def _check_shape(self) -> None:
        if len(self.seats) != 3:
            return
        # docs/rules.md "Three players": por turno gives each player his own score, fijo has the
        # pair share one; a record must say which by the shape of its teams.
        if self.rules.gallo == "por_turno" and len(self.teams) != 3:
            raise _fail(
                "gallo_teams",
                detail="With gallo por turno each of the three players is a side of his own.",
            )
        if self.rules.gallo == "fijo" and sorted(map(len, self.teams.values())) != [1, 2]:
            raise _fail(
                "gallo_teams",
                detail="With gallo fijo the teams are the gallo alone and the pair together.",
            )

    # -- the state between hands ------------------------------------------------------
    def state(self) -> MatchState:
        """Where the match stands now, to go on from with :meth:`restore`."""
        return MatchState(
            hands=self.count,
            mano=self.mano,
            score=dict(self.score),
            wins=dict(self.wins),
            hands_in_chico=self.hands_in_chico,
            last_kind=self.last_kind,
            games=tuple(self.games),
            winner=self.winner,
        )

    def restore(self, state: MatchState) -> None:
        """Go on from ``state`` (``match_invalid`` if it cannot be a state of this match)."""
        sides = set(self.teams)
        if (
            set(state.score) != sides
            or set(state.wins) != sides
            or not 0 <= state.mano < len(self.seats)
            or any(g.winner not in sides or set(g.score) != sides for g in state.games)
            or state.winner not in (None, *sides)
            or (state.winner is None) != (max(state.wins.values()) < self.need)
            or any(state.wins[s] != sum(g.winner == s for g in state.games) for s in sides)
            or any(n >= self.rules.target for n in state.score.values())
        ):
            raise _fail("match_invalid", detail="The match state does not fit this match.")
        self.count = state.hands
        self.mano = state.mano
        self.score = dict(state.score)
        self.wins = dict(state.wins)
        self.hands_in_chico = state.hands_in_chico
        self.last_kind = state.last_kind
        self.games = list(state.games)
        self.winner = state.winner

    # -- one hand -------------------------------------------------------------------
    def order(self) -> list[str]:
        """The next hand's playing order, its mano first."""
        return self.seats[self.mano :] + self.seats[: self.mano]

    def play(self, hand: Mapping[str, Any], index: int) -> None:
        order = self.order()
        before = dict(self.score)
        kind = self.expected_kind()
        self._parts, self._records, self._pairs = [], [], ()
        gallo = self.redondo_fields(order).get("gallo") if kind == "redondo" else None
        if "pica_pica" in hand and hand["pica_pica"] is not None:
            if kind != "pica_pica":
                raise _fail("redondo_expected", hand=index, number=index + 1)
            points, status = self._play_pica_pica(hand["pica_pica"], index)
        else:
            if kind == "pica_pica":
                raise _fail("pica_pica_expected", hand=index, number=index + 1)
            points, status = self._play_redondo(hand, order)

        if status not in ("void", "redeal"):
            self.mano = (self.mano + 1) % len(self.seats)
            self.last_kind = kind
            self.hands_in_chico += 1
        self.count += 1
        game, score = len(self.games) + 1, dict(self.score)
        if status == "game_over":  # the chico's winner named on the hand (MatchHand)
            self._close_chico(order, before)
        self.hands.append(
            MatchHand(
                number=index + 1,
                game=game,
                kind=HandKind(kind),
                order=tuple(order),
                score_before=before,
                points=points,
                score=score,
                status=HandStatus(status),
                gallo=gallo,
                pairs=self._pairs,
                parts=tuple(self._parts),
                records=tuple(self._records),
                chico_winner=self.games[-1].winner if status == "game_over" else None,
            )
        )

    def next_hand(self) -> NextHand | None:
        """The context of the hand to play next, or None once the match is decided."""
        if self.winner is not None:
            return None
        order = self.order()
        kind = self.expected_kind()
        record = None
        gallo = None
        if kind == "redondo":
            fields = self.redondo_fields(order)
            gallo = fields.get("gallo")
            record = self.hand_record({"events": []}, **fields)
        return NextHand(
            number=self.count + 1,
            game=len(self.games) + 1,
            kind=HandKind(kind),
            order=tuple(order),
            score=dict(self.score),
            record=record,
            gallo=gallo,
        )

    def expected_kind(self) -> str:
        if (
            self.rules.pica_pica
            and len(self.seats) in (6, 8)
            and self.hands_in_chico > 0
            and self.last_kind == "redondo"
            and max(self.score.values()) < self.rules.pica_pica_until
        ):
            return "pica_pica"
        return "redondo"

    def hand_record(self, hand: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
        record: dict[str, Any] = {"rules": self.rules_spec, "cards": hand.get("cards")}
        if record["cards"] is None:
            del record["cards"]
        if self.captains is not None:
            record["captains"] = self.captains
        record["events"] = hand.get("events")
        record.update(fields)
        return record

    def redondo_fields(self, order: list[str]) -> dict[str, Any]:
        """The teams, order, score (and gallo) of the next redondo hand's record."""
        if len(self.seats) != 3:
            return {"teams": self.teams, "order": order, "score": dict(self.score)}
        if not self.gallo_por_turno:
            gallo = next(p for members in self.teams.values() if len(members) == 1 for p in members)
            return {"teams": self.teams, "order": order, "score": dict(self.score), "gallo": gallo}
        # Por turno: the dealer, the player before the mano, is the gallo (docs/rules.md "Three
        # players"); the pair plays as one side named after its first member, on its leading
        # member's score, so a falta envido or the end of the chico is judged on the player
        # nearer the target.
        gallo = order[-1]
        pair = [p for p in order if p != gallo]
        pair_side = self.side_of[pair[0]]
        return {
            "teams": {self.side_of[gallo]: [gallo], pair_side: pair},
            "order": order,
            "score": {
                self.side_of[gallo]: self.score[self.side_of[gallo]],
                pair_side: max(self.score[self.side_of[p]] for p in pair),
            },
            "gallo": gallo,
        }

    def _play_redondo(self, hand: Mapping[str, Any], order: list[str]) -> tuple[dict, str]:
        fields = self.redondo_fields(order)
        if "gallo" in fields:
            self._check_gallo(hand, fields["gallo"])
        if not self.gallo_por_turno:
            record = self.hand_record(hand, **fields)
            result = score_hand(record)
            self._parts.append(HandResult.from_dict(result))
            self._records.append(record)
            self.score = dict(result["score"])
            return dict(result["points"]), result["status"]

        # Gallo por turno: side-valued fields may name either pair member's side; what the
        # pair wins is credited to each of its two players.
        gallo_side = self.side_of[fields["gallo"]]
        pair_sides = [self.side_of[p] for p in fields["order"] if p != fields["gallo"]]
        pair_side = pair_sides[0]
        events = hand.get("events")
        if isinstance(events, list):
            events = [_merge_side(e, pair_sides[1], pair_side) for e in events]
        record = self.hand_record({**hand, "events": events}, **fields)
        result = score_hand(record)
        self._parts.append(HandResult.from_dict(result))
        self._records.append(record)
        won = result["points"]
        points = dict.fromkeys(self.teams, 0)
        points[gallo_side] = won[gallo_side]
        for side in pair_sides:
            points[side] = won[pair_side]
        target = self.rules.target
        self.score = {side: min(target, self.score[side] + points[side]) for side in self.teams}
        return points, result["status"]

    def _check_gallo(self, hand: Mapping[str, Any], gallo: str) -> None:
        named = hand.get("gallo")
        if named is not None and named != gallo:
            raise _fail("gallo_mismatch", gallo=gallo, named=named)

    def _play_pica_pica(self, subhands: Any, index: int) -> tuple[dict, str]:
        if not isinstance(subhands, list) or not subhands:
            raise _fail(
                "pica_pica_invalid", hand=index, detail="A pica-pica hand is a list of sub-hands."
            )
        seen: list[str] = []
        for sub in subhands:
            pair = sub.get("order") if isinstance(sub, Mapping) else None
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or any(p not in self.side_of for p in pair)
                or self.side_of[pair[0]] == self.side_of[pair[1]]
            ):
                raise _fail("pica_pica_invalid", hand=index, detail=_PAIR_DETAIL)
            seen.extend(pair)
        if sorted(seen) != sorted(self.seats):
            raise _fail(
                "pica_pica_invalid",
                hand=index,
                detail="In a pica-pica hand every player plays exactly one sub-hand.",
            )

        points = dict.fromkeys(self.teams, 0)
        statuses = []
        self._pairs = tuple((sub["order"][0], sub["order"][1]) for sub in subhands)
        for sub in subhands:
            first, second = sub["order"]
            teams = {self.side_of[first]: [first], self.side_of[second]: [second]}
            record = self.hand_record(
                sub, teams=teams, order=[first, second], score=dict(self.score), pica_pica=True
            )
            result = score_hand(record)
            self._parts.append(HandResult.from_dict(result))
            self._records.append(record)
            for side, won in result["points"].items():
                points[side] += won
            self.score = dict(result["score"])
            statuses.append(result["status"])
            if result["status"] == "game_over":
                # The chico is over: the other pairs' sub-hands are played out at the
                # table but no longer counted (docs/rules.md "Scoring a game").
                return points, "game_over"
        if all(s == "void" for s in statuses):
            return points, "void"
        return points, "complete"

    # -- chicos and the match ---------------------------------------------------------
    def _close_chico(self, order: list[str], before: Mapping[str, int]) -> None:
        target = self.rules.target
        reached = [side for side in self.teams if self.score[side] >= target]
        if len(reached) > 1:
            # Gallo por turno, the pair reaching the target together: the one who was ahead
            # before the hand, then the one first in the hand's order (docs/rules.md).
            position = {self.side_of[p]: i for i, p in enumerate(order)}
            reached.sort(key=lambda s: (-before[s], position[s]))
        winner = reached[0]
        self.games.append(Game(winner, dict(self.score)))
        self.wins[winner] += 1
        if self.wins[winner] >= self.need:
            self.winner = winner
        self.score = dict.fromkeys(self.teams, 0)
        self.hands_in_chico = 0
        self.last_kind = ""


def _merge_side(event: Any, alias: str, side: str) -> Any:
    """Rewrite one pair member's side to the pair's side in a side-valued event field."""
    if not isinstance(event, Mapping):
        return event
    changed = {k: side for k in _SIDE_FIELDS if event.get(k) == alias}
    penalty = event.get("penalty")
    if isinstance(penalty, Mapping) and penalty.get("to") == alias:
        changed["penalty"] = {**penalty, "to": side}
    return {**event, **changed} if changed else event
