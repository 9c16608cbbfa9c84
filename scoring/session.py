"""A hand-entry session driven by JSON messages: the engine as a browser runs it.

The referee's tablet runs this package in a Web Worker (Pyodide) so that every tap is
checked and answered without a round trip; the server checks again whatever the tablet
sends, with the same files. One :class:`Session` holds the match between two hands (its
head and :class:`~scoring.match.MatchState`) and the :class:`~scoring.entry.HandEntry`
being entered. :func:`handle` takes one message (a JSON object with ``op``) and answers
the view the page draws: the legal next actions as events, where the hand stands, the
draft to keep (:meth:`HandEntry.to_draft`) and, after ``save``, the hand as the match
layer scored it with the state after it. Nothing here knows a page or a language: the
page labels the events itself.

>>> import json
>>> head = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
...         "seats": ["ana", "beto"]}
>>> view = json.loads(handle(json.dumps({"op": "open", "head": head, "state": None})))
>>> view["number"], [a["event"] for a in view["actions"] if a["group"] == "trick"]
(1, [{'trick': 'A'}, {'trick': 'B'}, {'trick': 'parda'}])
>>> view = json.loads(handle('{"op": "event", "event": {"by": "beto", "mazo": true}}'))
>>> view["ready"], view["score"]
(True, {'A': 2, 'B': 0})
>>> saved = json.loads(handle('{"op": "save"}'))
>>> saved["saved"]["record"], saved["saved"]["points"], saved["number"], saved["mano"]
({'events': [{'by': 'beto', 'mazo': True}]}, {'A': 2, 'B': 0}, 2, 'beto')
>>> json.loads(handle('{"op": "event", "event": {"trick": "Z"}}'))["error"]["code"]
'unknown_side'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from scoring.actions import (
    Action,
    Answer,
    Call,
    EnvidoPoints,
    EnvidoWinner,
    FlorPoints,
    FlorWinner,
    Mazo,
    MestreDecision,
    Play,
    Trick,
)
from scoring.entry import HandEntry
from scoring.errors import EngineError
from scoring.hand import apply
from scoring.match import MatchState, score_next_hand
from scoring.phases import phase
from scoring.rules import RuleSet

__all__ = ["Session", "handle", "team_mazo"]

# The button group of each action (the server-rendered tablet groups them alike).
GROUPS: dict[type, str] = {
    Call: "call",
    Mazo: "call",
    Answer: "answer",
    Trick: "trick",
    Play: "play",
    EnvidoWinner: "settle",
    FlorWinner: "settle",
    MestreDecision: "mestre",
}


class Session:
    """The match between two hands and the hand being entered."""

    def __init__(
        self,
        head: Mapping[str, Any],
        state: Mapping[str, Any] | None,
        *,
        plays: bool = False,
        draft: Any = None,
    ) -> None:
        self.head = dict(head)
        self.rules = RuleSet.from_spec(self.head["rules"])
        self.plays = plays
        self.state = None if state is None else MatchState.from_dict(state)
        self.entry: HandEntry | None = None
        self.problem: dict[str, Any] | None = None
        self._open(draft)

    def _open(self, draft: Any = None) -> None:
        try:
            self.entry = HandEntry.from_state(self.head, self.state, plays=self.plays)
        except EngineError as error:
            if error.code != "match_over":
                raise
            self.entry = None
            return
        if draft:
            try:
                self.entry.restore(draft)
            except EngineError as error:
                # The entry keeps every valid step before the fault; the page says so.
                self.problem = _problem(error)

    # -- operations --------------------------------------------------------------------
    def run(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Apply one message; the view after it (with ``error`` when it was refused)."""
        op = message.get("op")
        saved = None
        self.problem = None
        try:
            entry = self._entry()
            if op == "event":
                self._apply(entry, message.get("event"))
            elif op == "undo":
                entry.undo()
            elif op == "reset":
                entry.reset()
            elif op == "restore":
                # "Undo the restart": the hand as it stood before, kept by the page.
                self._restore(message.get("draft"))
            elif op == "cards":
                entry.set_cards(message.get("cards") or {})
            elif op == "next_pair":
                entry.next_pair()
            elif op == "pairs":
                entry.choose_pairs(message.get("pairs") or [])
            elif op == "save":
                saved = self._save(entry)
            elif op != "view":
                raise EngineError("bad_draft", f"Unknown operation: {op!r}.")
        except EngineError as error:
            self.problem = _problem(error)
        view = self.view()
        if saved is not None:
            view["saved"] = saved
        return view

    def _apply(self, entry: HandEntry, event: Any) -> None:
        if not isinstance(event, list):
            entry.apply(event)
            return
        # A list is one tap (the team goes to the mazo): taken whole or not at all, and
        # entered as its events, as the server does, so "undo" takes back one of them.
        if not event:
            raise EngineError("bad_draft", "An empty list of events.")
        before = entry.to_draft()
        try:
            for one in event:
                entry.apply(one)
        except EngineError:
            self._restore(before)
            raise

    def _restore(self, draft: Any) -> None:
        restored = HandEntry.from_state(self.head, self.state, plays=self.plays)
        restored.restore(draft or {})  # refused whole: the entry stays as it was
        self.entry = restored

    def _entry(self) -> HandEntry:
        if self.entry is None:
            raise EngineError("match_over", "The match is over.")
        return self.entry

    def _save(self, entry: HandEntry) -> dict[str, Any]:
        if not entry.finished:
            raise EngineError("hand_unfinished", "The hand is not decided yet.")
        record = entry.to_entry()
        hand, self.state = score_next_hand(self.head, self.state, record)
        saved = {
            "number": entry.number,
            "record": record,
            "points": dict(hand.points),
            "score": dict(hand.score),
            "status": str(hand.status),
            "state": self.state.to_dict(),
        }
        self._open()
        return saved

    # -- what the page draws -------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Where the hand stands, and what may happen next."""
        state = None if self.state is None else self.state.to_dict()
        entry = self.entry
        if entry is None:
            return {"over": True, "state": state, "winner": state and state["winner"]}
        team = {p: side for side, members in self.head["teams"].items() for p in members}
        parts = []
        for part in entry.parts:
            outcome = part.outcome
            parts.append(
                {
                    "order": list(part.order),
                    "events": list(part.events),
                    "outcome": None
                    if outcome is None
                    else {
                        "points": dict(outcome["points"]),
                        "score": dict(outcome["score"]),
                        "status": str(outcome["status"]),
                    },
                }
            )
        return {
            "over": False,
            "state": state,
            "number": entry.number,
            "kind": str(entry.kind),
            "game": entry.upcoming.game,
            "mano": entry.upcoming.mano,
            "order": list(entry.upcoming.order),
            "start_score": dict(entry.upcoming.score),
            # Each side's phase at the start of the hand ([name, count], or None): the
            # scoreboard's malas/buenas or mestre, as the server's sheet draws them.
            "phases": {
                side: self._phase(entry.upcoming.score, side) for side in entry.upcoming.score
            },
            # The gallo of a table of three, as the engine names it (por turno: every hand).
            "gallo": entry.upcoming.gallo,
            "score": entry.score,
            "team": team,
            "choosing_pairs": entry.choosing_pairs,
            "default_pairs": [list(p) for p in entry.default_pairs()]
            if entry.choosing_pairs
            else [],
            "pairs": None if entry.pairs is None else [list(p) for p in entry.pairs],
            "parts": parts,
            "ready": entry.finished,
            "can_move_on": entry.can_move_on,
            "settlement": entry.settlement,
            "declarers": entry.declarers(entry.settlement) if entry.settlement else [],
            "can_void": bool(entry.parts) and entry.current.state.decided is None,
            "sides": self.sides(),
            "to_play": entry.current.state.to_play() if self.plays and entry.parts else None,
            "given_cards": entry.part_cards() if self.plays and entry.parts else {},
            "actions": self.actions(),
            "draft": entry.to_draft(),
            "entry": entry.to_entry() if entry.parts else None,
            "error": self.problem,
        }

    def _phase(self, score: Mapping[str, int], side: str) -> list[Any] | None:
        found = phase(self.rules, score, side)
        return None if found is None else [found.name, found.count]

    def actions(self) -> list[dict[str, Any]]:
        """The legal next actions as events, with their button group, side and player."""
        entry = self.entry
        if entry is None or not entry.parts:
            return []
        state = entry.current.state
        actions = []
        for action in entry.legal_actions():
            if isinstance(action, EnvidoPoints | FlorPoints):
                continue  # declared points are written in a form, not tapped
            if isinstance(action, Play) and not self.plays:
                continue
            if isinstance(action, Trick) and self.plays:
                continue  # card by card: the tricks follow from the cards played
            if isinstance(action, EnvidoWinner | FlorWinner) and entry.settlement is None:
                continue  # nothing to settle, or the cards given settle it
            actions.append(_described(action, state.team, state.sides))
        for side in sorted(state.sides):  # at a table of three, the hand's two sides
            events = team_mazo(entry, side)
            if events:
                actions.append(
                    {"event": events, "group": "team_mazo", "side": side, "player": None}
                )
        return actions

    def sides(self) -> dict[str, list[dict[str, Any]]]:
        """Each side's players in this part, in team order (a player keeps his place on the
        screen from hand to hand): who is mano, who has gone to the mazo."""
        entry = self.entry
        if entry is None or not entry.parts:
            return {"A": [], "B": []}
        state = entry.current.state
        teams = self.head.get("teams", {})
        # The hand's sides, as the engine plays them: at a table of three with the gallo
        # por turno, the gallo's side and the pair's (named after its first member).
        members = [p for side in sorted(teams) for p in teams[side]]
        return {
            side: [
                {"player": p, "mano": p == state.order[0], "folded": p in state.folded}
                for p in members
                if p in state.order and state.team.get(p) == side
            ]
            for side in sorted(state.sides)
        }


def _problem(error: EngineError) -> dict[str, Any]:
    """The error object of a refused step, with the values its message was made of
    (``params``), so that the page can say the reason in its own language."""
    params = json.loads(json.dumps(error.params, default=str))
    return {**error.to_dict(), "params": params}


def _described(action: Action, team: Mapping[str, str], sides: Any) -> dict[str, Any]:
    by = getattr(action, "by", None)
    side = team[by] if by else getattr(action, "winner", None) or getattr(action, "side", None)
    return {
        "event": action.to_event(),
        "group": GROUPS[type(action)],
        "side": side if side in sides else None,
        "player": by,
    }


def team_mazo(entry: HandEntry, side: str) -> list[dict[str, Any]]:
    """The mazo events of every player of ``side`` still in the hand, in playing order, if
    the engine takes them all now and there are two or more (one tap: "the team goes to
    the mazo"); else []. The tablet's page and its script both offer this button."""
    if not entry.parts or entry.current.chico_over:
        return []
    state = entry.current.state
    events = []
    for player in state.order:
        if state.team[player] != side or player in state.folded:
            continue
        try:
            state = apply(state, Mazo(player))
        except EngineError:
            return []
        events.append(Mazo(player).to_event())
    # One player alone: his own mazo button already does it in one tap.
    return events if len(events) > 1 else []


_session: Session | None = None


def handle(message: str) -> str:
    """Answer one JSON message: ``open`` (``head``, ``state``, ``plays``, ``draft``)
    starts a session; ``event`` (one event, or a list applied in one step: the team's
    mazo), ``cards`` (player -> the three cards dealt), ``undo``, ``reset``, ``restore``
    (``draft``: the hand before a reset), ``next_pair``, ``pairs``, ``save`` and ``view``
    act on it. Every answer is the view as JSON; a refusal carries ``error`` (the
    engine's ``code``, ``message`` and ``params``) and changes nothing."""
    global _session
    data = json.loads(message)
    if data.get("op") == "open":
        try:
            _session = Session(
                data["head"],
                data.get("state"),
                plays=bool(data.get("plays")),
                draft=data.get("draft"),
            )
        except EngineError as error:
            return json.dumps({"over": False, "fatal": _problem(error)})
        return json.dumps(_session.view())
    if _session is None:
        return json.dumps({"fatal": {"code": "not_open", "message": "No match is open."}})
    return json.dumps(_session.run(data))
