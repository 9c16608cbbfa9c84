"""The hand being entered at the table: replayed through the engine on every post.

The tablet page carries the hand's events so far in a hidden field (JSON). Each post
rebuilds the state from the next hand's record (``scoring.match.next_hand``) plus those
events with the engine, applies one more action, and the page shows the new
``legal_actions`` as buttons. Nothing here touches the database; the finished entry is
stored by ``referees.services.hand_save``.

A pica-pica hand is a list of pairs, each entered as a two-player sub-hand in turn; the
hidden field then holds ``{"pica_pica": [{"order", "events"}...], "current": k}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
    Penalty,
    Play,
    Trick,
    Void,
    action_from_event,
)
from scoring.errors import EngineError
from scoring.hand import apply, is_finished, legal_actions, needs_settlement, result
from scoring.match import subhand_record
from scoring.record import hand_from_record
from scoring.state import HandState
from tournaments.errors import TournamentError, from_engine

# Hidden fields are small: a hand has a few dozen events at most.
MAX_DRAFT_LENGTH = 20_000

CALL_NAMES = {
    "truco": gettext_lazy("truco"),
    "retruco": gettext_lazy("retruco"),
    "vale_cuatro": gettext_lazy("vale cuatro"),
    "envido": gettext_lazy("envido"),
    "real_envido": gettext_lazy("real envido"),
    "falta_envido": gettext_lazy("falta envido"),
    "flor": gettext_lazy("flor"),
    "contraflor": gettext_lazy("contraflor"),
    "contraflor_al_resto": gettext_lazy("contraflor al resto"),
    "truc": gettext_lazy("truc"),
    "tres": gettext_lazy("tres"),
}
ANSWER_NAMES = {
    "quiero": gettext_lazy("quiero"),
    "no_quiero": gettext_lazy("no quiero"),
    "con_flor_me_achico": gettext_lazy("con flor me achico"),
    "con_flor_quiero": gettext_lazy("con flor quiero"),
}


def parse_json(raw: str) -> Any:
    """A posted JSON field, or the "damaged" error (too long, too deep, not JSON)."""
    if len(raw) > MAX_DRAFT_LENGTH:
        raise damaged()
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise damaged() from None


def damaged() -> TournamentError:
    return TournamentError(
        gettext_lazy(
            "The hand sent by the page is damaged or out of date: it was reloaded from "
            "the last valid step."
        ),
        code="bad_draft",
    )


@dataclass
class Button:
    """One next action: its label in the referee's language and its event as JSON."""

    label: str
    event: str
    group: str  # trick, answer, call, settle, mestre
    side: str | None = None
    player: str | None = None


@dataclass
class Part:
    """A redondo hand, or one pica-pica pair's sub-hand, as entered so far."""

    order: list[str]
    events: list[dict[str, Any]]
    state: HandState
    start: HandState = field(repr=False)

    @property
    def outcome(self) -> dict[str, Any] | None:
        """The result so far, when the engine can compute it (settlements done)."""
        try:
            outcome = result(self.state)
        except EngineError:
            return None
        if self.state.decided is None and not outcome["items"]:
            return None
        return outcome

    @property
    def chico_over(self) -> bool:
        outcome = self.outcome
        return outcome is not None and outcome["status"] == "game_over"

    @property
    def done(self) -> bool:
        """Decided and settled, or the chico already over on what was counted."""
        return is_finished(self.state) or self.chico_over


class Entry:
    """The next hand of a match as the referee is entering it."""

    def __init__(
        self,
        info: Mapping[str, Any],
        match_record: Mapping[str, Any],
        names: Mapping[str, str],
    ) -> None:
        self.info = info
        self.match_record = match_record
        self.names = names
        self.kind: str = info["kind"]
        self.number: int = info["number"]
        self.pairs: list[list[str]] | None = None
        self.parts: list[Part] = []
        if self.kind == "redondo":
            self.parts = [self._part(0, [])]

    # -- building -------------------------------------------------------------------
    def _record(self, index: int) -> dict[str, Any]:
        if self.kind == "redondo":
            return {**self.info["record"], "events": []}
        score = dict(self.info["score"])
        if index:
            previous = self.parts[index - 1].outcome
            score = dict(previous["score"]) if previous else score
        first, second = self.pairs[index]  # type: ignore[index]
        return subhand_record({**self.info, "score": score}, self.match_record, first, second)

    def _part(self, index: int, events: Sequence[Any]) -> Part:
        """Replay ``events`` on part ``index``; raise the translated error of the first bad
        one (the events before it are kept in ``self.parts``)."""
        record = self._record(index)
        start = hand_from_record(record)
        part = Part(order=list(record["order"]), events=[], state=start, start=start)
        if len(self.parts) > index:
            self.parts[index] = part
        else:
            self.parts.append(part)
        for event in events:
            self._apply(part, event)
        return part

    def _apply(self, part: Part, event: Any) -> None:
        try:
            action = action_from_event(event, part.state.rules.deck, index=len(part.events))
            if isinstance(action, Play):
                # The tablet enters hands trick by trick (quick entry) only.
                raise damaged()
            new = apply(part.state, action)
        except EngineError as error:
            raise from_engine(error, names=self.names) from None
        part.state = new
        part.events.append(action.to_event())

    @classmethod
    def load(
        cls,
        info: Mapping[str, Any],
        match_record: Mapping[str, Any],
        names: Mapping[str, str],
        raw: str,
    ) -> tuple[Entry, TournamentError | None]:
        """The entry a post carries, and the error if it no longer replays (the entry then
        stops at the last valid step)."""
        entry = cls(info, match_record, names)
        try:
            entry._load(raw)
        except TournamentError as error:
            return entry, error
        return entry, None

    def _load(self, raw: str) -> None:
        data = parse_json(raw) if raw else {}
        if not isinstance(data, dict):
            raise damaged()
        if self.kind == "redondo":
            if "pica_pica" in data:
                raise damaged()
            events = data.get("events", [])
            if not isinstance(events, list):
                raise damaged()
            self._part(0, events)
            return
        subhands = data.get("pica_pica")
        if subhands is None:
            return  # the pairs are still to be chosen
        if not isinstance(subhands, list) or not all(isinstance(s, dict) for s in subhands):
            raise damaged()
        current = data.get("current", 0)
        pairs = [s.get("order") for s in subhands]
        self.set_pairs(pairs)
        if type(current) is not int or not 0 <= current < len(pairs):
            raise damaged()
        for index, sub in enumerate(subhands):
            events = sub.get("events", [])
            if not isinstance(events, list) or (index > current and events):
                raise damaged()
            if index > current:
                break
            if index:
                if not self.parts[index - 1].done or self.parts[index - 1].chico_over:
                    raise damaged()
                self._part(index, events)
            else:
                self.parts = []
                self._part(0, events)

    # -- the referee's operations -----------------------------------------------------
    def set_pairs(self, pairs: Sequence[Any]) -> None:
        """Start a pica-pica hand: the pairs in the order they will be entered."""
        players = sorted(self.match_record["seats"])
        if (
            not pairs
            or not all(isinstance(p, list) and len(p) == 2 for p in pairs)
            or not all(isinstance(player, str) for pair in pairs for player in pair)
            or sorted(p for pair in pairs for p in pair) != players
        ):
            raise TournamentError(
                gettext_lazy("Each player must be in exactly one pair, facing an opponent."),
                code="bad_pairs",
            )
        self.pairs = [list(p) for p in pairs]
        self.parts = []
        try:
            self._part(0, [])
        except (EngineError, TournamentError):
            self.pairs, self.parts = None, []
            raise TournamentError(
                gettext_lazy("Each player must be in exactly one pair, facing an opponent."),
                code="bad_pairs",
            ) from None

    def add(self, event: Any) -> None:
        """Apply one more event to the part being entered (raises a translated error)."""
        if not self.parts:
            raise damaged()
        self._apply(self.current, event)

    def undo(self) -> None:
        """Take back the last event (going back to the previous pair if need be)."""
        if not self.parts:
            return
        if not self.current.events and len(self.parts) > 1:
            self.parts.pop()
        part = self.current
        index = len(self.parts) - 1
        self._part(index, part.events[:-1])

    def reset(self) -> None:
        """Start the hand again (a pica-pica hand goes back to choosing the pairs)."""
        if self.kind == "redondo":
            self.parts = [self._part(0, [])]
        else:
            self.pairs, self.parts = None, []

    def next_pair(self) -> None:
        if not self.can_move_on:
            raise damaged()
        self._part(len(self.parts), [])

    # -- what the page shows ------------------------------------------------------------
    @property
    def current(self) -> Part:
        return self.parts[-1]

    @property
    def choosing_pairs(self) -> bool:
        return self.kind == "pica_pica" and self.pairs is None

    @property
    def can_move_on(self) -> bool:
        return (
            self.pairs is not None
            and len(self.parts) < len(self.pairs)
            and self.current.done
            and not self.current.chico_over
        )

    @property
    def ready(self) -> bool:
        """The hand may be saved: every part decided, or the chico over."""
        if not self.parts:
            return False
        if self.current.chico_over:
            return True
        total = 1 if self.pairs is None else len(self.pairs)
        return len(self.parts) == total and self.current.done

    @property
    def settlement(self) -> str | None:
        """ "envido" or "flor" when an accepted bet of the current part needs its winner."""
        if not self.parts or self.current.chico_over:
            return None
        return needs_settlement(self.current.state)

    def declarers(self, what: str) -> list[str]:
        """Who may declare points to settle ``what``: every player for the envido, the
        singers for the flor, in playing order."""
        state = self.current.state
        if what == "envido":
            return list(state.order)
        return [p for p in state.order if p in state.flores]

    def default_pairs(self) -> list[list[str]]:
        """Pica-pica pairs by default: each player faces the opponent sitting opposite,
        the one nearer the mano leading."""
        seats = list(self.match_record["seats"])
        start = seats.index(self.info["mano"])
        order = seats[start:] + seats[:start]
        half = len(order) // 2
        return [[order[i], order[i + half]] for i in range(half)]

    def to_json(self) -> str:
        if self.kind == "redondo":
            return json.dumps({"events": self.current.events}, separators=(",", ":"))
        if self.pairs is None:
            return "{}"
        subhands = [
            {"order": pair, "events": self.parts[i].events if i < len(self.parts) else []}
            for i, pair in enumerate(self.pairs)
        ]
        data = {"pica_pica": subhands, "current": len(self.parts) - 1}
        return json.dumps(data, separators=(",", ":"))

    def to_record(self) -> dict[str, Any]:
        """The hand's entry of the match record, as ``hand_record`` stores it."""
        if self.kind == "redondo":
            entry: dict[str, Any] = {"events": list(self.current.events)}
            gallo = self.info["record"].get("gallo")
            if gallo is not None:
                entry["gallo"] = gallo
            return entry
        # tournaments.services._check_entry wants an events list on every hand entry; the
        # match layer ignores it on a pica-pica hand.
        return {
            "events": [],
            "pica_pica": [
                {"order": pair, "events": self.parts[i].events if i < len(self.parts) else []}
                for i, pair in enumerate(self.pairs or [])
            ],
        }

    def buttons(self) -> dict[str, list[Button]]:
        """The legal next actions of the current part, by group, labelled."""
        groups: dict[str, list[Button]] = {
            "mestre": [],
            "answer": [],
            "settle": [],
            "trick": [],
            "call": [],
        }
        if not self.parts or self.current.chico_over:
            return groups
        state = self.current.state
        for action in legal_actions(state):
            if isinstance(action, Play | EnvidoPoints | FlorPoints):
                continue  # cards are not entered; declared points have their own form
            group = _GROUPS[type(action)]
            by = getattr(action, "by", None)
            side = state.team[by] if by else getattr(action, "winner", None)
            side = side or getattr(action, "side", None)
            groups[group].append(
                Button(
                    label=describe(action, state, self.names),
                    event=json.dumps(action.to_event(), separators=(",", ":")),
                    group=group,
                    side=side if side in state.sides else None,
                    player=by,
                )
            )
        return groups

    def calls_by_player(self) -> list[tuple[str, str, list[Button]]]:
        """Calls and mazo grouped under each player: (name, side, buttons)."""
        state = self.current.state
        by_player: dict[str, list[Button]] = {p: [] for p in state.order}
        for button in self.buttons()["call"]:
            by_player[button.player].append(button)  # type: ignore[index]
        return [(self.names.get(p, p), state.team[p], b) for p, b in by_player.items() if b]

    def summary(self) -> list[dict[str, Any]]:
        """Each part with its events in words (and the pair's names for pica-pica)."""
        parts = []
        for index, part in enumerate(self.parts):
            state = part.start
            lines = []
            for event in part.events:
                action = action_from_event(event, state.rules.deck)
                lines.append(describe(action, state, self.names))
                state = apply(state, action)
            title = ""
            if self.pairs is not None:
                title = _("Pair %(number)s: %(players)s") % {
                    "number": index + 1,
                    "players": " – ".join(self.names.get(p, p) for p in part.order),
                }
            parts.append({"title": title, "lines": lines, "outcome": part.outcome})
        return parts

    def pair_names(self) -> list[str]:
        return [" – ".join(self.names.get(p, p) for p in pair) for pair in (self.pairs or [])]


_GROUPS: dict[type, str] = {
    Call: "call",
    Mazo: "call",
    Answer: "answer",
    Trick: "trick",
    EnvidoWinner: "settle",
    FlorWinner: "settle",
    MestreDecision: "mestre",
}


def side_players(state: HandState, side: str, names: Mapping[str, str]) -> str:
    """The names of a side's players in this hand: "Ana and Alba"."""
    # Team order, not playing order: a side's buttons read the same every hand.
    players = [names.get(p, p) for p, s in state.team.items() if s == side]
    return str(get_text_list(players, _("and")))


def describe(action: Action, state: HandState, names: Mapping[str, str]) -> str:
    """One action in words, with people's names ("Ana calls truco")."""
    by = getattr(action, "by", None)
    player = names.get(by, by) if by else ""
    if isinstance(action, Call):
        return _("%(player)s calls %(call)s") % {
            "player": player,
            "call": CALL_NAMES.get(action.call, action.call),
        }
    if isinstance(action, Answer):
        return _("%(player)s: %(answer)s") % {
            "player": player,
            "answer": ANSWER_NAMES.get(action.answer, action.answer),
        }
    if isinstance(action, Trick):
        if action.winner == "parda":
            return _("Parda (tied trick)")
        return _("Trick to %(players)s") % {"players": side_players(state, action.winner, names)}
    if isinstance(action, Mazo):
        return _("%(player)s goes to the mazo") % {"player": player}
    if isinstance(action, EnvidoWinner):
        return _("Envido to %(players)s") % {"players": side_players(state, action.side, names)}
    if isinstance(action, FlorWinner):
        return _("Flor to %(players)s") % {"players": side_players(state, action.side, names)}
    if isinstance(action, EnvidoPoints | FlorPoints):
        values = ", ".join(f"{names.get(p, p)} {n}" for p, n in action.points)
        if isinstance(action, EnvidoPoints):
            return _("Envido declared: %(values)s") % {"values": values}
        return _("Flor declared: %(values)s") % {"values": values}
    if isinstance(action, MestreDecision):
        if action.decision == "play":
            return _("%(player)s: the mestre plays") % {"player": player}
        return _("%(player)s: the mestre passes") % {"player": player}
    if isinstance(action, Penalty):
        return _("Penalty of %(points)s to %(team)s: %(reason)s") % {
            "points": action.points,
            "team": names.get(action.to, action.to),
            "reason": action.reason,
        }
    if isinstance(action, Void):
        return _("Hand void: %(reason)s") % {"reason": action.reason}
    return _("%(player)s plays %(card)s") % {"player": player, "card": action.card}
