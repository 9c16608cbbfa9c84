"""The envido: when it may be called, the chain and its limits, its values, the falta envido.

docs/rules.md "Envido (argentine presets)" (seeds ``001`` table, ``003``, ``004``).

- Called in the first trick by a player who has not yet played his card, before the truco
  is accepted; quick entry only checks that no trick has been recorded.
- "El envido va primero": the side answering an open truco call in the first trick may
  call envido first; the truco is answered once the envido is settled (``003``, ``004``).
- Chain, option ``envido_chain``: ``ladder`` (``001``), envido (at most twice), then real
  envido (once), then falta envido; ``free`` (``004``), any of the three as the first call
  or a reply, in any order. Either way at most ``envido_max_calls`` calls, nothing after a
  falta envido but quiero / no quiero, and each raise from the answering side.

>>> accepted_points(["envido", "real_envido"])
5
>>> refused_points(["envido", "envido", "real_envido", "falta_envido"])
7
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.cards import envido_points
from scoring.errors import error
from scoring.rules import RuleSet
from scoring.state import DETAILED, HandState
from scoring.truco import check_answerer

__all__ = [
    "CALLS",
    "accepted_points",
    "check_call",
    "check_chain",
    "falta_envido_points",
    "refused_points",
    "settle_by_points",
]

CALLS = ("envido", "real_envido", "falta_envido")
VALUES = {"envido": 2, "real_envido": 3}
_RANK = {"envido": 0, "real_envido": 1, "falta_envido": 2}
_MAX_EACH = {"envido": 2, "real_envido": 1, "falta_envido": 1}


def check_chain(chain: Sequence[str], call: str, max_calls: int, order: str = "ladder") -> None:
    """May ``call`` follow ``chain``? At most ``max_calls`` calls and nothing after a falta
    envido; with ``order`` ``"ladder"`` (option ``envido_chain``, ``001``) only E, E, R, F
    in that order, with ``"free"`` (``004``) any call in any order.

    >>> check_chain(["real_envido"], "envido", 4)
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalActionError: 'envido' cannot follow real_envido in the envido chain.
    >>> check_chain(["real_envido"], "envido", 3, "free")
    >>> check_chain(["falta_envido"], "envido", 3, "free")
    Traceback (most recent call last):
    ...
    scoring.errors.IllegalActionError: 'envido' cannot follow falta_envido in the envido chain.
    """
    if len(chain) >= max_calls:
        raise error("envido_limit", limit=max_calls)
    if not chain:
        return
    if chain[-1] == "falta_envido" or (
        order == "ladder"
        and (_RANK[call] < _RANK[chain[-1]] or chain.count(call) >= _MAX_EACH[call])
    ):
        raise error("envido_chain", call=call, chain=" + ".join(chain))


def refused_points(chain: Sequence[str]) -> int:
    """Refused: the accepted chain before the last call, at least 1 (``001`` table).

    >>> [refused_points(c) for c in (["envido"], ["real_envido", "falta_envido"])]
    [1, 3]
    """
    return max(1, sum(VALUES[c] for c in chain[:-1]))


def accepted_points(chain: Sequence[str]) -> int:
    """Accepted, without a falta envido: the sum of the chain (envido 2, real envido 3).

    >>> accepted_points(["real_envido", "envido"]), accepted_points(["envido"] * 3)
    (5, 6)
    """
    return sum(VALUES[c] for c in chain)


def falta_envido_points(
    rules: RuleSet, score: Mapping[str, int], winner: str, loser: str, *, pica_pica: bool
) -> int:
    """The falta envido's value under option ``falta_envido`` (docs/rules.md "Envido").

    ``score``: the sides' scores when the envido is settled. Malas/buenas are judged on
    the side's own score; with no halves (target 15) "half" means the target.

    >>> r = RuleSet.from_spec("argentine")
    >>> falta_envido_points(r, {"A": 22, "B": 17}, "A", "B", pica_pica=False)
    8
    >>> t = RuleSet.from_spec("trucardo")
    >>> falta_envido_points(t, {"A": 3, "B": 17}, "A", "B", pica_pica=False)
    13
    >>> falta_envido_points(r, {"A": 0, "B": 0}, "A", "B", pica_pica=True)
    6
    """
    if pica_pica:
        return 6  # 003 "Seis jugadores": the falta envido is worth 6 in pica-pica
    mode = rules.falta_envido
    if mode == "leader_to_target":
        return rules.target - max(score.values())
    if mode == "whole_chico":
        return rules.target - score[winner]
    own = score[loser] if mode == "rival_to_half" else max(score.values())
    goal = rules.half if own < rules.half else rules.target
    return goal - own


# -- the state machine's hooks ------------------------------------------------------------
def check_call(state: HandState, by: str, call: str) -> None:
    rules = state.rules
    if not rules.has_envido:
        raise error("envido_disabled", family=rules.family)
    if state.flores:
        raise error("envido_too_late", detail="a flor was sung")
    side = state.team[by]
    if state.envido_status == "pending":
        if side == state.envido_callers[-1]:
            raise error("answer_pending", what="envido", side=side)
        check_answerer(state, by, state.envido_callers[-1])
    elif state.envido_status is not None:
        raise error("envido_closed")
    else:
        if state.flor_pending:
            raise error("answer_pending", what="flor", side=state.flor_caller)
        if state.truco_level:
            raise error("envido_too_late", detail="the truco was accepted")
        if state.truco_pending and side == state.truco_caller:
            raise error("answer_pending", what=rules.ladder.calls[0], side=side)
        if state.tricks:
            raise error("envido_too_late", detail="the first trick is over")
        if state.mode == DETAILED and by in state.played:
            raise error("envido_too_late", detail=f"{by} has already played his card")
    check_chain(state.envido_calls, call, rules.envido_max_calls, rules.envido_chain)


def do_call(state: HandState, by: str, call: str) -> None:
    if not state.envido_calls:
        state.envido_start = state.step
    state.envido_calls.append(call)
    state.envido_callers.append(state.team[by])
    state.envido_status = "pending"


def check_answer(state: HandState, by: str, answer: str) -> None:
    if answer not in ("quiero", "no_quiero"):
        raise error("bad_answer", answer=answer, what="envido")
    check_answerer(state, by, state.envido_callers[-1])


def do_answer(state: HandState, by: str, answer: str) -> None:
    state.envido_status = "accepted" if answer == "quiero" else "refused"
    state.envido_at = state.step


def card_values(state: HandState) -> dict[str, int]:
    """Envido values of the players whose cards are known."""
    return {p: envido_points(cards) for p, cards in state.cards.items()}


def settle_by_points(
    state: HandState, declared: Mapping[str, int], values_of_cards: Mapping[str, int], what: str
) -> str:
    """The side of the best value among declared and card values; ties to the player first
    in playing order from the mano (``003``, ``004``). A side with no value known said
    "son buenas" and loses."""
    for player, value in declared.items():
        if player not in state.team:
            raise error("unknown_player", player=player)
        actual = values_of_cards.get(player)
        if actual is not None and actual != value:
            raise error(
                "value_contradicts_cards", player=player, declared=value, actual=actual, what=what
            )
    values = {**values_of_cards, **declared}
    best = None
    for player in state.order:  # playing order: the first of equal values wins
        if player in values and (best is None or values[player] > values[best]):
            best = player
    return state.team[best]  # type: ignore[index]
