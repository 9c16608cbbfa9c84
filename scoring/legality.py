"""Whether an action may happen now: each action checked against a hand's state.

Legality is a query separate from applying (docs/scoring.md): :func:`route` checks an
action against the state and returns the function of :mod:`scoring.effects` that
performs it, or raises the :class:`~scoring.errors.EngineError` that says why not. The
rules themselves are the rule families' (``truco``, ``envido``, ``flor``, ``catalan``);
this module keeps the order of play: whose turn, what must be answered first, what a
decided hand still takes. :func:`scoring.hand.legal_actions` lists what passes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring import catalan, envido, flor, truco
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
)
from scoring.count import all_cards_known, card_winner
from scoring.effects import (
    DO_ANSWER,
    DO_CALL,
    do_mazo,
    do_mestre,
    do_penalty,
    do_play,
    do_settlement,
    do_trick,
    do_void,
    points_winner,
)
from scoring.errors import error
from scoring.state import DETAILED, QUICK, HandState
from scoring.tricks import PARDA

__all__ = ["SETTLED_OUT", "route"]

SETTLED_OUT = ("void", "redeal", "mestre_pass")  # hands where envido/flor no longer count


def route(state: HandState, action: Action) -> Callable[[HandState, Action], None]:
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
        return do_mestre
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
        return do_penalty
    if kind is Void:
        if state.decided is not None:
            raise error("void_after_decided")
        return do_void
    if kind in (EnvidoPoints, EnvidoWinner, FlorPoints, FlorWinner):
        _check_settlement(state, action)
        return do_settlement
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
    return DO_CALL[module]  # the module found once, for the check and the deed


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
    return DO_ANSWER[module]


def _check_mazo(state: HandState, action: Mazo) -> Callable[[HandState, Mazo], None]:
    truco.check_mazo(state, action.by)
    return do_mazo


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
        return do_play
    if len(state.played.get(by, ())) >= 3:
        raise error("no_cards_left", player=by)
    if card in state.used or any(card in hand for hand in state.cards.values()):
        raise error("card_unavailable", card=str(card))
    return do_play


def _check_trick(state: HandState, action: Trick) -> Callable[[HandState, Trick], None]:
    if state.mode == DETAILED:
        raise error("mixed_entry")
    if state.flor_pending or state.envido_status == "pending" or state.truco_pending:
        _check_no_pending(state)  # raises, naming the call that waits
    winner = action.winner
    if winner != PARDA and winner not in state.sides:
        _check_side(state, winner)  # raises
    return do_trick


def _check_settlement(state: HandState, action: Action) -> None:
    is_envido = isinstance(action, EnvidoPoints | EnvidoWinner)
    what = "envido" if is_envido else "flor"
    if state.decided in SETTLED_OUT:
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
    points_winner(state, action)


# The checks of the actions of the play, each returning the function that performs it.
_PLAY_CHECKS: dict[type, Callable[[HandState, Any], Callable[[HandState, Any], None]]] = {
    Call: _check_call,
    Answer: _check_answer,
    Play: _check_play,
    Trick: _check_trick,
    Mazo: _check_mazo,
    MestreDecision: _check_mestre,
}
