"""What each action of a hand does to its state, once :mod:`scoring.legality` allowed it.

One function per kind of action (a call, an answer, a card, a trick, the mazo, the
mestre's decision, a settlement, a penalty, a void), each changing a :class:`HandState`
in place: the rule families (``truco``, ``envido``, ``flor``, ``catalan``, ``tricks``)
do the work; this module ends tricks and decides the hand when two tricks do.
:func:`scoring.hand.apply` runs them on a private copy.
"""

from __future__ import annotations

from scoring import envido, flor, truco
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
from scoring.count import VOID, all_cards_known, result
from scoring.errors import EngineError
from scoring.state import DETAILED, QUICK, HandState
from scoring.tricks import REDEAL, trick_result
from scoring.tricks import hand_result as tricks_outcome

__all__ = [
    "DO_ANSWER",
    "DO_CALL",
    "do_mazo",
    "do_mestre",
    "do_penalty",
    "do_play",
    "do_settlement",
    "do_trick",
    "do_void",
    "points_winner",
]


def points_winner(state: HandState, action: EnvidoPoints | FlorPoints) -> str:
    """The side the declared points (and the dealt cards where known) give the bet to."""
    is_envido = isinstance(action, EnvidoPoints)
    values = envido.card_values(state) if is_envido else flor.card_values(state)
    what = "envido" if is_envido else "flor"
    return envido.settle_by_points(state, dict(action.points), values, what)


def do_penalty(state: HandState, a: Penalty) -> None:
    state.penalties.append((state.step, a.to, a.points, a.reason))


def do_void(state: HandState, a: Void) -> None:
    truco.decide(state, VOID, None, 0)
    state.void_reason = a.reason


def do_settlement(state: HandState, a: Action) -> None:
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
        state.envido_winner = points_winner(state, a)
    else:
        state.flor_declared = dict(a.points)
        state.flor_winner = points_winner(state, a)


def do_mestre(state: HandState, a: MestreDecision) -> None:
    state.mestre_decision = a.decision
    if a.decision == "pass":
        truco.decide(state, "mestre_pass", None, 0)


def _do_truco_call(state: HandState, a: Call) -> None:
    truco.do_call(state, a.by, a.call)


def _do_envido_call(state: HandState, a: Call) -> None:
    envido.do_call(state, a.by, a.call)


def _do_flor_call(state: HandState, a: Call) -> None:
    flor.do_call(state, a.by, a.call, envido_stands=_chico_over(state))


DO_CALL = {truco: _do_truco_call, envido: _do_envido_call, flor: _do_flor_call}


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


DO_ANSWER = {truco: _do_truco_answer, envido: _do_envido_answer, flor: _do_flor_answer}


def do_mazo(state: HandState, a: Mazo) -> None:
    conceded = truco.do_mazo(state, a.by)
    if not conceded and state.mode == DETAILED and state.table and state.to_play() is None:
        _end_trick(state)


def do_play(state: HandState, a: Play) -> None:
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


def do_trick(state: HandState, a: Trick) -> None:
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
