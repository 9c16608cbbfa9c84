"""What a hand tells (``scoring.hand_facts``, ``scoring.match_hand_facts``): hands whose
facts are known by hand, and properties over random matches (the points by source add up
to the engine's points; a match's hands give the same facts replayed or scored one by one).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring import HandEntry, HandStatus, MatchState, PlayerFacts, SideFacts
from scoring.errors import EngineError
from tests.scoring.test_match_state import MAX_HANDS, SHAPES, head_of, play

DUEL = {"A": ["ana"], "B": ["beto"]}
PAIRS = {"A": ["ana", "alba"], "B": ["beto", "bruno"]}


def record(events: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "rules": "argentine",
        "teams": DUEL,
        "order": ["ana", "beto"],
        "score": {"A": 0, "B": 0},
        "events": events,
    }
    return {**base, **fields}


def test_an_envido_accepted_and_won_then_a_retruco_refused():
    facts = scoring.hand_facts(
        record(
            [
                {"by": "ana", "call": "envido"},
                {"by": "beto", "call": "real_envido"},
                {"by": "ana", "answer": "quiero"},
                {"envido": {"ana": 31, "beto": 27}},
                {"by": "beto", "call": "truco"},
                {"by": "ana", "call": "retruco"},
                {"by": "beto", "answer": "no_quiero"},
            ]
        )
    )
    a, b = facts.sides["A"], facts.sides["B"]
    assert (a.points, a.envido_points, a.truco_points) == (7, 5, (0, 2, 0, 0))
    assert (b.points, b.envido_points) == (0, 0)
    assert (a.envido_called, b.envido_called) == (1, 0)
    assert (a.envido_accepted, b.envido_accepted, a.envido_refused) == (1, 0, 0)
    assert (a.envido_played, b.envido_played, a.envido_won, b.envido_won) == (1, 1, 1, 0)
    # beto's truco was raised by ana; ana's retruco refused by beto.
    assert (b.truco_calls, b.truco_raised, b.truco_accepted) == (1, 1, 0)
    assert (a.truco_calls, a.truco_refused, a.truco_answers, b.truco_answers) == (1, 1, 1, 1)
    ana, beto = facts.players["ana"], facts.players["beto"]
    assert ana == PlayerFacts(
        envido_calls=1, envido_accepted=1, truco_calls=1, truco_refused=1, truco_answers=1
    )
    assert beto == PlayerFacts(envido_calls=1, truco_calls=1, truco_raised=1, truco_answers=1)
    assert facts.truco_level == 1 and facts.status is HandStatus.COMPLETE


def test_an_envido_refused_goes_to_the_caller():
    facts = scoring.hand_facts(
        record(
            [
                {"by": "beto", "call": "envido"},
                {"by": "ana", "answer": "no_quiero"},
                {"trick": "A"},
                {"trick": "A"},
            ]
        )
    )
    a, b = facts.sides["A"], facts.sides["B"]
    assert (b.envido_points, b.envido_called, a.envido_refused) == (1, 1, 1)
    assert (a.envido_played, a.envido_won, b.envido_won) == (0, 0, 0)
    assert a.truco_points == (1, 0, 0, 0) and a.truco_calls == 0


def test_flor_sung_and_a_team_going_to_the_mazo():
    facts = scoring.hand_facts(
        record(
            [
                {"by": "alba", "call": "flor"},
                {"by": "beto", "mazo": True},
                {"by": "bruno", "mazo": True},
            ],
            rules="argentine_flor",
            teams=PAIRS,
            order=["ana", "beto", "alba", "bruno"],
        )
    )
    a, b = facts.sides["A"], facts.sides["B"]
    assert (a.flor_sung, a.flor_points, a.mazo_points, a.points) == (1, 3, 1, 4)
    assert (b.mazos, a.mazos) == (1, 0)
    assert facts.players["alba"].flor_sung == 1 and facts.players["ana"] == PlayerFacts()
    assert facts.players["beto"].mazo == facts.players["bruno"].mazo == 1


def test_a_penalty_and_the_trailing_side_winning_the_chico():
    facts = scoring.hand_facts(
        record(
            [{"penalty": {"to": "A", "points": 3, "reason": "x"}}, {"trick": "A"}, {"trick": "A"}],
            score={"A": 12, "B": 20},
            rules={"preset": "argentine", "target": 30},
        )
    )
    a, b = facts.sides["A"], facts.sides["B"]
    assert (a.penalties, a.penalty_points, a.points) == (1, 3, 4)
    assert a.trailing and not b.trailing and not a.chico_won


def test_the_winner_of_a_chico_is_marked():
    facts = scoring.hand_facts(record([{"trick": "B"}, {"trick": "B"}], score={"A": 0, "B": 29}))
    assert facts.sides["B"].chico_won and not facts.sides["A"].chico_won
    assert facts.status is HandStatus.GAME_OVER


def test_a_void_hand_counts_its_calls_but_no_points():
    facts = scoring.hand_facts(record([{"by": "ana", "call": "truco"}, {"void": "misdeal"}]))
    assert facts.sides["A"].truco_calls == 1 and facts.sides["A"].points == 0
    assert facts.status is HandStatus.VOID


def test_facts_add_up():
    one = SideFacts(points=2, truco_points=(1, 0, 0, 0), trailing=True)
    two = SideFacts(points=3, truco_points=(0, 3, 0, 0))
    assert one + two == SideFacts(points=5, truco_points=(1, 3, 0, 0), trailing=True)


def test_a_refused_record_raises_the_engine_error():
    with pytest.raises(EngineError):
        scoring.hand_facts(record([{"by": "ana", "call": "retruco"}]))


def _play_match(seed: int, shape: tuple[str, int, str | None]) -> tuple[dict, list[dict]]:
    rng = random.Random(seed)
    head = head_of(*shape, rng)
    entries: list[dict[str, Any]] = []
    state: MatchState | None = None
    for _ in range(MAX_HANDS):
        if state is not None and state.winner is not None:
            break
        entry = HandEntry.from_state(head, state)
        hand = play(rng, entry)
        _scored, state = scoring.score_next_hand(head, state, hand)
        entries.append(hand)
    return head, entries


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.sampled_from(SHAPES))
def test_points_by_source_are_the_engines_points(seed, shape):
    """Every side's points, by source, add up to what the match layer gave it; replaying
    the match and scoring it hand by hand give the same facts."""
    head, entries = _play_match(seed, shape)
    replayed = scoring.score_match_result({**head, "hands": entries})
    state = None
    for hand, entry in zip(replayed.hands, entries, strict=True):
        facts = scoring.match_hand_facts(hand)
        scored, state = scoring.score_next_hand(head, state, entry)
        assert scoring.match_hand_facts(scored) == facts
        assert set(facts.players) == set(hand.order)
        if shape[2] == "por_turno":
            continue  # the pair's points are credited to both its players' sides
        for side, side_facts in facts.sides.items():
            by_source = (
                side_facts.envido_points
                + side_facts.flor_points
                + sum(side_facts.truco_points)
                + side_facts.mazo_points
                + side_facts.penalty_points
                + side_facts.mestre_points
            )
            assert side_facts.points == by_source == hand.points.get(side, 0)
        calls = sum(f.truco_calls for f in facts.sides.values())
        answered = sum(
            f.truco_accepted + f.truco_refused + f.truco_raised for f in facts.sides.values()
        )
        assert answered <= calls
        assert sum(f.truco_answers for f in facts.sides.values()) == answered


@pytest.mark.parametrize(
    ("preset", "envido", "flor", "mestre"),
    [
        ("argentine", True, False, False),
        ("argentine_flor", True, True, False),
        ("trucardo", True, True, False),
        ("catalan", False, False, True),
    ],
)
def test_the_facts_a_rule_set_can_tell(preset, envido, flor, mestre):
    items = scoring.fact_items(scoring.RuleSet.from_spec(preset))
    for name in ("envido_points", "envido_called", "envido_played", "envido_calls"):
        assert (name in items) is envido, name
    assert ({"flor_points", "flor_sung"} <= items) is flor
    assert ("mestre_points" in items) is mestre
    # Malas and buenas where the target has halves (30): catalan plays to 12.
    assert ("trailing" in items) is (preset != "catalan")
    # What every game has.
    assert {"points", "truco_points", "truco_calls", "mazos", "mazo", "penalties"} <= items


def test_a_target_without_halves_has_no_malas_to_come_back_from():
    items = scoring.fact_items(scoring.RuleSet.from_spec({"preset": "argentine", "target": 15}))
    assert "trailing" not in items and "envido_points" in items
