"""Entering the next hand of a match, action by action: :class:`HandEntry`.

A redondo hand is one part. A pica-pica hand (six and eight players, ``003``) is first a
choice of pairs (each player facing one opponent; by default the one sitting opposite,
the player nearer the mano leading), then one two-player sub-hand per pair, in the order
chosen, each starting from the score the previous pair left. The chico may end in the
middle of a pica-pica hand: the pairs after it are played out at the table but no longer
entered or counted.

The entry is pure data: the referee tablet (``referees/entry.py``) only labels what it
offers. :meth:`HandEntry.to_entry` is the hand's entry of the match record, what
:func:`scoring.match.score_match` scores; :meth:`HandEntry.to_draft` / :meth:`restore`
carry an unfinished entry between two requests.

>>> from scoring.actions import Answer
>>> rec = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
...        "seats": ["ana", "beto"], "hands": []}
>>> entry = HandEntry.from_match(rec)
>>> entry.apply({"by": "beto", "call": "truco"})
>>> sorted(a.answer for a in entry.legal_actions() if isinstance(a, Answer))
['no_quiero', 'quiero']
>>> entry.apply(Answer("ana", "no_quiero"))
>>> entry.finished, entry.score, entry.to_entry()["events"][-1]
(True, {'A': 0, 'B': 1}, {'by': 'ana', 'answer': 'no_quiero'})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.actions import Action, Play, action_from_event
from scoring.enums import HandKind, HandStatus
from scoring.errors import EngineError, error
from scoring.hand import apply, is_finished, legal_actions, needs_settlement, result
from scoring.match import MatchState, next_hand_from_state, score_match_result, subhand_record
from scoring.record import hand_from_record
from scoring.results import NextHand
from scoring.state import HandState

__all__ = ["EntryPart", "HandEntry"]


@dataclass
class EntryPart:
    """A redondo hand, or one pica-pica pair's sub-hand, as entered so far."""

    order: tuple[str, ...]
    start: HandState = field(repr=False)
    state: HandState = field(repr=False)
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def outcome(self) -> dict[str, Any] | None:
        """The result so far, when the engine can compute it and something counted."""
        try:
            outcome = result(self.state)
        except EngineError:
            return None
        if self.state.decided is None and not outcome["items"]:
            return None
        return outcome

    @property
    def chico_over(self) -> bool:
        """A side reached the target on what this part counted so far."""
        outcome = self.outcome
        return outcome is not None and outcome["status"] == HandStatus.GAME_OVER

    @property
    def done(self) -> bool:
        """Decided and settled, or the chico already over on what was counted."""
        return is_finished(self.state) or self.chico_over


class HandEntry:
    """The next hand of a match as a referee enters it.

    Build it with :meth:`from_match` (replaying the match record), :meth:`from_state`
    (from the match's stored :class:`~scoring.match.MatchState`, replaying nothing) or
    from a :class:`~scoring.results.NextHand` and the match record (its hands are not
    needed: the match's head, ``rules``, ``teams``, ``seats`` and ``captains``). Every
    refusal is an :class:`~scoring.errors.EngineError`; the entry then stays as it was.
    """

    def __init__(
        self, upcoming: NextHand, match_record: Mapping[str, Any], *, plays: bool | None = None
    ) -> None:
        self.upcoming = upcoming
        # True: card by card from the first event (a truco call before the first card is
        # checked against the turn, as the saved record will be); False: trick winners
        # only, a card is bad_draft; None: either, decided as in a record by the first
        # card or trick (checking a draft or a match record whatever its entry mode).
        self.plays = plays
        self.match_record = match_record
        self.kind = HandKind(upcoming.kind)
        self.number = upcoming.number
        self.pairs: list[tuple[str, str]] | None = None
        self.parts: list[EntryPart] = []
        # Card-by-card entry: the cards dealt to some or all players of each part (by part
        # index), as the record's "cards"; the engine then checks plays and computes envido
        # and flor values from them.
        self.cards: dict[int, dict[str, list[str]]] = {}
        if self.kind == HandKind.REDONDO:
            self.parts = [self._part(0)]

    @classmethod
    def from_match(cls, match_record: Mapping[str, Any]) -> HandEntry:
        """The entry of the next hand of ``match_record`` (``match_over`` once decided)."""
        scored = score_match_result(match_record)
        if scored.next is None:
            raise error("match_over", winner=scored.winner, number=len(scored.hands) + 1)
        return cls(scored.next, match_record)

    @classmethod
    def from_state(
        cls,
        match_head: Mapping[str, Any],
        state: MatchState | None,
        *,
        plays: bool | None = None,
    ) -> HandEntry:
        """The entry of the next hand after ``state`` (None: the first hand) of the match
        whose record without hands is ``match_head``; ``match_over`` once decided.

        >>> head = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
        ...         "seats": ["ana", "beto"]}
        >>> from scoring.match import score_next_hand
        >>> _, state = score_next_hand(head, None, {"events": [{"by": "beto", "mazo": True}]})
        >>> entry = HandEntry.from_state(head, state)
        >>> entry.number, entry.upcoming.mano, entry.score
        (2, 'beto', {'A': 2, 'B': 0})
        """
        upcoming = next_hand_from_state(match_head, state)
        if upcoming is None:
            hands = state.hands if state is not None else 0
            winner = state.winner if state is not None else None
            raise error("match_over", winner=winner, number=hands + 1)
        return cls(upcoming, match_head, plays=plays)

    # -- parts ------------------------------------------------------------------------
    def _record(self, index: int, events: Sequence[Any] = ()) -> dict[str, Any]:
        if self.kind == HandKind.REDONDO:
            record = {**self.upcoming.record}
        else:
            score = dict(self.upcoming.score)
            if index:
                previous = self.parts[index - 1].outcome
                score = dict(previous["score"]) if previous else score
            first, second = self.pairs[index]  # type: ignore[index]
            record = subhand_record({"score": score}, self.match_record, first, second)
        # The events to be replayed: their first card or trick decides the entry mode.
        record["events"] = list(events)
        if self.cards.get(index):
            record["cards"] = self.cards[index]
        return record

    def _part(self, index: int, events: Sequence[Any] = ()) -> EntryPart:
        record = self._record(index, events)
        start = hand_from_record(record, card_by_card=self.plays is True)
        return EntryPart(order=tuple(record["order"]), start=start, state=start)

    def _replay(self, index: int, events: Sequence[Any]) -> None:
        """Rebuild part ``index`` from ``events``; on a bad one raise, keeping those before."""
        part = self._part(index, events)
        del self.parts[index:]
        self.parts.append(part)
        for event in events:
            self._step(part, event)

    def _step(self, part: EntryPart, action: Action | Any) -> None:
        if isinstance(action, Mapping):
            action = action_from_event(action, part.state.rules.deck, index=len(part.events))
        if self.plays is False and isinstance(action, Play):
            raise error("bad_draft", detail="this entry takes trick winners, not cards")
        part.state = apply(part.state, action)  # raises, leaving the part as it was
        part.events.append(action.to_event())

    # -- choosing the pairs (pica-pica) -------------------------------------------------
    @property
    def choosing_pairs(self) -> bool:
        return self.kind == HandKind.PICA_PICA and self.pairs is None

    def default_pairs(self) -> list[tuple[str, str]]:
        """Each player faces the opponent sitting opposite (``003``), the one nearer the
        mano leading; pairs in the order of the mano's.

        >>> rec = {"rules": "argentine", "teams": {"A": ["a1", "a2", "a3"],
        ...        "B": ["b1", "b2", "b3"]}, "seats": ["a1", "b1", "a2", "b2", "a3", "b3"],
        ...        "hands": [{"events": [{"trick": "A"}, {"trick": "A"}]}]}
        >>> HandEntry.from_match(rec).default_pairs()
        [('b1', 'a3'), ('a2', 'b3'), ('b2', 'a1')]
        """
        order = list(self.upcoming.order)
        side_of = {p: side for side, members in self.match_record["teams"].items() for p in members}
        n, half = len(order), len(order) // 2
        # Opposite is seat i + n/2; with eight players in alternate seats that is a
        # teammate, so the nearest opponent to the opposite seat is taken instead.
        offsets = sorted(range(1, n), key=lambda k: (abs(k - half), k))
        taken: set[str] = set()
        pairs = []
        for i, player in enumerate(order):
            if player in taken:
                continue
            for k in offsets:
                j = (i + k) % n
                other = order[j]
                if other not in taken and side_of[other] != side_of[player]:
                    break
            else:
                break  # no opponent left: the caller chooses the pairs by hand
            taken.update((player, other))
            pairs.append((player, other) if i < j else (other, player))
        return pairs

    def choose_pairs(self, pairs: Sequence[Any]) -> None:
        """Start a pica-pica hand: the pairs in the order they will be entered, each its
        mano first (``pairs_invalid`` unless every player is in one pair facing an
        opponent)."""
        if self.kind != HandKind.PICA_PICA:
            raise error("bad_draft", detail="a redondo hand has no pairs")
        seats = sorted(self.match_record["seats"])
        side_of = {p: side for side, members in self.match_record["teams"].items() for p in members}
        if (
            not pairs
            or not all(isinstance(p, list | tuple) and len(p) == 2 for p in pairs)
            or not all(isinstance(player, str) for pair in pairs for player in pair)
            or sorted(p for pair in pairs for p in pair) != seats
            or any(side_of.get(a) == side_of.get(b) for a, b in pairs)
        ):
            raise error("pairs_invalid")
        self.pairs = [(a, b) for a, b in pairs]
        self.cards = {}
        self.parts = [self._part(0)]

    # -- entering -----------------------------------------------------------------------
    @property
    def current(self) -> EntryPart:
        """The part being entered (``bad_draft`` while the pairs are still to be chosen)."""
        if not self.parts:
            raise error("bad_draft", detail="the pairs are still to be chosen")
        return self.parts[-1]

    @property
    def state(self) -> HandState:
        """The state of the part being entered."""
        return self.current.state

    def legal_actions(self) -> list[Action]:
        """What may happen next in the part being entered (nothing once the chico is over)."""
        if not self.parts or self.current.chico_over:
            return []
        return legal_actions(self.current.state)

    def apply(self, action: Action | Mapping[str, Any]) -> None:
        """Apply an action (or an event dict) to the part being entered."""
        self._step(self.current, action)

    def undo(self) -> None:
        """Take back the last event, going back to the previous pair if need be."""
        if not self.parts:
            return
        if not self.current.events and len(self.parts) > 1:
            self.cards.pop(len(self.parts) - 1, None)
            self.parts.pop()
        index = len(self.parts) - 1
        self._replay(index, self.current.events[:-1])

    def reset(self) -> None:
        """Start the hand again (a pica-pica hand goes back to choosing its pairs); the
        cards given are forgotten too."""
        self.cards = {}
        if self.kind == HandKind.REDONDO:
            self.parts = [self._part(0)]
        else:
            self.pairs, self.parts = None, []

    def set_cards(self, cards: Mapping[str, Any]) -> None:
        """Give the cards dealt to some or all players of the part being entered (player ->
        three cards, as the record's ``cards``; an empty mapping takes them back). Its
        events are replayed with them: plays are checked against them and envido and flor
        values come from them. On a refusal the entry stays as it was.

        >>> rec = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
        ...        "seats": ["ana", "beto"], "hands": []}
        >>> entry = HandEntry.from_match(rec)
        >>> entry.set_cards({"ana": ["7E", "6E", "1O"], "beto": ["4C", "5C", "3O"]})
        >>> [str(a.card) for a in entry.legal_actions() if isinstance(a, Play)]
        ['7E', '6E', '1O']
        >>> entry.set_cards({"beto": ["7E", "5C", "3O"]})
        Traceback (most recent call last):
        ...
        scoring.errors.CardError: The card 7E appears twice.
        """
        if not isinstance(cards, Mapping):
            raise error("bad_field", field="cards", detail="map players to their three cards")
        index = len(self.parts) - 1
        part = self.current
        before = self.cards.get(index)
        merged = {**(before or {}), **{p: list(c) for p, c in cards.items()}} if cards else {}
        self.cards[index] = merged
        try:
            self._replay(index, part.events)
        except EngineError:
            if before is None:
                self.cards.pop(index, None)
            else:
                self.cards[index] = before
            self.parts[index] = part
            raise
        if not merged:
            self.cards.pop(index, None)

    def part_cards(self, index: int | None = None) -> dict[str, list[str]]:
        """The cards given for a part (the current one by default)."""
        if index is None:
            index = len(self.parts) - 1
        return {p: list(c) for p, c in self.cards.get(index, {}).items()}

    @property
    def can_move_on(self) -> bool:
        """This pair's sub-hand is done and another pair is still to play it."""
        return (
            self.pairs is not None
            and 0 < len(self.parts) < len(self.pairs)
            and self.current.done
            and not self.current.chico_over
        )

    def next_pair(self) -> None:
        """Go on to the next pair, starting from the score this one left."""
        if not self.can_move_on:
            raise error("bad_draft", detail="this pair's sub-hand is not done")
        self.parts.append(self._part(len(self.parts)))

    # -- where the hand stands ------------------------------------------------------------
    @property
    def chico_over(self) -> bool:
        return bool(self.parts) and self.current.chico_over

    @property
    def finished(self) -> bool:
        """The hand may be stored: every part done, or the chico over."""
        if not self.parts:
            return False
        if self.current.chico_over:
            return True
        total = 1 if self.pairs is None else len(self.pairs)
        return len(self.parts) == total and self.current.done

    @property
    def score(self) -> dict[str, int]:
        """The running score of the chico after what has been counted so far."""
        for part in reversed(self.parts):
            outcome = part.outcome
            if outcome is not None:
                return dict(outcome["score"])
        return dict(self.upcoming.score)

    @property
    def settlement(self) -> str | None:
        """``"envido"`` or ``"flor"`` when an accepted bet of the current part needs its
        winner (None once the chico is over)."""
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

    # -- storing ----------------------------------------------------------------------
    def _subhands(self) -> list[dict[str, Any]]:
        subhands = []
        for i, pair in enumerate(self.pairs or []):
            sub: dict[str, Any] = {"order": list(pair), "events": self._events(i)}
            if self.cards.get(i):
                sub["cards"] = self.part_cards(i)
            subhands.append(sub)
        return subhands

    def _events(self, index: int) -> list[dict[str, Any]]:
        return list(self.parts[index].events) if index < len(self.parts) else []

    def to_entry(self) -> dict[str, Any]:
        """The hand's entry of the match record: ``{"events"}`` (with ``gallo`` for three
        players) or ``{"pica_pica": [{"order", "events"}...]}``."""
        if self.kind == HandKind.REDONDO:
            entry: dict[str, Any] = {"events": list(self.current.events)}
            if self.cards.get(0):
                entry["cards"] = self.part_cards(0)
            if self.upcoming.gallo is not None:
                entry["gallo"] = self.upcoming.gallo
            return entry
        return {"pica_pica": self._subhands()}

    def to_draft(self) -> dict[str, Any]:
        """The unfinished entry as data, for :meth:`restore`: ``{"events"}`` for a redondo,
        ``{"pica_pica": [...], "current": k}`` once the pairs are chosen, else ``{}``; with
        ``cards`` (a redondo's, or each sub-hand's) where they were given."""
        if self.kind == HandKind.REDONDO:
            draft: dict[str, Any] = {"events": list(self.current.events)}
            if self.cards.get(0):
                draft["cards"] = self.part_cards(0)
            return draft
        if self.pairs is None:
            return {}
        return {"pica_pica": self._subhands(), "current": len(self.parts) - 1}

    def restore(self, draft: Any) -> None:
        """Replay a :meth:`to_draft` value. A malformed draft is ``bad_draft``; an event the
        rules refuse raises its own error; either way the entry keeps every valid step
        before the fault."""
        if not isinstance(draft, dict):
            raise error("bad_draft", detail="it is not an object")
        if self.kind == HandKind.REDONDO:
            events = draft.get("events", [])
            if "pica_pica" in draft or not isinstance(events, list):
                raise error("bad_draft", detail="a redondo hand is a list of events")
            self._restore_cards(0, draft.get("cards"))
            self._replay(0, events)
            return
        subhands = draft.get("pica_pica")
        if subhands is None:
            return  # the pairs are still to be chosen
        if not isinstance(subhands, list) or not all(isinstance(s, dict) for s in subhands):
            raise error("bad_draft", detail="a pica-pica hand is a list of pairs")
        self.choose_pairs([s.get("order") for s in subhands])
        current = draft.get("current", 0)
        if type(current) is not int or not 0 <= current < len(subhands):
            raise error("bad_draft", detail="the pair being entered is unknown")
        for index, sub in enumerate(subhands):
            events = sub.get("events", [])
            if not isinstance(events, list) or (index > current and events):
                raise error("bad_draft", detail="a pair's events are out of place")
            if index > current:
                break
            if index and (not self.parts[index - 1].done or self.parts[index - 1].chico_over):
                raise error("bad_draft", detail="a pair starts before the one before it ended")
            self._restore_cards(index, sub.get("cards"))
            self._replay(index, events)

    def _restore_cards(self, index: int, cards: Any) -> None:
        if cards is None or cards == {}:
            self.cards.pop(index, None)
            return
        if not isinstance(cards, dict) or not all(isinstance(c, list) for c in cards.values()):
            raise error("bad_field", field="cards", detail="map players to their three cards")
        self.cards[index] = {p: list(c) for p, c in cards.items()}
