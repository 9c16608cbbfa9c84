"""The hand as a state machine: ``legal_actions(state)``, ``apply(state, action)``, ``result``.

Legality is a query separate from applying (after python-chess): the tablet shows
exactly :func:`legal_actions`; :func:`apply` returns a new state or raises an
:class:`~scoring.errors.EngineError` with a stable code, never changing the state it was
given. The rules themselves live in one module per family (``tricks``, ``truco``,
``envido``, ``flor``, ``catalan``); whether an action may happen now is
:mod:`scoring.legality` (the order of play: who plays next, what must be answered first,
when the hand is decided) and what it does is :mod:`scoring.effects`. This module is
their front: a hand started, actions applied, what may happen next, whether it is over.

>>> from scoring.record import hand_from_record
>>> state = hand_from_record({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
...     "order": ["ana", "beto"], "score": {"A": 0, "B": 0}, "events": []})
>>> Call("ana", "truco") in legal_actions(state)
True
>>> state = apply(state, Call("ana", "truco"))
>>> sorted(a.answer for a in legal_actions(state) if isinstance(a, Answer))
['no_quiero', 'quiero']
>>> state = apply(state, Answer("beto", "no_quiero"))
>>> result(state)["points"]
{'A': 1, 'B': 0}
"""

from __future__ import annotations

from typing import Any

from scoring import catalan, envido, flor
from scoring.actions import (
    ANSWERS,
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
    action_from_event,
)
from scoring.cards import Card, flor_points
from scoring.count import all_cards_known, result
from scoring.errors import EngineError
from scoring.legality import SETTLED_OUT, route
from scoring.results import HandResult
from scoring.rules import RuleSet
from scoring.state import DETAILED, HandState
from scoring.tricks import PARDA

__all__ = [
    "HandState",
    "apply",
    "hand_result",
    "is_finished",
    "legal_actions",
    "needs_settlement",
    "new_hand",
    "play_events",
    "result",
    "step",
]


def new_hand(
    rules: RuleSet,
    teams: dict[str, list[str]],
    order: list[str],
    score: dict[str, int],
    *,
    cards: dict[str, tuple[Card, ...]] | None = None,
    captains: dict[str, str] | None = None,
    pica_pica: bool = False,
    gallo: str | None = None,
    card_by_card: bool = False,
) -> HandState:
    """The state before the first event, from already validated parts (see
    :func:`scoring.record.hand_from_record` for the checked way in).

    ``card_by_card``: the hand is entered card by card from its first event, so a truco
    call before the first card is already checked against the turn (docs/rules.md
    "Truco"); otherwise the first card or trick recorded decides the entry mode."""
    first, second = teams
    team = dict.fromkeys(teams[first], first)
    team.update(dict.fromkeys(teams[second], second))
    if rules.has_mestre:
        score = catalan.reset_eleven(score)
    state = HandState(
        rules=rules,
        sides=(first, second),
        order=tuple(order),
        team=team,
        captains=dict(captains or {}),
        score=dict(score),
        cards=dict(cards or {}),
        pica_pica=pica_pica,
        gallo=gallo,
        leader=order[0],
        mode=DETAILED if card_by_card else None,
    )
    if rules.has_mestre:
        state.mestre = catalan.mestre_side(state.score)
    return state


# -- applying -----------------------------------------------------------------------------
def apply(state: HandState, action: Action) -> HandState:
    """A new state with ``action`` applied; ``state`` itself is never changed.

    Raises :class:`~scoring.errors.EngineError` (``event`` = the state's event index) when
    the action is not legal now.

    >>> from scoring.record import hand_from_record
    >>> start = hand_from_record({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...     "order": ["ana", "beto"], "score": {"A": 0, "B": 0}, "events": []})
    >>> after = apply(start, Trick("A"))
    >>> start.tricks, after.tricks
    ([], ['A'])
    >>> apply(after, Answer("beto", "quiero"))
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalActionError: There is no call waiting for an answer.
    """
    try:
        perform = route(state, action)
    except EngineError as exc:
        exc.event = state.step
        raise
    new = state.copy()
    perform(new, action)
    new.step += 1
    return new


def step(state: HandState, action: Action) -> None:
    """Apply ``action`` to ``state`` in place (for a caller that owns a private state)."""
    try:
        perform = route(state, action)
    except EngineError as exc:
        exc.event = state.step
        raise
    perform(state, action)
    state.step += 1


def play_events(state: HandState, events: list[Any]) -> None:
    """Parse and apply a record's ``events`` in order to ``state`` in place, as
    :func:`step` would one by one (the record scorer's loop, one call less per event).
    A refused event raises with ``event`` its index."""
    deck = state.rules.deck
    for index, event in enumerate(events):
        action = action_from_event(event, deck, index=index)
        try:
            perform = route(state, action)
        except EngineError as exc:
            exc.event = state.step
            raise
        perform(state, action)
        state.step += 1


# -- queries ------------------------------------------------------------------------------
def needs_settlement(state: HandState) -> str | None:
    """``"envido"`` or ``"flor"`` when an accepted bet still needs its winner, else None."""
    if state.envido_status != "accepted" and not state.flores:
        return None  # the usual hand: no bet that waits for its winner
    if state.decided in SETTLED_OUT:
        return None
    if (
        state.envido_status == "accepted"
        and state.envido_winner is None
        and not all_cards_known(state)
    ):
        return "envido"
    if flor.needs_settlement(state):
        return "flor"
    return None


def hand_result(state: HandState) -> HandResult:
    """:func:`result` as a typed, frozen :class:`~scoring.results.HandResult`."""
    return HandResult.from_dict(result(state))


def is_finished(state: HandState) -> bool:
    """The hand is decided and nothing accepted remains to be settled."""
    return state.decided is not None and needs_settlement(state) is None


def legal_actions(state: HandState) -> list[Action]:
    """Every action that may happen next, and who may do it.

    Referee interventions that are always possible with free values (``penalty``, and
    ``void`` before the hand is decided) are not listed, nor declared-points settlements
    unless the cards fix them; winner settlements (``envido_winner``, ``flor_winner``) are.

    >>> from scoring.actions import Penalty
    >>> from scoring.record import hand_from_record
    >>> state = hand_from_record({"rules": "catalan",
    ...     "teams": {"A": ["anna", "arnau"], "B": ["biel", "berta"]},
    ...     "captains": {"A": "anna", "B": "biel"}, "order": ["anna", "biel", "arnau", "berta"],
    ...     "score": {"A": 3, "B": 11}, "events": []})
    >>> legal_actions(state)
    [MestreDecision(by='biel', decision='play'), MestreDecision(by='biel', decision='pass')]
    >>> state = apply(apply(state, MestreDecision("biel", "pass")), Penalty("A", 1, "signs"))
    >>> legal_actions(state), result(state)["score"]
    ([], {'A': 5, 'B': 11})
    """
    candidates: list[Action] = []
    if state.decided is None:
        players = [p for p in state.order if p not in state.folded]
        if state.mestre is not None and state.mestre_decision is None:
            captain = state.captains[state.mestre]
            candidates += [MestreDecision(captain, "play"), MestreDecision(captain, "pass")]
        else:
            calls = state.rules.ladder.calls
            if state.rules.has_envido:
                calls += envido.CALLS
            if state.rules.flor:
                calls += flor.CALLS
            for p in players:
                candidates += [Call(p, c) for c in calls]
                candidates += [Answer(p, a) for a in ANSWERS]
                candidates.append(Mazo(p))
            mover = state.to_play()
            if mover is not None:
                candidates += [Play(mover, c) for c in _playable(state, mover)]
            if state.mode != DETAILED:
                candidates += [Trick(s) for s in (*state.sides, PARDA)]
    for side in state.sides:
        candidates += [EnvidoWinner(side), FlorWinner(side)]
    if all_cards_known(state):
        values = envido.card_values(state)
        candidates.append(EnvidoPoints(tuple((p, values[p]) for p in state.order)))
        singers = [p for p in state.flores if p in state.cards]
        if singers:
            candidates.append(FlorPoints(tuple((p, flor_points(state.cards[p])) for p in singers)))
    legal = []
    for action in candidates:
        try:
            route(state, action)
        except EngineError:
            continue
        legal.append(action)
    return legal


def _playable(state: HandState, player: str) -> list[Card]:
    own = state.cards.get(player)
    if own is not None:
        return [c for c in own if c not in state.used]
    taken = set(state.used)
    for hand in state.cards.values():
        taken.update(hand)
    return sorted((c for c in state.rules.deck if c not in taken), key=lambda c: (c.suit, c.rank))
