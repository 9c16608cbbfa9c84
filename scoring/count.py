"""The result of a hand: the output object of docs/hand-record.md from a hand's state.

Every scoring line counts at the event that settled it: penalties when awarded, the envido
and the flor when answered or settled, the hand's own item (truco, mazo, mestre) last of
all, since envido and flor are scored before the truco. A side that reaches the target ends
the count there and nothing after it counts (docs/rules.md "Envido", ``001``); a void
annuls the rest of the hand, but not points that had already ended the chico.
:func:`scoring.hand.result` is this module's :func:`result`.
"""

from __future__ import annotations

from typing import Any

from scoring import catalan, envido, flor
from scoring.errors import error
from scoring.state import HandState
from scoring.tricks import REDEAL

__all__ = ["VOID", "all_cards_known", "card_winner", "result"]

VOID = "void"


def all_cards_known(state: HandState) -> bool:
    """Is every player's hand in the record (so the cards settle envido and flor)?"""
    return len(state.cards) == len(state.order)


def card_winner(state: HandState, is_envido: bool) -> str:
    """The side the known cards give the envido (or the flor) to."""
    values = envido.card_values(state) if is_envido else flor.card_values(state)
    return envido.settle_by_points(state, {}, values, "envido" if is_envido else "flor")


def result(state: HandState) -> dict[str, Any]:
    """The output object of docs/hand-record.md: ``points``, ``score``, ``items``, ``status``,
    ``winner``.

    Items count in the order they happened, envido and flor before the truco; once a side
    reaches the target the rest of the hand is left out (docs/rules.md "Envido", ``001``).
    Raises ``settlement_missing`` when an accepted bet that counts has no known winner.
    """
    # Every scoring line at the event that settled it: penalties when awarded, the envido
    # and the flor when answered or settled, the hand's own item last of all (envido and
    # flor are scored before the truco). A side reaching the target ends the count there.
    # An entry is (event, tag, sequence, what): sorted by event, then tag (envido and
    # penalties 0, flor 2, the hand 3); the sequence keeps the order they were listed in.
    bets: list[_Entry] = []
    if state.envido_status in ("accepted", "refused"):
        bets.append((state.envido_at, 0, 0, _ENVIDO))
    if state.flores and not state.flor_pending:
        bets.append((state.flor_at, 2, 1, _FLOR))
    penalties: list[_Entry] = []
    for i, p in enumerate(state.penalties):
        penalties.append((p[0], 0, 2 + i, p))
    if state.decided in (VOID, REDEAL):
        # A void annuls the hand's bets, unless one settled before it ended the chico:
        # the points that ended it stand (rules "Envido").
        early = [b for b in bets if b[0] < state.decided_at and b[1] in _settled_bets(state)]
        if early:
            outcome = _tally(state, early + penalties)
            if outcome["winner"] is not None:
                return outcome
        return _tally(state, penalties)
    entries = bets + penalties
    if state.decided is not None:
        last = state.decided_at
        for bet in bets:
            last = max(last, bet[0])
        entries.append((last, 3, len(entries) + 2, _HAND))
    return _tally(state, entries)


# What an entry of the count scores: the envido, the flor, the hand's own item, or a
# penalty (its (event, side, points, reason) tuple itself).
_ENVIDO, _FLOR, _HAND = "envido", "flor", "hand"
_Entry = tuple[int, int, int, Any]


def _settled_bets(state: HandState) -> tuple[int, ...]:
    """Which bets have a known winner: 0 the envido, 2 the flor (their sort tags)."""
    settled = []
    if state.envido_status == "refused" or state.envido_winner or all_cards_known(state):
        settled.append(0)
    if not flor.needs_settlement(state):
        settled.append(2)
    return tuple(settled)


def _tally(state: HandState, entries: list[_Entry]) -> dict[str, Any]:
    if len(entries) > 1:
        entries.sort()  # the sequence is unique: the payloads are never compared
    target = state.rules.target
    score = dict(state.score)
    points = dict.fromkeys(state.sides, 0)
    items = []
    winner = None
    for _, _, _, what in entries:
        if what is _HAND:
            item = _hand_item(state)
            if item is None:
                continue
        elif what is _ENVIDO:
            item = _envido_item(state, score)
        elif what is _FLOR:
            item = _flor_item(state, score)
        else:
            _, side, value, reason = what
            item = {"kind": "penalty", "side": side, "points": value, "reason": reason}
        items.append(item)
        side = item["side"]
        points[side] += item["points"]
        score[side] += item["points"]
        if score[side] >= target:
            winner = side
            break
    if winner is not None:
        status = "game_over"
    elif state.decided in (VOID, REDEAL):
        status = state.decided
    else:
        status = "complete"
    final = {}
    for side, value in score.items():
        final[side] = value if value < target else target
    if winner is None and state.rules.has_mestre:
        final = catalan.reset_eleven(final)
    return {"points": points, "score": final, "items": items, "status": status, "winner": winner}


def _envido_item(state: HandState, score: dict[str, int]) -> dict[str, Any]:
    chain = state.envido_calls
    if state.envido_status == "refused":
        side = state.envido_callers[-1]
        return {
            "kind": "envido",
            "side": side,
            "points": envido.refused_points(chain),
            "calls": list(chain),
            "accepted": False,
        }
    side = state.envido_winner
    if side is None:
        if not all_cards_known(state):
            raise error("settlement_missing", what="envido")
        side = card_winner(state, True)
    if "falta_envido" in chain:
        value = envido.falta_envido_points(
            state.rules, score, side, state.other(side), pica_pica=state.pica_pica
        )
    else:
        value = envido.accepted_points(chain)
    return {"kind": "envido", "side": side, "points": value, "calls": list(chain), "accepted": True}


def _flor_winner(state: HandState) -> str:
    if state.flor_winner is not None:
        return state.flor_winner
    if not all(p in state.cards for p in state.flores):
        raise error("settlement_missing", what="flor")
    return card_winner(state, False)


def _flor_item(state: HandState, score: dict[str, int]) -> dict[str, Any]:
    outcome = state.flor_outcome
    calls = list(state.flor_calls)
    sung = len(state.flores)
    if outcome == "achico":
        side, points = state.team[state.flores[0]], flor.ACHICO
    elif outcome == "refused":
        side, points = state.flor_caller, flor.ACHICO
    elif outcome == "accepted":
        side = _flor_winner(state)
        points = flor.flor_bet_points(
            state.rules, state.flor_level, score, side, sung, pica_pica=state.pica_pica
        )
    else:
        side = _flor_winner(state) if flor.contested(state) else state.team[state.flores[0]]
        points = flor.SUNG * sum(1 for p in state.flores if state.team[p] == side)
    return {"kind": "flor", "side": side, "points": points, "calls": calls, "flores": sung}


def _hand_item(state: HandState) -> dict[str, Any] | None:
    if state.mestre_decision is not None:
        return catalan.mestre_item(state)
    calls = list(state.truco_calls)
    if state.decided == "mazo":
        return {
            "kind": "mazo",
            "side": state.winner,
            "points": state.hand_points,
            "folded": state.other(state.winner),  # type: ignore[arg-type]
            "calls": calls,
        }
    item: dict[str, Any] = {
        "kind": "truco",
        "side": state.winner,
        "points": state.hand_points,
        "calls": calls,
    }
    if calls:
        item["accepted"] = state.decided != "refused"
    return item
