"""Entering hands with :class:`scoring.entry.HandEntry`, and the match context it relies on.

Hypothesis properties over random matches entered action by action: what the entry stores
scores the same through ``score_match``; a pica-pica pair starts from the score the pair
before it left; a chico ending in the middle of a pica-pica hand stops the entry there;
and every hand of a :class:`~scoring.results.MatchResult` carries the mano rotation and
the score before it (one seat per hand that is not void, the previous hand's score, 0
after a chico ends), the context the Django side used to re-derive.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from scoring import EngineError, HandEntry, HandKind, HandStatus, Mazo, Play, Trick
from scoring.actions import Penalty, Void

SEATS = {
    2: ({"A": ["a1"], "B": ["b1"]}, ["a1", "b1"]),
    4: ({"A": ["a1", "a2"], "B": ["b1", "b2"]}, ["a1", "b1", "a2", "b2"]),
    6: (
        {"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"]},
        ["a1", "b1", "a2", "b2", "a3", "b3"],
    ),
    8: (
        {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2", "b3", "b4"]},
        ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"],
    ),
}
SPECS = [
    {"preset": "argentine", "target": 15},
    {"preset": "argentine_flor", "target": 15, "pica_pica_until": 15},
    {"preset": "trucardo", "target": 15, "best_of": 1},
    {"preset": "argentine", "target": 30, "best_of": 1},
]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _match(spec, players):
    teams, seats = SEATS[players]
    return {"rules": spec, "teams": teams, "seats": seats, "hands": []}


def _pairs(entry, rng):
    if rng.random() < 0.5:
        return entry.default_pairs()
    teams = entry.match_record["teams"]
    a, b = list(teams["A"]), list(teams["B"])
    rng.shuffle(a)
    rng.shuffle(b)
    return [(x, y) if rng.random() < 0.5 else (y, x) for x, y in zip(a, b, strict=True)]


def _enter_hand(entry, rng):
    """Enter one hand at random through the entry, as a referee would."""
    if entry.choosing_pairs:
        entry.choose_pairs(_pairs(entry, rng))
    for _ in range(400):
        if entry.finished:
            return
        if entry.can_move_on:
            entry.next_pair()
            continue
        actions = [a for a in entry.legal_actions() if not isinstance(a, Play)]
        roll = rng.random()
        if roll < 0.02:
            actions = [Penalty(rng.choice(entry.state.sides), rng.randint(1, 4), "pido flor")]
        elif roll < 0.03 and entry.state.decided is None:
            actions = [Void("card shown")]
        weights = [0.2 if isinstance(a, Mazo) else 1.0 for a in actions]
        entry.apply(rng.choices(actions, weights)[0])
    raise AssertionError("the entry never finished")


@st.composite
def matches(draw):
    spec = draw(st.sampled_from(SPECS))
    players = draw(st.sampled_from([2, 4, 6, 6, 8]))
    return spec, players, random.Random(draw(st.integers(0, 2**32 - 1)))


@SETTINGS
@given(matches())
def test_a_match_entered_through_hand_entry_scores_the_same(table):
    spec, players, rng = table
    record = _match(spec, players)
    for _ in range(60):
        entry = HandEntry.from_match(record)
        _enter_hand(entry, rng)
        stored = entry.to_entry()
        record["hands"].append(stored)
        scored = scoring.score_match_result(record)
        hand = scored.hands[-1]
        # What the entry shows as the running score is what the match layer counts.
        assert dict(hand.score) == entry.score or hand.status == HandStatus.GAME_OVER
        if entry.kind == HandKind.PICA_PICA:
            _check_pica_pica(entry, hand, stored)
        if scored.winner is not None:
            assert scored.next is None
            with pytest.raises(EngineError):
                HandEntry.from_match(record)
            break
    _check_context(scoring.score_match_result(record), record)


def _check_pica_pica(entry, hand, stored):
    assert [tuple(s["order"]) for s in stored["pica_pica"]] == list(entry.pairs)
    # Each pair starts from the score the pair before it left.
    for before, after in zip(entry.parts, entry.parts[1:], strict=False):
        assert after.start.score == before.outcome["score"]
    over = [i for i, part in enumerate(entry.parts) if part.chico_over]
    if over:
        # The chico ended at this pair: nothing after it is entered or counted.
        (first,) = over
        assert first == len(entry.parts) - 1
        assert all(not s["events"] for s in stored["pica_pica"][first + 1 :])
        assert hand.status == HandStatus.GAME_OVER
        assert len(hand.parts) == first + 1
    else:
        assert len(entry.parts) == len(entry.pairs)


def _check_context(result, record):
    seats = record["seats"]
    mano = 0
    before = dict.fromkeys(record["teams"], 0)
    for number, hand in enumerate(result.hands, 1):
        assert hand.number == number
        assert hand.order == tuple(seats[mano:] + seats[:mano])
        assert dict(hand.score_before) == before
        if hand.status not in (HandStatus.VOID, HandStatus.REDEAL):
            mano = (mano + 1) % len(seats)
        before = (
            dict.fromkeys(record["teams"], 0)
            if hand.status == HandStatus.GAME_OVER
            else dict(hand.score)
        )
    assert sum(h.status == HandStatus.GAME_OVER for h in result.hands) == len(result.games)
    if result.next is not None:
        assert result.next.order == tuple(seats[mano:] + seats[:mano])
        assert dict(result.next.score) == before
        assert result.next.number == len(result.hands) + 1


# -- table tests ------------------------------------------------------------------------
def _six():
    teams, seats = SEATS[6]
    return {"rules": "argentine", "teams": teams, "seats": seats, "hands": []}


def test_a_six_player_chico_opens_with_a_redondo_then_pica_pica():
    record = _six()
    entry = HandEntry.from_match(record)
    assert entry.kind == HandKind.REDONDO and not entry.choosing_pairs
    for winner in ("A", "A"):
        entry.apply(Trick(winner))
    record["hands"].append(entry.to_entry())
    entry = HandEntry.from_match(record)
    assert entry.kind == HandKind.PICA_PICA and entry.choosing_pairs
    # 003: each player faces the one sitting opposite, the one nearer the mano leading.
    assert entry.default_pairs() == [("b1", "a3"), ("a2", "b3"), ("b2", "a1")]
    with pytest.raises(EngineError) as info:
        entry.apply(Trick("A"))
    assert info.value.code == "bad_draft"


@pytest.mark.parametrize(
    "pairs",
    [[], [("a1", "a2"), ("b1", "b2"), ("a3", "b3")], [("a1", "b1"), ("a2", "b2")], [("a1",)]],
)
def test_pairs_must_face_opponents_and_cover_everyone(pairs):
    record = _six()
    record["hands"].append({"events": [{"trick": "A"}, {"trick": "A"}]})
    entry = HandEntry.from_match(record)
    with pytest.raises(EngineError) as info:
        entry.choose_pairs(pairs)
    assert info.value.code == "pairs_invalid" and entry.choosing_pairs


def test_the_score_is_carried_from_pair_to_pair_and_the_chico_may_end_mid_hand():
    record = _six()
    record["rules"] = {"preset": "argentine", "target": 15, "pica_pica_until": 15}
    record["hands"].append({"events": [{"trick": "A"}, {"trick": "A"}]})  # A 1 - B 0
    entry = HandEntry.from_match(record)
    entry.choose_pairs(entry.default_pairs())
    first = entry.parts[0].order  # b1 v a3
    entry.apply({"by": first[0], "call": "truco"})
    entry.apply({"by": first[1], "answer": "no_quiero"})
    assert entry.can_move_on and entry.score == {"A": 1, "B": 1}
    entry.next_pair()
    assert entry.state.score == {"A": 1, "B": 1}
    # a2 v b3: a penalty takes B to the target; the third pair is no longer entered.
    entry.apply({"penalty": {"to": "B", "points": 14, "reason": "interfered in pica-pica"}})
    assert entry.chico_over and entry.finished and not entry.can_move_on
    assert entry.legal_actions() == []
    stored = entry.to_entry()
    assert stored["pica_pica"][2]["events"] == []
    record["hands"].append(stored)
    result = scoring.score_match_result(record)
    assert result.hands[-1].status == HandStatus.GAME_OVER
    assert result.games[0].winner == "B"
    assert result.next.number == 3 and result.next.kind == HandKind.REDONDO


def test_undo_goes_back_to_the_previous_pair_and_drafts_round_trip():
    record = _six()
    record["hands"].append({"events": [{"trick": "A"}, {"trick": "A"}]})
    entry = HandEntry.from_match(record)
    entry.choose_pairs(entry.default_pairs())
    entry.apply(Trick("A"))
    entry.apply(Trick("A"))
    entry.next_pair()
    draft = entry.to_draft()
    assert draft["current"] == 1
    again = HandEntry.from_match(record)
    again.restore(draft)
    assert again.to_draft() == draft
    entry.undo()
    assert len(entry.parts) == 1 and len(entry.current.events) == 1
    for bad in ([], {"pica_pica": [{"order": ["b1", "a3"], "events": []}], "current": 3}):
        with pytest.raises(EngineError):
            HandEntry.from_match(record).restore(bad)


def test_a_gallo_hand_stores_its_gallo():
    record = {
        "rules": {"preset": "argentine", "gallo": "fijo"},
        "teams": {"A": ["ana"], "B": ["beto", "bruno"]},
        "seats": ["ana", "beto", "bruno"],
        "hands": [],
    }
    entry = HandEntry.from_match(record)
    entry.apply({"by": "beto", "mazo": True})
    entry.apply({"by": "bruno", "mazo": True})
    assert entry.to_entry() == {
        "events": [{"by": "beto", "mazo": True}, {"by": "bruno", "mazo": True}],
        "gallo": "ana",
    }


# -- card by card: the cards dealt ---------------------------------------------------------
def _duel() -> dict:
    teams, seats = SEATS[2]
    return {"rules": "argentine", "teams": teams, "seats": seats, "hands": []}


def test_the_cards_dealt_settle_the_envido_and_are_stored_and_restored():
    record = _duel()
    entry = HandEntry.from_match(record)
    entry.set_cards({"a1": ["7E", "6E", "1O"], "b1": ["4C", "5C", "3O"]})
    # Only the mano's own cards are offered.
    assert sorted(str(a.card) for a in entry.legal_actions() if isinstance(a, Play)) == [
        "1O",
        "6E",
        "7E",
    ]
    entry.apply({"by": "a1", "call": "envido"})
    entry.apply({"by": "b1", "answer": "quiero"})
    assert entry.settlement is None  # every card is known: a1's 33 beats b1's 9
    for by, card in (("a1", "7E"), ("b1", "4C"), ("a1", "6E"), ("b1", "5C")):
        entry.apply({"by": by, "play": card})
    assert entry.finished
    stored = entry.to_entry()
    assert stored["cards"] == {"a1": ["7E", "6E", "1O"], "b1": ["4C", "5C", "3O"]}
    again = HandEntry.from_match(record)
    again.restore(entry.to_draft())
    assert again.to_draft() == entry.to_draft() and again.finished
    record["hands"].append(stored)
    assert scoring.score_match_result(record).hands[0].points == {"A": 3, "B": 0}


def test_cards_that_contradict_the_plays_are_refused_and_change_nothing():
    entry = HandEntry.from_match(_duel())
    entry.apply({"by": "a1", "play": "7E"})
    before = entry.to_draft()
    for cards, code in (
        ({"a1": ["1E", "2E", "3E"]}, "card_not_yours"),  # he already played the 7E
        ({"b1": ["7E", "2E", "3E"]}, "card_unavailable"),  # the 7E is on the table
        ({"b1": ["1E", "2E"]}, "bad_cards"),
        ({"zoe": ["1E", "2E", "3E"]}, "unknown_player"),
        (["1E"], "bad_field"),
    ):
        with pytest.raises(EngineError) as info:
            entry.set_cards(cards)
        assert info.value.code == code, cards
        assert entry.to_draft() == before
    entry.set_cards({"b1": ["1E", "2E", "3E"]})
    assert entry.to_draft()["cards"] == {"b1": ["1E", "2E", "3E"]}
    entry.set_cards({})  # taken back
    assert "cards" not in entry.to_draft()


def test_start_again_forgets_the_cards_and_a_pica_pica_pair_keeps_its_own():
    entry = HandEntry.from_match(_duel())
    entry.set_cards({"a1": ["7E", "6E", "1O"]})
    entry.reset()
    assert entry.to_draft() == {"events": []}

    record = _six()
    record["hands"].append({"events": [{"trick": "A"}, {"trick": "A"}]})
    entry = HandEntry.from_match(record)
    entry.choose_pairs(entry.default_pairs())
    first, second = entry.parts[0].order
    entry.set_cards({first: ["1E", "2E", "3E"], second: ["4E", "5E", "6E"]})
    entry.apply(Trick("A"))  # quick entry with the cards known is allowed too
    entry.apply(Trick("A"))
    entry.next_pair()
    draft = entry.to_draft()
    assert draft["pica_pica"][0]["cards"] == {first: ["1E", "2E", "3E"], second: ["4E", "5E", "6E"]}
    assert "cards" not in draft["pica_pica"][1]
    again = HandEntry.from_match(record)
    again.restore(draft)
    assert again.to_draft() == draft
    entry.undo()  # back to the first pair: its cards are still there
    assert entry.to_draft()["pica_pica"][0]["cards"][first] == ["1E", "2E", "3E"]
