"""The hand as a state machine: ``legal_actions(state)``, ``apply(state, action)``, ``result``.

Legality is a query separate from applying (after python-chess): the tablet shows
exactly :func:`legal_actions`; :func:`apply` returns a new state or raises an
:class:`~scoring.errors.EngineError` with a stable code, never changing the state it was
given. The rules themselves live in one module per family (``tricks``, ``truco``,
``envido``, ``flor``, ``catalan``); this module routes each action to them and keeps the
order of play: who plays next, what must be answered first, when the hand is decided.

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

from collections.abc import Callable
from typing import Any

from scoring import catalan, envido, flor, truco
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
    Penalty,
    Play,
    Trick,
    Void,
    action_from_event,
)
from scoring.cards import Card, flor_points
from scoring.count import VOID, all_cards_known, card_winner, result
from scoring.errors import EngineError, error
from scoring.results import HandResult
from scoring.rules import RuleSet
from scoring.state import DETAILED, QUICK, HandState
from scoring.tricks import PARDA, REDEAL, trick_result
from scoring.tricks import hand_result as tricks_outcome

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

_SETTLED_OUT = ("void", "redeal", "mestre_pass")  # hands where envido/flor no longer count


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


# -- legality -----------------------------------------------------------------------------
def _route(state: HandState, action: Action) -> Callable[[HandState, Action], None]:
    """Check ``action`` against ``state`` and return the function that performs it."""
    kind = type(action)
    check = _PLAY_CHECKS.get(kind)
    if check is None:
        return _route_referee(state, action, kind)
    if state.decided is not None:
        raise error("hand_decided")
    if kind is not Trick:  # every other action of the play has its player
        by = action.by  # type: ignore[union-attr]
        if by not in state.team:
            raise error("unknown_player", player=by)
        if by in state.folded:
            raise error("player_folded", player=by)
    if state.mestre is not None and state.mestre_decision is None:
        if kind is not MestreDecision:
            raise error("mestre_first", side=state.mestre)
        catalan.check_decision(state, action.by)  # type: ignore[union-attr]
        return _do_mestre
    return check(state, action)


def _route_referee(
    state: HandState, action: Action, kind: type
) -> Callable[[HandState, Action], None]:
    """The referee's actions (penalty, void, settlements); anything else is no action."""
    if kind is Penalty:
        _check_side(state, action.to)  # type: ignore[union-attr]
        points = action.points  # type: ignore[union-attr]
        if type(points) is not int or points < 1:
            raise error(
                "bad_event",
                number=state.step + 1,
                detail="the penalty points must be a whole number of at least 1",
            )
        if points > state.rules.max_penalty:
            raise error("penalty_too_big", limit=state.rules.max_penalty)
        return _do_penalty
    if kind is Void:
        if state.decided is not None:
            raise error("void_after_decided")
        return _do_void
    if kind in (EnvidoPoints, EnvidoWinner, FlorPoints, FlorWinner):
        _check_settlement(state, action)
        return _do_settlement
    # Not an action at all: refused after the checks every action goes through.
    if state.decided is not None:
        raise error("hand_decided")
    by = getattr(action, "by", None)
    if by is not None:
        if by not in state.team:
            raise error("unknown_player", player=by)
        if by in state.folded:
            raise error("player_folded", player=by)
    if state.mestre is not None and state.mestre_decision is None:
        raise error("mestre_first", side=state.mestre)
    raise error("bad_event", number=state.step + 1, detail="unknown action")


def _check_call(state: HandState, action: Call) -> Callable[[HandState, Call], None]:
    call = action.call
    if call in state.rules.ladder.calls:
        module: Any = truco
    elif call in envido.CALLS:
        module = envido
    elif call in flor.CALLS:
        module = flor
    else:
        raise error("unknown_call", call=call, family=state.rules.family)
    module.check_call(state, action.by, call)
    return _DO_CALL[module]  # the module found once, for the check and the deed


def _check_answer(state: HandState, action: Answer) -> Callable[[HandState, Answer], None]:
    answer = action.answer
    # The latest open call is answered first: a flor bet, then an envido (which may have
    # been called over a pending truco, "el envido va primero"), then the truco.
    if answer in ("con_flor_me_achico", "con_flor_quiero") or state.flor_pending:
        module: Any = flor
    elif state.envido_status == "pending":
        module = envido
    elif state.truco_pending:
        module = truco
    elif state.flores and state.flor_outcome is None:
        module = flor  # quiero to a sung flor: the answerer sings his own (003)
    else:
        raise error("nothing_to_answer")
    module.check_answer(state, action.by, answer)
    return _DO_ANSWER[module]


def _check_mazo(state: HandState, action: Mazo) -> Callable[[HandState, Mazo], None]:
    truco.check_mazo(state, action.by)
    return _do_mazo


def _check_mestre(state: HandState, action: MestreDecision) -> Callable[..., None]:
    # Reached only once the mestre has decided, or with no mestre: refused either way.
    catalan.check_decision(state, action.by)
    raise error("bad_event", number=state.step + 1, detail="unknown action")


def _check_side(state: HandState, side: str) -> None:
    if side not in state.sides:
        raise error("unknown_side", side=side)


def _check_no_pending(state: HandState) -> None:
    if state.flor_pending:
        raise error("answer_pending", what="flor", side=state.flor_caller)
    if state.envido_status == "pending":
        raise error("answer_pending", what="envido", side=state.envido_callers[-1])
    if state.truco_pending:
        raise error("answer_pending", what=state.rules.ladder.calls[0], side=state.truco_caller)


def _check_play(state: HandState, action: Play) -> Callable[[HandState, Play], None]:
    if state.mode == QUICK:
        raise error("mixed_entry")
    if state.flor_pending or state.envido_status == "pending" or state.truco_pending:
        _check_no_pending(state)  # raises, naming the call that waits
    by, card = action.by, action.card
    expected = state.to_play()
    if by != expected:
        raise error("not_your_turn", player=by, expected=expected)
    if card not in state.rules.deck:
        raise error("bad_card", card=str(card), deck=state.rules.family)
    own = state.cards.get(by)
    if own is not None:
        if card not in own:
            raise error("card_not_yours", card=str(card), player=by)
        if card in state.used:
            raise error("card_unavailable", card=str(card))
        return _do_play
    if len(state.played.get(by, ())) >= 3:
        raise error("no_cards_left", player=by)
    if card in state.used or any(card in hand for hand in state.cards.values()):
        raise error("card_unavailable", card=str(card))
    return _do_play


def _check_trick(state: HandState, action: Trick) -> Callable[[HandState, Trick], None]:
    if state.mode == DETAILED:
        raise error("mixed_entry")
    if state.flor_pending or state.envido_status == "pending" or state.truco_pending:
        _check_no_pending(state)  # raises, naming the call that waits
    winner = action.winner
    if winner != PARDA and winner not in state.sides:
        _check_side(state, winner)  # raises
    return _do_trick


def _check_settlement(state: HandState, action: Action) -> None:
    is_envido = isinstance(action, EnvidoPoints | EnvidoWinner)
    what = "envido" if is_envido else "flor"
    if state.decided in _SETTLED_OUT:
        raise error("hand_decided")
    if is_envido:
        open_ = state.envido_status == "accepted" and state.envido_winner is None
    else:
        open_ = flor.contested(state) and state.flor_winner is None
    if not open_:
        raise error("nothing_to_settle", what=what)
    if isinstance(action, EnvidoWinner | FlorWinner):
        _check_side(state, action.side)
        known = all_cards_known(state) if is_envido else all(p in state.cards for p in state.flores)
        if known:
            actual = card_winner(state, is_envido)
            if actual != action.side:
                raise error(
                    "winner_contradicts_cards", what=what, actual=actual, declared=action.side
                )
        return
    low, high = (0, 33) if is_envido else (20, 38)
    for player, value in action.points:
        if player not in state.team:
            raise error("unknown_player", player=player)
        if not is_envido and player not in state.flores:
            raise error("bad_settlement", what=what, detail=f"{player} sang no flor")
        if not low <= value <= high:
            raise error(
                "bad_settlement", what=what, detail=f"{what} points go from {low} to {high}"
            )
    _points_winner(state, action)


def _points_winner(state: HandState, action: EnvidoPoints | FlorPoints) -> str:
    is_envido = isinstance(action, EnvidoPoints)
    values = envido.card_values(state) if is_envido else flor.card_values(state)
    what = "envido" if is_envido else "flor"
    return envido.settle_by_points(state, dict(action.points), values, what)


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
        perform = _route(state, action)
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
        perform = _route(state, action)
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
            perform = _route(state, action)
        except EngineError as exc:
            exc.event = state.step
            raise
        perform(state, action)
        state.step += 1


def _do_penalty(state: HandState, a: Penalty) -> None:
    state.penalties.append((state.step, a.to, a.points, a.reason))


def _do_void(state: HandState, a: Void) -> None:
    truco.decide(state, VOID, None, 0)
    state.void_reason = a.reason


def _do_settlement(state: HandState, a: Action) -> None:
    # A bet the known cards settled counts from the answer that settled it: declaring its
    # points later (it must agree with the cards) does not move it after a penalty given
    # meanwhile, nor take back a chico it ended (docs/rules.md "Envido").
    if isinstance(a, EnvidoWinner | EnvidoPoints):
        if not all_cards_known(state):
            state.envido_at = state.step
    elif not all(p in state.cards for p in state.flores):
        state.flor_at = state.step
    if isinstance(a, EnvidoWinner):
        state.envido_winner = a.side
    elif isinstance(a, FlorWinner):
        state.flor_winner = a.side
    elif isinstance(a, EnvidoPoints):
        state.envido_declared = dict(a.points)
        state.envido_winner = _points_winner(state, a)
    else:
        state.flor_declared = dict(a.points)
        state.flor_winner = _points_winner(state, a)


def _do_mestre(state: HandState, a: MestreDecision) -> None:
    state.mestre_decision = a.decision
    if a.decision == "pass":
        truco.decide(state, "mestre_pass", None, 0)


def _do_truco_call(state: HandState, a: Call) -> None:
    truco.do_call(state, a.by, a.call)


def _do_envido_call(state: HandState, a: Call) -> None:
    envido.do_call(state, a.by, a.call)


def _do_flor_call(state: HandState, a: Call) -> None:
    flor.do_call(state, a.by, a.call, envido_stands=_chico_over(state))


_DO_CALL = {truco: _do_truco_call, envido: _do_envido_call, flor: _do_flor_call}


def _chico_over(state: HandState) -> bool:
    """Did what the hand counted so far end the chico? Only asked where a later event
    would otherwise take counted points back (a flor cancelling a settled envido)."""
    if state.envido_status not in ("accepted", "refused"):
        return False  # no envido of the hand counts (yet, or any more): nothing to keep
    try:
        return result(state)["winner"] is not None
    except EngineError:
        return False  # an accepted envido still to settle ended nothing yet


def _do_truco_answer(state: HandState, a: Answer) -> None:
    truco.do_answer(state, a.by, a.answer)


def _do_envido_answer(state: HandState, a: Answer) -> None:
    envido.do_answer(state, a.by, a.answer)


def _do_flor_answer(state: HandState, a: Answer) -> None:
    flor.do_answer(state, a.by, a.answer)


_DO_ANSWER = {truco: _do_truco_answer, envido: _do_envido_answer, flor: _do_flor_answer}


def _do_mazo(state: HandState, a: Mazo) -> None:
    conceded = truco.do_mazo(state, a.by)
    if not conceded and state.mode == DETAILED and state.table and state.to_play() is None:
        _end_trick(state)


def _do_play(state: HandState, a: Play) -> None:
    state.mode = DETAILED
    state.table.append((a.by, a.card))
    state.played[a.by] = (*state.played.get(a.by, ()), a.card)
    state.used.add(a.card)
    state.last_player = a.by
    if state.to_play() is None:
        _end_trick(state)


def _end_trick(state: HandState) -> None:
    winner, lead = trick_result(state.table, state.team, state.rules.hierarchy)
    if lead is not None:
        state.leader = lead  # after a parda the player who led it leads again
    state.table = []
    _add_trick(state, winner)


def _do_trick(state: HandState, a: Trick) -> None:
    state.mode = QUICK
    _add_trick(state, a.winner)


def _add_trick(state: HandState, winner: str) -> None:
    state.tricks.append(winner)
    if len(state.tricks) < 2:
        return  # one trick never decides the hand
    outcome = tricks_outcome(
        state.tricks, mano_side=state.mano_side, redeal_on_three_pardas=state.rules.is_catalan
    )
    if outcome == REDEAL:
        truco.decide(state, REDEAL, None, 0)
    elif outcome is not None:
        truco.decide(state, "tricks", outcome, state.rules.ladder.value(state.truco_level))


# The checks of the actions of the play, each returning the function that performs it.
_PLAY_CHECKS: dict[type, Callable[[HandState, Any], Callable[[HandState, Any], None]]] = {
    Call: _check_call,
    Answer: _check_answer,
    Play: _check_play,
    Trick: _check_trick,
    Mazo: _check_mazo,
    MestreDecision: _check_mestre,
}


# -- queries ------------------------------------------------------------------------------
def needs_settlement(state: HandState) -> str | None:
    """``"envido"`` or ``"flor"`` when an accepted bet still needs its winner, else None."""
    if state.envido_status != "accepted" and not state.flores:
        return None  # the usual hand: no bet that waits for its winner
    if state.decided in _SETTLED_OUT:
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
            _route(state, action)
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
