"""The flor (``flor: true``): singing it, the answers, contraflor and contraflor al resto.

docs/rules.md "Flor" (seeds ``003``, ``004``):

- A player with three cards of one suit sings ``flor`` in the first trick before playing
  his card, one each; a sung flor cancels any envido of the hand, called or not, unless
  that envido's points have already ended the chico.
- Answers are open only to a player of the other side who has flor himself:
  his own ``flor`` (settled by value: 3 for each flor of the best side),
  ``con_flor_me_achico`` (4 in all to the side that sang first), ``contraflor`` (accepted:
  6 to the best flor; refused: 4 to the caller) or ``contraflor_al_resto`` (accepted: by
  option ``contraflor_al_resto``; refused: 4 to the caller).
- In pica-pica the contraflor al resto is worth 12.

>>> from scoring.rules import RuleSet
>>> flor_bet_points(RuleSet.from_spec("argentine_flor"), 2, {"A": 20, "B": 10}, "B", 2,
...                 pica_pica=False)
16
"""

from __future__ import annotations

from collections.abc import Mapping

from scoring.cards import flor_points, has_flor
from scoring.errors import error
from scoring.rules import RuleSet
from scoring.state import DETAILED, HandState
from scoring.truco import check_answerer

__all__ = ["CALLS", "check_answer", "check_call", "flor_bet_points", "needs_settlement"]

CALLS = ("flor", "contraflor", "contraflor_al_resto")
SUNG = 3  # each flor that goes unanswered or wins a plain contest (003, 004)
ACHICO = 4  # con flor me achico, or a refused contraflor / contraflor al resto (004)
CONTRAFLOR = 6  # an accepted contraflor (004)


def flor_bet_points(
    rules: RuleSet,
    level: int,
    score: Mapping[str, int],
    winner: str,
    flores: int,
    *,
    pica_pica: bool,
) -> int:
    """An accepted contraflor (``level`` 1) or contraflor al resto (``level`` 2).

    ``resto_plus_flores`` (``003``): what the leader needs to reach the target plus 3 for
    each flor sung; ``whole_chico`` (``004``): the winner takes the chico.
    """
    if level == 1:
        # Option contraflor_value: 6 (004), or 3 for each flor sung (003: 9 with three).
        return SUNG * flores if rules.contraflor_value == "per_flor" else CONTRAFLOR
    if pica_pica:
        return 12  # 003: 6 for the resto plus the contraflor's 6
    if rules.contraflor_al_resto == "whole_chico":
        return rules.target - score[winner]
    return rules.target - max(score.values()) + SUNG * flores


def _check_open(state: HandState, by: str, *, singing: bool) -> None:
    rules = state.rules
    if not rules.flor:
        raise error("flor_disabled")
    if state.mestre_decision == "play":
        raise error("no_announcements")
    if state.flor_outcome is not None:
        raise error("flor_too_late", detail="the flor has already been settled")
    if state.tricks:
        raise error("flor_too_late", detail="the first trick is over")
    if singing:
        if by in state.flores:
            raise error("flor_already_sung", player=by)
        if state.mode == DETAILED and by in state.played:
            raise error("flor_too_late", detail=f"{by} has already played his card")
        cards = state.cards.get(by)
        if cards is not None and not has_flor(cards):
            raise error("no_flor", player=by)


def _sang(state: HandState, side: str) -> bool:
    return any(state.team[p] == side for p in state.flores)


def _could_answer(state: HandState, side: str) -> bool:
    """Is a player of ``side`` still in the hand who may hold a flor (his cards unknown, or
    showing one)? Only such a player answers a flor bet (003), so a bet nobody there could
    answer is no bet: it would leave the hand waiting for ever."""
    return any(
        state.team[p] == side
        and p not in state.folded
        and (p not in state.cards or has_flor(state.cards[p]))
        for p in state.order
    )


def check_call(state: HandState, by: str, call: str) -> None:
    side = state.team[by]
    if call == "flor":
        _check_open(state, by, singing=True)
        if state.flor_pending:
            raise error("answer_pending", what="flor", side=state.flor_caller)
        if state.flor_level:
            raise error("flor_answer_not_allowed", call=call, detail="a flor bet was made")
        return
    # contraflor and contraflor al resto: a raise by the other side of a sung flor.
    if state.flor_pending:
        if call != "contraflor_al_resto" or state.flor_level != 1:
            raise error("flor_answer_not_allowed", call=call, detail="answer the flor bet first")
        _check_open(state, by, singing=False)
        check_answerer(state, by, state.flor_caller)
        _check_holds_flor(state, by)
        if not _could_answer(state, state.flor_caller):
            raise error("flor_answer_not_allowed", call=call, detail="nobody could answer it")
        return
    _check_open(state, by, singing=by not in state.flores)
    if state.flor_level:
        raise error("flor_answer_not_allowed", call=call, detail="the flor bet was answered")
    if not _sang(state, state.other(side)):
        raise error("flor_answer_not_allowed", call=call, detail="the other side sang no flor")
    if not _could_answer(state, state.other(side)):
        raise error("flor_answer_not_allowed", call=call, detail="nobody could answer it")


def _check_holds_flor(state: HandState, by: str) -> None:
    cards = state.cards.get(by)
    if cards is not None and not has_flor(cards):
        raise error("no_flor", player=by)


def do_call(state: HandState, by: str, call: str, *, envido_stands: bool = False) -> None:
    """Sing a flor or make a flor bet. ``envido_stands``: the hand's settled envido has
    already ended the chico, so this flor, played out at the table, cancels nothing."""
    if not state.flores:
        state.flor_start = state.step
    state.flor_at = state.step
    if by not in state.flores:
        # A contraflor sings the caller's own flor; a contraflor al resto over a contraflor
        # accepts it, and accepting sings one's flor too (003, "con flor quiero").
        state.flores.append(by)
    state.flor_calls.append(call)
    # A sung flor cancels any envido of the hand, called or not (003, 004), but it takes
    # back no points that already ended the chico (docs/rules.md "Envido").
    if not envido_stands:
        state.envido_status = "cancelled"
    if call != "flor":
        state.flor_level = 1 if call == "contraflor" else 2
        state.flor_pending = True
        state.flor_caller = state.team[by]


def check_answer(state: HandState, by: str, answer: str) -> None:
    if state.flor_pending:
        check_answerer(state, by, state.flor_caller)
        if answer == "con_flor_me_achico" and state.flor_level == 2:
            # 003: the answers to a contraflor al resto "son sólo dos".
            raise error("bad_answer", answer=answer, what="contraflor al resto")
        _check_holds_flor(state, by)
        return
    # Answers to a sung flor: con flor me achico, or quiero / con flor quiero, which sings
    # the answerer's own flor (003). Only a player of the other side holding a flor. A
    # plain flor is no bet to refuse: who does not want to play his flor against it says
    # con flor me achico (004), so no_quiero is no answer to it.
    if answer == "no_quiero":
        raise error("bad_answer", answer=answer, what="flor")
    side = state.team[by]
    singing = answer != "con_flor_me_achico"
    if singing and not state.flores:
        raise error("nothing_to_answer")
    _check_open(state, by, singing=singing)
    _check_holds_flor(state, by)
    if (
        state.flor_level
        or not _sang(state, state.other(side))
        or (not singing and _sang(state, side))
    ):
        raise error(
            "flor_answer_not_allowed", call=answer, detail="it answers the other side's flor"
        )


def do_answer(state: HandState, by: str, answer: str) -> None:
    state.flor_calls.append(answer)
    state.flor_at = state.step
    sings = answer in ("quiero", "con_flor_quiero")
    if sings and by not in state.flores:
        state.flores.append(by)
    if not state.flor_pending:
        if not sings:
            state.flor_outcome = "achico"
        return
    state.flor_pending = False
    state.flor_outcome = "accepted" if sings else "refused"


def contested(state: HandState) -> bool:
    """Does the flor need a comparison of values (both sides sang, or a bet accepted)?"""
    if state.flor_outcome == "accepted":
        return True
    if state.flor_outcome is not None or not state.flores:
        return False
    return len({state.team[p] for p in state.flores}) == 2


def needs_settlement(state: HandState) -> bool:
    """A contested flor not yet settled and not computable from the cards."""
    return (
        contested(state)
        and state.flor_winner is None
        and not all(p in state.cards for p in state.flores)
    )


def card_values(state: HandState) -> dict[str, int]:
    """Flor values of the singers whose cards are known."""
    return {p: flor_points(state.cards[p]) for p in state.flores if p in state.cards}
