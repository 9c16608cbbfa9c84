"""The hand being entered at the table, as the referee tablet presents it.

The sequencing (a redondo hand, or a pica-pica hand's pairs entered one after the other
with the score carried between them) is the engine's :class:`scoring.entry.HandEntry`;
this module only presents it: buttons and labels in the referee's language, the hidden
field's JSON, and engine errors translated for Django. The page carries the hand's events
so far in a hidden field; each post rebuilds the entry from the next hand (which the
sheet takes from the match's stored engine state, ``scoring.MatchState.next_hand``,
without replaying the match) plus those events, applies one more action, and shows the
new legal actions as buttons (card by card, when the match's ``entry`` is ``cards``: the
cards the player to play may play). Nothing here touches the database: the view keeps the
hand so far as the match's draft (``tournaments.results.drafts``) and the finished entry is
stored by ``referees.services.hand_save``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from scoring import (
    Action,
    Answer,
    Call,
    EngineError,
    EntryPart,
    EnvidoPoints,
    EnvidoWinner,
    FlorPoints,
    FlorWinner,
    HandEntry,
    HandState,
    Mazo,
    MestreDecision,
    NextHand,
    Penalty,
    Play,
    Trick,
    Void,
    action_from_event,
    apply,
    team_mazo,
)
from tournaments.errors import TournamentError, from_engine
from tournaments.io import jsonbody

# The words of the calls, answers and cards, one list for the tablet and the public pages.
from tournaments.results.story import ANSWER_NAMES, CALL_NAMES, card_name, side_players

# Hidden fields are small: a hand has a few dozen events at most.
MAX_DRAFT_LENGTH = 20_000


def parse_json(raw: str) -> Any:
    """A posted JSON field, or the "damaged" error (too long, too deep, not JSON)."""
    if len(raw) > MAX_DRAFT_LENGTH:
        raise damaged()
    try:
        return jsonbody.loads(raw)
    except ValueError:
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
    # What the button shows under its player's name ("truco", "quiero"): the sheet seats
    # a player's calls and answers in a row after his name, the label stays its
    # accessible name.
    short: str = ""


def bad_pairs() -> TournamentError:
    return TournamentError(
        gettext_lazy("Each player must be in exactly one pair, facing an opponent."),
        code="bad_pairs",
    )


class Entry:
    """The next hand of a match as the referee is entering it (a :class:`HandEntry`).

    ``info`` is the next hand's context (``NextHand.to_dict()``) and ``match_record`` the
    match's record; its hands are not needed (``records.match_head``).
    """

    def __init__(
        self,
        info: Mapping[str, Any],
        match_record: Mapping[str, Any],
        names: Mapping[str, str],
        *,
        cards: bool = False,
    ) -> None:
        self.info = info
        self.match_record = match_record
        self.names = names
        # Quick entry (trick winners) refuses card plays; card-by-card entry (the match's
        # ``entry`` option) takes the cards as played and, if given, the cards dealt.
        self.cards_mode = cards
        self.hand = HandEntry(NextHand.from_dict(info), match_record, plays=cards)
        self.kind: str = str(self.hand.kind)
        self.number: int = self.hand.number

    def _translated(self, error: EngineError) -> TournamentError:
        if error.code == "bad_draft":
            return damaged()
        if error.code == "pairs_invalid":
            return bad_pairs()
        return from_engine(error, names=self.names)

    @classmethod
    def load(
        cls,
        info: Mapping[str, Any],
        match_record: Mapping[str, Any],
        names: Mapping[str, str],
        raw: str | Mapping[str, Any],
        *,
        cards: bool = False,
    ) -> tuple[Entry, TournamentError | None]:
        """The entry a post (JSON text) or a stored draft (a dict) carries, and the error if
        it no longer replays (the entry then stops at the last valid step)."""
        entry = cls(info, match_record, names, cards=cards)
        try:
            draft = parse_json(raw) if isinstance(raw, str) and raw else raw or {}
            if isinstance(draft, dict):
                draft = {key: value for key, value in draft.items() if key != "undo"}
            entry.hand.restore(draft)
        except TournamentError as error:
            return entry, error
        except EngineError as error:
            return entry, entry._translated(error)
        return entry, None

    # -- the referee's operations -----------------------------------------------------
    def set_pairs(self, pairs: Sequence[Any]) -> None:
        """Start a pica-pica hand: the pairs in the order they will be entered."""
        try:
            self.hand.choose_pairs(pairs)
        except EngineError:
            self.hand.pairs, self.hand.parts = None, []
            raise bad_pairs() from None

    def add(self, event: Any) -> None:
        """Apply one more event to the part being entered (raises a translated error)."""
        try:
            self.hand.apply(event)
        except EngineError as error:
            raise self._translated(error) from None

    def undo(self) -> None:
        """Take back the last event (going back to the previous pair if need be)."""
        self.hand.undo()

    def reset(self) -> None:
        """Start the hand again (a pica-pica hand goes back to choosing the pairs)."""
        self.hand.reset()

    def next_pair(self) -> None:
        try:
            self.hand.next_pair()
        except EngineError as error:
            raise self._translated(error) from None

    def set_cards(self, cards: Mapping[str, Sequence[str]]) -> None:
        """The cards dealt to the players of the part being entered (card-by-card entry)."""
        try:
            self.hand.set_cards(cards)
        except EngineError as error:
            raise self._translated(error) from None

    def team_mazo(self, side: str) -> list[dict[str, Any]]:
        """The mazo events of ``side``'s players still in, for one tap ("the team goes to
        the mazo"), or []: the engine's rule (``scoring.session.team_mazo``), which the
        tablet's script is offered by the same engine."""
        return team_mazo(self.hand, side)

    # -- what the page shows ------------------------------------------------------------
    @property
    def pairs(self) -> list[list[str]] | None:
        return None if self.hand.pairs is None else [list(p) for p in self.hand.pairs]

    @property
    def parts(self) -> list[EntryPart]:
        return self.hand.parts

    @property
    def current(self) -> EntryPart:
        return self.hand.parts[-1]

    @property
    def choosing_pairs(self) -> bool:
        return self.hand.choosing_pairs

    @property
    def can_move_on(self) -> bool:
        return self.hand.can_move_on

    @property
    def ready(self) -> bool:
        """The hand may be saved: every part decided, or the chico over."""
        return self.hand.finished

    @property
    def settlement(self) -> str | None:
        """ "envido" or "flor" when an accepted bet of the current part needs its winner."""
        return self.hand.settlement

    def declarers(self, what: str) -> list[str]:
        return self.hand.declarers(what)

    def default_pairs(self) -> list[list[str]]:
        """Pica-pica pairs by default: each player faces the opponent sitting opposite."""
        return [list(p) for p in self.hand.default_pairs()]

    def to_draft(self) -> dict[str, Any]:
        """The hand so far as the match's draft stores it (``HandEntry.to_draft``)."""
        return self.hand.to_draft()

    def to_json(self) -> str:
        return json.dumps(self.hand.to_draft(), separators=(",", ":"))

    @property
    def given_cards(self) -> dict[str, list[str]]:
        """The cards dealt that were given for the part being entered."""
        return self.hand.part_cards() if self.parts else {}

    def to_record(self) -> dict[str, Any]:
        """The hand's entry of the match record, as ``hand_record`` stores it."""
        entry = self.hand.to_entry()
        if "pica_pica" in entry:
            # tournaments.services._check_entry wants an events list on every hand entry;
            # the match layer ignores it on a pica-pica hand.
            entry = {"events": [], **entry}
        return entry

    def buttons(self) -> dict[str, list[Button]]:
        """The legal next actions of the current part, by group, labelled."""
        groups: dict[str, list[Button]] = {
            "play": [],
            "mestre": [],
            "answer": [],
            "settle": [],
            "trick": [],
            "call": [],
        }
        if not self.parts:
            return groups
        state = self.current.state
        for action in self.hand.legal_actions():
            if isinstance(action, EnvidoPoints | FlorPoints):
                continue  # declared points have their own form (the cards settle alone)
            if isinstance(action, Play) and not self.cards_mode:
                continue
            if isinstance(action, Trick) and self.cards_mode:
                continue  # card by card: the engine takes the tricks from the cards
            if isinstance(action, EnvidoWinner | FlorWinner) and self.settlement is None:
                continue  # nothing to settle, or the cards given settle it
            group = _GROUPS[type(action)]
            by = getattr(action, "by", None)
            side = state.team[by] if by else getattr(action, "winner", None)
            side = side or getattr(action, "side", None)
            label = (
                card_name(str(action.card))
                if isinstance(action, Play)
                else describe(action, state, self.names)
            )
            groups[group].append(
                Button(
                    label=label,
                    event=json.dumps(action.to_event(), separators=(",", ":")),
                    group=group,
                    side=side if side in state.sides else None,
                    player=by,
                    short=short_label(action) or label,
                )
            )
        return groups

    def side_calls(self, side: str) -> list[tuple[str, list[Button]]]:
        """A side's players in team order with their answers, calls and mazo: everything
        a player may do sits on his card, so that six players' actions fit one screen."""
        if not self.parts:
            return []
        state = self.current.state
        players = [p for p in self.team_order() if state.team.get(p) == side]
        by_player: dict[str, list[Button]] = {p: [] for p in players}
        groups = self.buttons()
        for button in groups["answer"] + groups["call"]:
            if button.player in by_player:
                by_player[button.player].append(button)
        return [(p, by_player[p]) for p in players if p in state.order]

    def team_order(self) -> list[str]:
        """Every player of the match in team order (side A's, then side B's)."""
        teams = self.match_record.get("teams", {})
        return [p for side in ("A", "B", "C") for p in teams.get(side, [])]

    def play_grid(self) -> list[tuple[str, list[Button]]]:
        """Card-by-card entry: the cards the player to play may play, by suit."""
        by_suit: dict[str, list[Button]] = {}
        for button in self.buttons()["play"]:
            card = json.loads(button.event)["play"]
            # The row names the suit: the button shows the rank, its label the whole card.
            button.player = card[:-1]
            by_suit.setdefault(card[-1], []).append(button)
        return [(SUIT_NAMES[suit], by_suit[suit]) for suit in "EBOC" if suit in by_suit]

    @property
    def to_play(self) -> str | None:
        """Card-by-card entry: who plays the next card (None before the hand is decided)."""
        if not self.parts or not self.cards_mode:
            return None
        return self.current.state.to_play()

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
            told = {"title": title, "lines": lines, "outcome": part.outcome}
            if part.outcome is not None and part.start.gallo is not None:
                # A gallo's hand: its two sides (the gallo, the pair) by their players.
                told["sides"] = [
                    (side_players(part.start, side, self.names), part.outcome["points"][side])
                    for side in sorted(part.start.sides)
                ]
            parts.append(told)
        return parts

    def pair_names(self) -> list[str]:
        return [" – ".join(self.names.get(p, p) for p in pair) for pair in (self.pairs or [])]


_GROUPS: dict[type, str] = {
    Play: "play",
    Call: "call",
    Mazo: "call",
    Answer: "answer",
    Trick: "trick",
    EnvidoWinner: "settle",
    FlorWinner: "settle",
    MestreDecision: "mestre",
}


def short_label(action: Action) -> str:
    """A call, an answer or a mazo without its player ("truco", "quiero"), for a button
    that sits after the player's name; empty for any other action."""
    if isinstance(action, Call):
        return str(CALL_NAMES.get(action.call, action.call))
    if isinstance(action, Answer):
        return str(ANSWER_NAMES.get(action.answer, action.answer))
    if isinstance(action, Mazo):
        return pgettext("a button after a player's name", "mazo")
    return ""


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
    return _("%(player)s plays %(card)s") % {"player": player, "card": card_name(str(action.card))}


SUIT_NAMES = {
    "E": gettext_lazy("Swords"),
    "B": gettext_lazy("Clubs"),
    "O": gettext_lazy("Coins"),
    "C": gettext_lazy("Cups"),
}
