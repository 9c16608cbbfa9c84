"""Scoring a match hand by hand from its stored state gives what replaying it gives.

``scoring.score_next_hand(head, state, entry)`` goes on from a :class:`scoring.MatchState`
instead of replaying the hands before: the referee's save and the tablet use it. These
properties play random matches of every preset and player count (gallo fijo and por turno,
pica-pica) and compare, after every hand, the hand and the state with
``score_match_result`` on the whole record so far; the state also survives JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring import HandEntry, MatchState, Penalty, Play, Void
from scoring.errors import EngineError
from scoring.simulate import PLAYER_COUNTS

# Every preset with every player count its family plays, and both gallos for three.
SHAPES = [
    (preset, players, gallo)
    for preset in ("argentine", "argentine_flor", "trucardo", "catalan")
    for players in PLAYER_COUNTS["catalan" if preset == "catalan" else "argentine"]
    for gallo in (("por_turno", "fijo") if players == 3 else (None,))
]
MAX_HANDS = 60


def head_of(preset: str, players: int, gallo: str | None, rng: random.Random) -> dict[str, Any]:
    """A match record without hands: short chicos so that matches are decided."""
    rules: dict[str, Any] = {"preset": preset, "best_of": rng.choice((1, 3))}
    if preset != "catalan":
        rules["target"] = 15
        if players in (6, 8):
            rules["pica_pica"] = rng.random() < 0.8
            rules["pica_pica_until"] = 15 if rng.random() < 0.3 else 25
    if gallo is not None:
        rules["gallo"] = gallo
    if players == 3 and gallo == "por_turno":
        teams = {"A": ["a1"], "B": ["b1"], "C": ["c1"]}
        seats = ["a1", "b1", "c1"]
    elif players == 3:
        teams = {"A": ["a1"], "B": ["b1", "b2"]}
        seats = ["a1", "b1", "b2"]
    else:
        half = players // 2
        teams = {
            "A": [f"a{i}" for i in range(1, half + 1)],
            "B": [f"b{i}" for i in range(1, half + 1)],
        }
        seats = [p for pair in zip(teams["A"], teams["B"], strict=True) for p in pair]
    head: dict[str, Any] = {"rules": rules, "teams": teams, "seats": seats}
    if preset == "catalan":
        head["captains"] = {side: rng.choice(members) for side, members in teams.items()}
    return head


def play(rng: random.Random, entry: HandEntry) -> dict[str, Any]:
    """Enter one hand at random, quick entry, with the referee's rare void or penalty."""
    if entry.choosing_pairs:
        pairs = entry.default_pairs()
        rng.shuffle(pairs)
        entry.choose_pairs(pairs)
    for _ in range(400):
        if entry.finished:
            return entry.to_entry()
        if entry.can_move_on:
            entry.next_pair()
            continue
        actions = [a for a in entry.legal_actions() if not isinstance(a, Play)]
        roll = rng.random()
        if roll < 0.03 and entry.state.decided is None:
            actions = [Void("cards shown")]
        elif roll < 0.05:
            actions = [Penalty(rng.choice(entry.state.sides), rng.randint(1, 3), "pido")]
        entry.apply(rng.choice(actions))
    raise AssertionError("a random hand did not end")


def random_match(seed: int, shape: tuple[str, int, str | None]) -> tuple[dict, list[dict]]:
    rng = random.Random(seed)
    head = head_of(*shape, rng)
    entries: list[dict] = []
    while len(entries) < MAX_HANDS:
        scored = scoring.score_match_result({**head, "hands": entries})
        if scored.next is None:
            break
        entries.append(play(rng, HandEntry(scored.next, head, plays=False)))
    return head, entries


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), shape=st.sampled_from(SHAPES))
def test_hand_by_hand_from_states_is_the_whole_replay(seed, shape):
    head, entries = random_match(seed, shape)
    whole = scoring.score_match_result({**head, "hands": entries})
    state = None
    for index, entry in enumerate(entries):
        # The state as a database column would give it back.
        if state is not None:
            state = MatchState.from_dict(json.loads(json.dumps(state.to_dict())))
        so_far = scoring.score_match_result({**head, "hands": entries[:index]})
        assert so_far.state == (state or MatchState.start(head["teams"]))
        assert (state or so_far.state).next_hand(head) == so_far.next
        hand, state = scoring.score_next_hand(head, state, entry)
        assert hand == whole.hands[index]
    assert state == whole.state
    assert state.games == whole.games and state.winner == whole.winner
    assert state.next_hand(head) == whole.next


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), shape=st.sampled_from(SHAPES))
def test_an_illegal_hand_gives_the_replays_error(seed, shape):
    """The same error, code and hand index, whichever way the match is scored."""
    head, entries = random_match(seed, shape)
    state = scoring.score_match_result({**head, "hands": entries}).state
    bad = {"events": [{"trick": "A"}, {"by": "nobody", "mazo": True}]}
    with pytest.raises(EngineError) as replayed:
        scoring.score_match_result({**head, "hands": [*entries, bad]})
    with pytest.raises(EngineError) as stepped:
        scoring.score_next_hand(head, state, bad)
    assert (stepped.value.code, stepped.value.hand) == (replayed.value.code, replayed.value.hand)
    assert stepped.value.message == replayed.value.message


def test_the_entry_from_a_state_is_the_entry_from_the_record():
    head, entries = random_match(7, ("argentine", 6, None))
    entries = entries[:-1]  # the match still open
    state = scoring.score_match_result({**head, "hands": entries}).state
    from_record = HandEntry.from_match({**head, "hands": entries})
    from_state = HandEntry.from_state(head, state)
    assert from_state.upcoming == from_record.upcoming
    assert from_state.legal_actions() == from_record.legal_actions()


def test_a_decided_match_takes_no_more_hands():
    head, entries = random_match(3, ("argentine", 2, None))
    state = scoring.score_match_result({**head, "hands": entries}).state
    assert state.winner is not None
    assert state.next_hand(head) is None
    with pytest.raises(EngineError) as caught:
        scoring.score_next_hand(head, state, {"events": [{"trick": "A"}, {"trick": "A"}]})
    assert (caught.value.code, caught.value.hand) == ("match_over", len(entries))
    with pytest.raises(EngineError, match="already won"):
        HandEntry.from_state(head, state)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: None,
        lambda d: {**d, "version": 99},
        lambda d: {**d, "hands": -1},
        lambda d: {**d, "mano": "1"},
        lambda d: {**d, "score": [0, 0]},
        lambda d: {**d, "games": [{"winner": "A"}]},
        lambda d: {**d, "last_kind": "tute"},
        lambda d: {k: v for k, v in d.items() if k != "wins"},
        lambda d: {**d, "extra": 1},
    ],
)
def test_a_damaged_state_is_refused(damage):
    data = MatchState.start(["A", "B"]).to_dict()
    with pytest.raises(EngineError) as caught:
        MatchState.from_dict(damage(data))
    assert caught.value.code == "match_invalid"


@pytest.mark.parametrize(
    "change",
    [
        {"score": {"A": 0, "C": 0}},  # sides of another match
        {"mano": 2},  # no third seat
        {"score": {"A": 15, "B": 0}},  # at the target: the chico would be over
        {"wins": {"A": 2, "B": 0}},  # won, yet no winner nor games
    ],
)
def test_a_state_that_does_not_fit_the_match_is_refused(change):
    head = head_of("argentine", 2, None, random.Random(1))
    data = {**MatchState.start(["A", "B"]).to_dict(), **change}
    with pytest.raises(EngineError) as caught:
        scoring.score_next_hand(head, MatchState.from_dict(data), {"events": []})
    assert caught.value.code == "match_invalid"
