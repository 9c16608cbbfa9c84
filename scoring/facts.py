"""What a hand tells beyond its score: how each side made its points, who called what and
how it was answered, who sang flor or went to the mazo (statistics, docs/scoring.md).

Everything here is read from the engine's own scoring of the hand, never from a second
reading of the rules: the points by source are the engine's items (``score_hand``), and
who called, answered, sang or folded is read from the engine's state before and after
each event as :func:`scoring.hand.apply` plays the record (an answer belongs to the bet
whose pending state it closed). :func:`hand_facts` reads one hand record;
:func:`match_hand_facts` one hand of a match as the match layer scored it (its
``records``, one per part: a pica-pica hand's sub-hands are added up).

>>> facts = hand_facts({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
...     "order": ["ana", "beto"], "score": {"A": 0, "B": 0},
...     "events": [{"by": "ana", "call": "envido"}, {"by": "beto", "answer": "quiero"},
...                {"envido_winner": "A"}, {"by": "beto", "call": "truco"},
...                {"by": "ana", "answer": "no_quiero"}]})
>>> a, b = facts.sides["A"], facts.sides["B"]
>>> a.points, a.envido_points, a.envido_called, a.envido_won, b.envido_accepted
(2, 2, 1, 1, 1)
>>> b.points, b.truco_points, b.truco_calls, b.truco_refused, facts.players["ana"].truco_answers
(1, (1, 0, 0, 0), 1, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from scoring.actions import action_from_event
from scoring.enums import HandStatus
from scoring.hand import apply
from scoring.phases import phase
from scoring.record import hand_from_record, score_hand_result
from scoring.results import HandResult, MatchHand
from scoring.rules import RuleSet
from scoring.state import HandState

__all__ = ["HandFacts", "PlayerFacts", "SideFacts", "fact_items", "hand_facts", "match_hand_facts"]

# Truco points are kept by the level the hand was played at: 0 no step accepted (the plain
# hand, or a first call refused), then each step of the ladder accepted (argentine truco,
# retruco, vale cuatro; catalan truc, tres).
LEVELS = 4


def _zero_levels() -> tuple[int, ...]:
    return (0,) * LEVELS


@dataclass(frozen=True, slots=True)
class SideFacts:
    """One side in one hand. Counts add up over hands (``+``); flags are ``or``-ed.

    Points, as the engine counted them (a side reaching the target ends the count): all
    of them (``points``), and by source: ``envido_points``, ``flor_points``,
    ``truco_points`` (by level: no step accepted, first, second, third step),
    ``mazo_points`` (the other side went to the mazo), ``penalty_points``,
    ``mestre_points`` (catalan rule of 11).

    Envido: ``envido_called`` the side opened the envido; ``envido_accepted`` /
    ``envido_refused`` it answered an envido quiero / no quiero; ``envido_played`` an
    accepted envido was played out, ``envido_won`` it took that envido's points.

    Truco: ``truco_calls`` the steps the side called, and how the other side answered
    them: ``truco_accepted``, ``truco_refused``, ``truco_raised`` (a raise: the next step
    called, which accepts this one); a call neither of these was left by going to the
    mazo or by the end of the hand. ``truco_answers`` the answers it gave (the other
    side's calls it accepted, refused or raised).

    ``flor_sung`` its flores sung; ``mazos`` hands it conceded at the mazo;
    ``penalties`` penalties awarded to it. ``trailing``: it was in the malas while the
    other side was in the buenas before or after the hand (:func:`scoring.phase`);
    ``chico_won``: it won the chico with this hand.
    """

    points: int = 0
    envido_points: int = 0
    flor_points: int = 0
    truco_points: tuple[int, ...] = field(default_factory=_zero_levels)
    mazo_points: int = 0
    penalty_points: int = 0
    mestre_points: int = 0
    envido_called: int = 0
    envido_accepted: int = 0
    envido_refused: int = 0
    envido_played: int = 0
    envido_won: int = 0
    truco_calls: int = 0
    truco_accepted: int = 0
    truco_refused: int = 0
    truco_raised: int = 0
    truco_answers: int = 0
    flor_sung: int = 0
    mazos: int = 0
    penalties: int = 0
    trailing: bool = False
    chico_won: bool = False

    def __add__(self, other: SideFacts) -> SideFacts:
        return _add(self, other)


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """One player in one hand: what he called and answered himself.

    ``envido_calls`` (every call of the envido chain he made), ``envido_accepted`` /
    ``envido_refused`` (his answers to an envido), ``truco_calls`` and how they were
    answered (``truco_accepted``, ``truco_refused``, ``truco_raised``), ``truco_answers``
    (his answers to a truco step: quiero, no quiero or a raise), ``flor_sung``, ``mazo``
    (he went to the mazo).
    """

    envido_calls: int = 0
    envido_accepted: int = 0
    envido_refused: int = 0
    truco_calls: int = 0
    truco_accepted: int = 0
    truco_refused: int = 0
    truco_raised: int = 0
    truco_answers: int = 0
    flor_sung: int = 0
    mazo: int = 0

    def __add__(self, other: PlayerFacts) -> PlayerFacts:
        return _add(self, other)


@dataclass(frozen=True, slots=True)
class HandFacts:
    """A hand's facts: each side's (:class:`SideFacts`) and each player's
    (:class:`PlayerFacts`: every player who took part, facts or none), with the engine's
    ``status`` of the hand and its ``truco_level`` (the steps accepted, the highest of a
    pica-pica hand's sub-hands)."""

    sides: Mapping[str, SideFacts]
    players: Mapping[str, PlayerFacts]
    status: HandStatus
    truco_level: int = 0
    # A gallo por turno hand: the pair plays as one side named after its first player and
    # what it does counts for each of its two players, so the second player's side repeats
    # the pair's facts; ``shared`` names it (second player's side -> the pair's side), for
    # sums that must count a hand's events once.
    shared: Mapping[str, str] = field(default_factory=dict)


# The facts only some rules can tell: the envido's (none in catalan), the flor's (where the
# rules play flor), the mestre's (catalan's rule of 11).
_ENVIDO_ITEMS = frozenset(
    (
        "envido_points",
        "envido_called",
        "envido_calls",
        "envido_accepted",
        "envido_refused",
        "envido_played",
        "envido_won",
    )
)
_FLOR_ITEMS = frozenset(("flor_points", "flor_sung"))
_MESTRE_ITEMS = frozenset(("mestre_points",))


def fact_items(rules: RuleSet) -> frozenset[str]:
    """The names of the facts (fields of :class:`SideFacts` and :class:`PlayerFacts`) a
    hand played under ``rules`` can tell: a statistic outside them is zero by the rules,
    not by play (no envido in catalan, no flor without it, no mestre outside catalan, no
    side ``trailing`` in the malas where the target has no halves: 15, catalan's 12).

    >>> items = fact_items(RuleSet.from_spec("catalan"))
    >>> "envido_points" in items, "flor_sung" in items, "mestre_points" in items, "mazos" in items
    (False, False, True, True)
    >>> "trailing" in items, "trailing" in fact_items(RuleSet.from_spec("argentine"))
    (False, True)
    >>> flor, plain = RuleSet.from_spec("argentine_flor"), RuleSet.from_spec("argentine")
    >>> sorted(fact_items(flor) - fact_items(plain))
    ['flor_points', 'flor_sung']
    """
    names = {f.name for f in fields(SideFacts)} | {f.name for f in fields(PlayerFacts)}
    if not rules.has_envido:
        names -= _ENVIDO_ITEMS
    if not rules.flor:
        names -= _FLOR_ITEMS
    if not rules.has_mestre:
        names -= _MESTRE_ITEMS
    if not rules.has_halves:
        names.discard("trailing")
    return frozenset(names)


def _add(one: Any, other: Any) -> Any:
    values = {}
    for f in fields(one):
        a, b = getattr(one, f.name), getattr(other, f.name)
        if isinstance(a, bool):
            values[f.name] = a or b
        elif isinstance(a, tuple):
            values[f.name] = tuple(x + y for x, y in zip(a, b, strict=True))
        else:
            values[f.name] = a + b
    return type(one)(**values)


def hand_facts(record: Mapping[str, Any]) -> HandFacts:
    """The facts of one complete hand record (docs/hand-record.md, what ``python -m
    scoring hand`` reads), scored by the engine; raises its :class:`EngineError` on a
    record it refuses.

    >>> facts = hand_facts({"rules": "argentine_flor", "teams": {"A": ["ana"], "B": ["beto"]},
    ...     "order": ["ana", "beto"], "score": {"A": 3, "B": 20},
    ...     "events": [{"by": "ana", "call": "flor"}, {"by": "beto", "mazo": True}]})
    >>> facts.sides["A"].flor_sung, facts.sides["A"].flor_points, facts.sides["A"].mazo_points
    (1, 3, 1)
    >>> facts.sides["B"].mazos, facts.players["beto"].mazo, facts.sides["A"].trailing
    (1, 1, True)
    """
    result = score_hand_result(record)
    sides, players, level = _part(record, result)
    rules = RuleSet.from_spec(record["rules"])
    sides = _with_phases(sides, rules, (record["score"], result.score), result.winner)
    return HandFacts(sides, players, result.status, level)


def match_hand_facts(hand: MatchHand) -> HandFacts:
    """The facts of one hand of a match, as :func:`scoring.score_match_result` or
    :func:`scoring.score_next_hand` scored it (from its ``records`` and ``parts``).

    The sub-hands of a pica-pica hand add up (those counted: after one that ends the
    chico the others are not). Every player of the hand is in ``players``; ``trailing``
    reads the chico's score before and after the whole hand.

    >>> from scoring.match import score_match_result
    >>> match = score_match_result({"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]},
    ...     "seats": ["ana", "beto"], "hands": [
    ...         {"events": [{"by": "ana", "call": "truco"}, {"by": "beto", "call": "retruco"},
    ...                     {"by": "ana", "answer": "quiero"}, {"trick": "B"}, {"trick": "B"}]}]})
    >>> facts = match_hand_facts(match.hands[0])
    >>> facts.sides["B"].truco_points, facts.sides["A"].truco_raised, facts.truco_level
    ((0, 0, 3, 0), 1, 2)
    """
    sides: dict[str, SideFacts] = {}
    players: dict[str, PlayerFacts] = {p: PlayerFacts() for p in hand.order}
    level = 0
    for record, result in zip(hand.records, hand.parts, strict=False):
        part_sides, part_players, part_level = _part(record, result)
        for side, facts in part_sides.items():
            sides[side] = sides[side] + facts if side in sides else facts
        for player, facts in part_players.items():
            players[player] = players.get(player, PlayerFacts()) + facts
        level = max(level, part_level)
    shared: dict[str, str] = {}
    if hand.gallo is not None and hand.records and len(hand.score_before) == 3:
        teams = hand.records[0].get("teams", {})
        pair = next((side for side, members in teams.items() if len(members) > 1), None)
        for side in hand.score_before:
            if side not in teams and pair in sides:
                sides[side] = sides[pair]
                shared[side] = pair
    for side in hand.score_before:
        sides.setdefault(side, SideFacts())
    if hand.records:
        rules = RuleSet.from_spec(hand.records[0]["rules"])
        scores = (hand.score_before, hand.score)
        sides = _with_phases(sides, rules, scores, hand.chico_winner)
    return HandFacts(sides, players, hand.status, level, shared)


def _with_phases(
    sides: dict[str, SideFacts],
    rules: RuleSet,
    scores: Iterable[Mapping[str, int]],
    winner: str | None,
) -> dict[str, SideFacts]:
    """Mark each side trailing (in the malas while another is in the buenas) and the
    chico's winner."""
    trailing = set()
    for score in scores:
        phases = {side: phase(rules, score, side) for side in sides}
        names = {side: p.name if p else "" for side, p in phases.items()}
        if "buenas" in names.values():
            trailing.update(s for s, name in names.items() if name == "malas")
    return {
        side: _replace(facts, trailing=side in trailing, chico_won=side == winner)
        for side, facts in sides.items()
    }


def _replace(facts: SideFacts, **changes: Any) -> SideFacts:
    values = {f.name: getattr(facts, f.name) for f in fields(facts)}
    values.update(changes)
    return SideFacts(**values)


def _part(
    record: Mapping[str, Any], result: HandResult
) -> tuple[dict[str, SideFacts], dict[str, PlayerFacts], int]:
    """One hand record (a redondo, or one pica-pica sub-hand) and the engine's result."""
    state = hand_from_record(record)
    side: dict[str, dict[str, Any]] = {s: _counts(SideFacts) for s in state.sides}
    player: dict[str, dict[str, Any]] = {p: _counts(PlayerFacts) for p in state.order}
    truco_caller: str | None = None  # the player whose truco step awaits its answer
    deck = state.rules.deck
    for index, event in enumerate(record.get("events") or ()):
        before = state
        state = apply(before, action_from_event(event, deck, index=index))
        by = event.get("by") if isinstance(event.get("by"), str) else None
        if len(state.truco_calls) > len(before.truco_calls):
            if before.truco_pending and truco_caller is not None:
                # A raise answers the pending step: accepted, one step up.
                _count(side, player, truco_caller, state, "truco_raised")
                _count(side, player, by, state, "truco_answers")
            truco_caller = by
            _count(side, player, by, state, "truco_calls")
        elif before.truco_pending and not state.truco_pending and truco_caller is not None:
            if state.decided == "refused":
                _count(side, player, truco_caller, state, "truco_refused")
                _count(side, player, by, state, "truco_answers")
            elif state.truco_level > before.truco_level:
                _count(side, player, truco_caller, state, "truco_accepted")
                _count(side, player, by, state, "truco_answers")
            truco_caller = None
        if len(state.envido_calls) > len(before.envido_calls) and by is not None:
            player[by]["envido_calls"] += 1
            if not before.envido_calls:
                side[state.team[by]]["envido_called"] += 1
        elif before.envido_status == "pending" and by is not None:
            if state.envido_status == "accepted":
                _count(side, player, by, state, "envido_accepted")
            elif state.envido_status == "refused":
                _count(side, player, by, state, "envido_refused")
        for singer in state.flores[len(before.flores) :]:
            player[singer]["flor_sung"] += 1
            side[state.team[singer]]["flor_sung"] += 1
        for folded in state.folded - before.folded:
            player[folded]["mazo"] += 1
    for item in result.items:
        counts = side[item.side]
        counts["points"] += item.points
        if item.kind == "truco":
            levels = list(counts["truco_points"])
            levels[min(state.truco_level, LEVELS - 1)] += item.points
            counts["truco_points"] = tuple(levels)
        elif item.kind in ("envido", "flor", "mazo", "mestre"):
            counts[f"{item.kind}_points"] += item.points
        elif item.kind == "penalty":
            counts["penalty_points"] += item.points
            counts["penalties"] += 1
        if item.kind == "envido" and item.details.get("accepted"):
            counts["envido_won"] += 1
            for played in side.values():
                played["envido_played"] += 1
        if item.kind == "mazo" and item.details.get("folded") in side:
            side[item.details["folded"]]["mazos"] += 1
    return (
        {s: SideFacts(**c) for s, c in side.items()},
        {p: PlayerFacts(**c) for p, c in player.items()},
        state.truco_level,
    )


def _counts(kind: type) -> dict[str, Any]:
    return {f.name: getattr(kind(), f.name) for f in fields(kind)}


def _count(
    side: dict[str, dict[str, Any]],
    player: dict[str, dict[str, Any]],
    by: str | None,
    state: HandState,
    name: str,
) -> None:
    """Count ``name`` for the player ``by`` and his side."""
    if by is None:
        return
    player[by][name] += 1
    side[state.team[by]][name] += 1
