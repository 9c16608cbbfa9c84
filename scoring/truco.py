"""The truco ladder (argentine truco, retruco, vale cuatro; catalan truc, tres) and the mazo.

docs/rules.md "Truco (argentine) and truc/tres (catalan)". The ladder itself (names, values,
refusal values) is rule-set data (:class:`scoring.rules.Ladder`); this module holds who may
call, raise and answer, and what a refusal or a fold scores.

- A call is made by the player whose turn it is to play, or right after playing his card
  (``000``); quick entry cannot see turns, so any player still in the hand may call.
- Any player of the other side may answer (``000``); catalan: only the cap de colla
  (``002``). ``quiero``, ``no_quiero`` or the next step (a raise implies quiero).
- Only the side that accepted the last step may raise next, at any later moment (``000``,
  ``003``).
- Mazo: a player folds; his side concedes when all its players have folded (``003``).
"""

from __future__ import annotations

from scoring.errors import error
from scoring.state import DETAILED, HandState

__all__ = [
    "check_answer",
    "check_call",
    "check_mazo",
    "do_answer",
    "do_call",
    "do_mazo",
    "mazo_envido_point",
]


def check_answerer(state: HandState, by: str, caller_side: str | None) -> None:
    """``by`` must belong to the side answering a call of ``caller_side`` (catalan: its
    cap de colla, unless he has gone to the mazo)."""
    side = state.team[by]
    if side == caller_side:
        raise error("not_answering_side", player=by)
    if state.rules.captain_answers:
        captain = state.captains[side]
        if by != captain and captain not in state.folded:
            raise error("not_captain", captain=captain, side=side)


def check_in_turn(state: HandState, by: str) -> None:
    """Detailed entry: a call comes from the player to play or the one who just played."""
    if state.mode == DETAILED and by != state.to_play() and by != state.last_player:
        raise error("call_not_in_turn", player=by)


def check_call(state: HandState, by: str, call: str) -> None:
    ladder = state.rules.ladder
    if state.mestre_decision == "play":
        raise error("no_announcements")
    if state.flor_pending:
        raise error("answer_pending", what="flor", side=state.flor_caller)
    if state.envido_status == "pending":
        raise error("answer_pending", what="envido", side=state.envido_callers[-1])
    side = state.team[by]
    top = len(ladder.calls)
    if state.truco_pending:
        if side == state.truco_caller:
            raise error("answer_pending", what=ladder.calls[0], side=side)
        # A raise answering the pending step (it implies quiero).
        check_answerer(state, by, state.truco_caller)
        if state.truco_pending == top:
            raise error("truco_top", call=ladder.calls[0])
        expected = ladder.calls[state.truco_pending]
    else:
        if state.truco_level == top:
            raise error("truco_top", call=ladder.calls[0])
        expected = ladder.calls[state.truco_level]
        if state.truco_level and side != state.truco_owner:
            raise error("raise_not_allowed", side=state.truco_owner, call=ladder.calls[0])
        check_in_turn(state, by)
    if call != expected:
        raise error("truco_order", call=call, expected=expected)


def do_call(state: HandState, by: str, call: str) -> None:
    if state.truco_pending:
        state.truco_level = state.truco_pending  # the raise accepts the step it answers
    state.truco_pending = state.truco_level + 1
    state.truco_caller = state.team[by]
    state.truco_calls.append(call)


def check_answer(state: HandState, by: str, answer: str) -> None:
    if answer not in ("quiero", "no_quiero"):
        raise error("bad_answer", answer=answer, what=state.rules.ladder.calls[0])
    check_answerer(state, by, state.truco_caller)


def do_answer(state: HandState, by: str, answer: str) -> None:
    step = state.truco_pending
    state.truco_pending = 0
    if answer == "quiero":
        state.truco_level = step
        state.truco_owner = state.team[by]
    else:
        # Refusing a step gives the caller the value of the step before (docs/rules.md).
        decide(state, "refused", state.truco_caller, state.rules.ladder.refused[step - 1])


def decide(state: HandState, how: str, winner: str | None, points: int) -> None:
    """The hand is decided now: ``winner`` takes ``points`` for it."""
    state.decided = how
    state.winner = winner
    state.hand_points = points
    state.decided_at = state.step


def check_mazo(state: HandState, by: str) -> None:
    side = state.team[by]
    # A side may not fold while its own call awaits an answer (docs/rules.md "Going to the mazo").
    own = (
        (state.truco_pending and state.truco_caller == side)
        or (state.envido_status == "pending" and state.envido_callers[-1] == side)
        or (state.flor_pending and state.flor_caller == side)
    )
    if own:
        raise error("mazo_own_call", side=side)


def mazo_envido_point(state: HandState) -> bool:
    """Option ``mazo_envido_point`` (``001``): conceding before the first trick is decided,
    with no envido or flor called and the truco not accepted, gives one more point."""
    rules = state.rules
    return (
        rules.has_envido
        and rules.mazo_envido_point
        and not state.tricks
        and not state.envido_calls
        and not state.flores
        and state.truco_level == 0
    )


def do_mazo(state: HandState, by: str) -> bool:
    """Fold ``by``; returns True when his side thereby concedes the hand."""
    state.folded.add(by)
    side = state.team[by]
    if state.active(side):
        return False
    other = state.other(side)
    extra = 1 if mazo_envido_point(state) else 0
    # The other side's unanswered calls count as refused by the folding side.
    if state.envido_status == "pending":
        state.envido_status = "refused"
        state.envido_at = state.step
    if state.flor_pending:
        state.flor_pending = False
        state.flor_outcome = "refused"
        state.flor_at = state.step
    state.truco_pending = 0
    decide(state, "mazo", other, state.rules.ladder.value(state.truco_level) + extra)
    return True
