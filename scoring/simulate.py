"""Random legal hands: a random walk over :func:`scoring.hand.legal_actions`.

Used by the property tests and the engine benchmark (``bench/engine.py``); reproducible
from a :class:`random.Random` seed. Each walk returns the hand record it produced (which
replays through ``python -m scoring hand``) and the final state.

>>> import random
>>> from scoring.hand import is_finished
>>> record, state = random_hand(random.Random(7), "argentine", players=4)
>>> is_finished(state) and len(record["order"]) == 4
True
"""

from __future__ import annotations

import random
from typing import Any

from scoring.actions import (
    Action,
    EnvidoPoints,
    EnvidoWinner,
    FlorPoints,
    FlorWinner,
    Mazo,
    Penalty,
    Play,
    Trick,
    Void,
)
from scoring.cards import envido_points, flor_points
from scoring.hand import apply, legal_actions
from scoring.record import hand_from_record
from scoring.rules import RuleSet
from scoring.state import HandState

__all__ = ["PLAYER_COUNTS", "random_hand", "random_record"]

# Player counts the engine plays (docs/rules.md "Presets and options").
PLAYER_COUNTS = {"argentine": (2, 3, 4, 6, 8), "catalan": (2, 4, 6)}
MAX_EVENTS = 80


def random_record(
    rng: random.Random,
    rules: str | dict[str, Any],
    *,
    players: int,
    detailed: bool = False,
    known_cards: float = 1.0,
) -> dict[str, Any]:
    """A record with no events yet: random seats, score, captains and (detailed) a deal of
    which a share ``known_cards`` of the hands is written down."""
    rule_set = RuleSet.from_spec(rules)
    sizes = (1, 2) if players == 3 else (players // 2, players // 2)
    teams = {
        "A": [f"a{i}" for i in range(1, sizes[0] + 1)],
        "B": [f"b{i}" for i in range(1, sizes[1] + 1)],
    }
    if sizes[0] == sizes[1]:
        seats = [p for pair in zip(teams["A"], teams["B"], strict=True) for p in pair]
    else:
        seats = ["a1", "b1", "b2"]
    turn = rng.randrange(len(seats))
    order = seats[turn:] + seats[:turn]
    top = rule_set.target - 1
    score = {side: rng.choice((0, rng.randint(0, top), top)) for side in teams}
    record: dict[str, Any] = {"rules": rules, "teams": teams, "order": order, "score": score}
    if rule_set.is_catalan:
        record["captains"] = {side: rng.choice(members) for side, members in teams.items()}
    if players == 3:
        record["gallo"] = "a1"
    if players == 2 and rule_set.pica_pica and not rule_set.is_catalan and rng.random() < 0.2:
        record["pica_pica"] = True
    if detailed:
        deck = sorted(rule_set.deck, key=lambda c: (c.suit, c.rank))
        rng.shuffle(deck)
        cards = {p: [str(c) for c in deck[3 * i : 3 * i + 3]] for i, p in enumerate(order)}
        record["cards"] = {p: h for p, h in cards.items() if rng.random() < known_cards}
    record["events"] = []
    return record


def random_hand(
    rng: random.Random,
    rules: str | dict[str, Any],
    *,
    players: int,
    detailed: bool = False,
    known_cards: float = 1.0,
    interventions: bool = True,
) -> tuple[dict[str, Any], HandState]:
    """Play a random legal hand to its end; returns ``(record, final state)``.

    Detailed hands record card plays, quick hands trick winners. With ``interventions``
    the referee now and then awards a penalty or voids the hand.
    """
    record = random_record(rng, rules, players=players, detailed=detailed, known_cards=known_cards)
    # A detailed hand is entered card by card from its first event: before the first card
    # only the player to lead it may call the truco, as its record will be scored.
    state = hand_from_record(record, card_by_card=detailed)
    events = record["events"]
    referee = 2 if interventions else 0  # at most two interventions: the hand must go on
    for _ in range(MAX_EVENTS):
        actions = [a for a in legal_actions(state) if _fits(a, detailed)]
        if not actions:
            break
        if referee:
            roll = rng.random()
            if roll < 0.015:
                referee -= 1
            if roll < 0.01:
                actions = [Penalty(rng.choice(state.sides), rng.randint(1, 4), "pido flor")]
            elif roll < 0.015 and state.decided is None:
                actions = [Void("card shown")]
        weights = [0.2 if isinstance(a, Mazo) else 1.0 for a in actions]
        action = rng.choices(actions, weights)[0]
        if isinstance(action, EnvidoWinner | FlorWinner) and rng.random() < 0.5:
            action = _declared_points(rng, state, isinstance(action, EnvidoWinner))
        state = apply(state, action)
        events.append(action.to_event())
    return record, state


def _declared_points(rng: random.Random, state: HandState, is_envido: bool) -> Action:
    """Settle by declared points instead: true values for known hands, random ones else."""
    players = list(state.order) if is_envido else list(dict.fromkeys(state.flores))
    chosen = rng.sample(players, rng.randint(1, len(players)))
    low, high = (0, 33) if is_envido else (20, 38)
    points = []
    for player in chosen:
        cards = state.cards.get(player)
        if cards is not None:
            value = envido_points(cards) if is_envido else flor_points(cards)
        else:
            value = rng.randint(low, high)
        points.append((player, value))
    return EnvidoPoints(tuple(points)) if is_envido else FlorPoints(tuple(points))


def _fits(action: Action, detailed: bool) -> bool:
    return not isinstance(action, Trick if detailed else Play)
