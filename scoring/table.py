"""A match at the table: how each hand is played and counted into chicos.

docs/rules.md "Scoring a game", "Six and eight players", "Three players, gallo". The
match layer (:mod:`scoring.match`) keeps a :class:`Table` between hands; this module
decides what the next hand is (its mano, its kind, its gallo, its hand record), scores it
with :func:`scoring.record.score_hand` from the running score, and closes chicos:

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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.enums import HandKind, HandStatus
from scoring.errors import EngineError, error
from scoring.record import score_hand
from scoring.results import Game, HandResult, MatchHand, NextHand
from scoring.rules import RuleSet

__all__ = ["PAIR_DETAIL", "Table", "check_teams", "new_table"]

# Side-valued fields of hand events; in a gallo por turno hand they may name either pair
# member's side (docs/hand-record.md), so they are rewritten to the pair's side before scoring.
_SIDE_FIELDS = ("trick", "envido_winner", "flor_winner")
PAIR_DETAIL = "Each pica-pica sub-hand names two opponents in 'order', its mano first."


def _fail(code: str, *, hand: int | None = None, **params: Any) -> EngineError:
    return error(code, hand=hand, **params)


def new_table(record: Mapping[str, Any]) -> Table:
    """The table before the first hand of a match record (its hands are not looked at)."""
    rules_spec = record.get("rules")
    rules = RuleSet.from_spec(rules_spec)
    teams = check_teams(record.get("teams"))
    seats = _seats(record.get("seats"), teams)
    return Table(rules, rules_spec, teams, seats, record.get("captains"))


def check_teams(value: Any) -> dict[str, list[str]]:
    """A match record's ``teams``: each side to the list of its players' names."""
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


class Table:
    """A match at the table between two hands: its teams and seats, whose turn to be
    mano, the running score, the chicos won, and how the next hand is played and counted
    (the match layer, :mod:`scoring.match`, reads and restores its state)."""

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
                raise _fail("pica_pica_invalid", hand=index, detail=PAIR_DETAIL)
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
