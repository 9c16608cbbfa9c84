"""Tricks, pardas and who leads; turn order in detailed entry (docs/rules.md "Tricks")."""

from __future__ import annotations

import pytest

from scoring.actions import Call, Play
from scoring.cards import parse_card
from scoring.errors import EngineError
from scoring.hand import apply, legal_actions
from scoring.record import hand_from_record
from tests.scoring.events import tricks


@pytest.mark.parametrize(
    ("sequence", "winner", "source"),
    [
        (["A", "A"], "A", "two tricks win"),
        (["B", "A", "A"], "A", "two tricks win"),
        (["A", "B", "B"], "B", "two tricks win"),
        (["A", "parda"], "A", "win then parda: the first trick's winner (000 example)"),
        (["parda", "B"], "B", "parda then win: the second's winner (001)"),
        (["A", "B", "parda"], "A", "win-lose-parda: the first trick's winner (001)"),
        (["B", "A", "parda"], "B", "win-lose-parda: the first trick's winner (001)"),
        (["parda", "parda", "B"], "B", "the first non-parda trick"),
        (["parda", "parda", "parda"], "A", "three pardas: the mano's side (000, 001, 004)"),
    ],
)
def test_who_takes_the_hand(hand, sequence, winner, source):
    result = hand(tricks(*sequence))
    assert result["points"][winner] == 1, source
    assert sum(result["points"].values()) == 1


def test_three_pardas_go_to_the_mano_whoever_is_mano(hand, record):
    from scoring.record import score_hand

    rec = record(tricks("parda", "parda", "parda"))
    rec["order"] = ["beto", "ana"]
    assert score_hand(rec)["points"] == {"A": 0, "B": 1}


@pytest.mark.parametrize(
    ("sequence", "bad_event"),
    [(["A", "A", "B"], 2), (["A", "parda", "A"], 2), (["parda", "B", "A"], 2)],
)
def test_no_trick_after_the_hand_is_decided(illegal, sequence, bad_event):
    err = illegal(tricks(*sequence))
    assert (err.code, err.event) == ("hand_decided", bad_event)


def test_unknown_trick_side(illegal):
    err = illegal(tricks("C"))
    assert (err.code, err.event) == ("unknown_side", 0)


# -- detailed entry -----------------------------------------------------------------------
# Seats ana (A), beto (B), alba (A), bruno (B); ana is mano.
CARDS = {
    "ana": ["3E", "2E", "4C"],
    "beto": ["5O", "2O", "7B"],
    "alba": ["3C", "4E", "6C"],
    "bruno": ["6O", "4O", "1E"],
}


def play(state, *moves):
    for by, card in moves:
        state = apply(state, Play(by, parse_card(card)))
    return state


@pytest.fixture
def table(record):
    return hand_from_record(record([], players=4, cards=CARDS))


def test_winner_of_a_trick_leads_the_next(table):
    state = play(table, ("ana", "4C"), ("beto", "7B"), ("alba", "6C"), ("bruno", "1E"))
    assert state.tricks == ["B"]
    assert state.to_play() == "bruno"


def test_tied_within_one_side_the_first_to_play_it_leads(table):
    state = play(table, ("ana", "3E"), ("beto", "5O"), ("alba", "3C"), ("bruno", "6O"))
    assert state.tricks == ["A"]
    assert state.to_play() == "ana"


def test_after_a_parda_the_player_who_led_it_leads_again(table):
    state = play(table, ("ana", "4C"), ("beto", "7B"), ("alba", "6C"), ("bruno", "1E"))
    # bruno leads trick 2; 2E (ana) and 2O (beto) tie across the sides: parda.
    state = play(state, ("bruno", "4O"), ("ana", "2E"), ("beto", "2O"), ("alba", "4E"))
    assert state.tricks == ["B", "parda"]
    assert state.decided == "tricks" and state.winner == "B"


def test_parda_first_trick_keeps_the_lead(table):
    state = play(table, ("ana", "2E"), ("beto", "2O"), ("alba", "4E"), ("bruno", "4O"))
    assert state.tricks == ["parda"]
    assert state.to_play() == "ana"


def test_turn_order_is_enforced(table):
    with pytest.raises(EngineError) as info:
        play(table, ("beto", "5O"))
    assert info.value.code == "not_your_turn"
    assert "ana" in info.value.message
    assert [a.by for a in legal_actions(table) if isinstance(a, Play)] == ["ana"] * 3


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        ([("ana", "7B")], "card_not_yours"),
        (
            [("ana", "3E"), ("beto", "5O"), ("alba", "3C"), ("bruno", "6O"), ("ana", "3E")],
            "card_unavailable",
        ),
    ],
)
def test_cards_must_be_the_players_own_and_unplayed(table, moves, code):
    with pytest.raises(EngineError) as info:
        play(table, *moves)
    assert info.value.code == code


def test_players_without_cards_play_any_unseen_card(record):
    state = hand_from_record(record([], players=2, cards={"ana": ["3E", "2E", "4C"]}))
    state = play(state, ("ana", "4C"), ("beto", "5O"))  # beto's cards are unknown
    assert state.tricks == ["B"]
    for card in ("4C", "2E"):  # played already / in ana's known hand
        with pytest.raises(EngineError) as info:
            play(state, ("beto", card))
        assert info.value.code == "card_unavailable"


def test_quick_and_detailed_entry_do_not_mix(illegal, hand):
    err = illegal(
        [{"by": "ana", "play": "4C"}, {"by": "beto", "play": "5O"}, {"trick": "A"}],
        cards={"ana": CARDS["ana"], "beto": CARDS["beto"]},
    )
    assert (err.code, err.event) == ("mixed_entry", 2)
    err = illegal([{"trick": "A"}, {"by": "ana", "play": "4C"}])
    assert (err.code, err.event) == ("mixed_entry", 1)


def test_calls_in_detailed_entry_come_from_the_player_in_turn_or_who_just_played(table):
    state = play(table, ("ana", "4C"))
    # ana just played, beto is to play: both may call; alba and bruno may not (seed 000).
    assert apply(state, Call("ana", "truco")).truco_pending == 1
    assert apply(state, Call("beto", "truco")).truco_pending == 1
    for player in ("alba", "bruno"):
        with pytest.raises(EngineError) as info:
            apply(state, Call(player, "truco"))
        assert info.value.code in ("call_not_in_turn", "not_answering_side")


def test_a_hand_played_card_by_card_is_scored_from_the_cards(hand):
    # Seed 001's round 1 without the calls: 5E v 11B, 11E v 7E, 10O v 3O -> Ivan 2 of 3.
    events = [
        {"by": "ana", "play": "5E"},
        {"by": "beto", "play": "11B"},
        {"by": "beto", "play": "11E"},
        {"by": "ana", "play": "7E"},
        {"by": "ana", "play": "10O"},
        {"by": "beto", "play": "3O"},
    ]
    cards = {"ana": ["7E", "10O", "5E"], "beto": ["3O", "11B", "11E"]}
    assert hand(events, cards=cards)["points"] == {"A": 0, "B": 1}
    # The inverse hierarchy (004) turns every trick around: 5E beats 11B, 11E beats 7E,
    # 10O beats 3O.
    inverse = {"preset": "trucardo", "hierarchy": "inverse"}
    events = [
        {"by": "ana", "play": "5E"},
        {"by": "beto", "play": "11B"},
        {"by": "ana", "play": "7E"},
        {"by": "beto", "play": "11E"},
        {"by": "beto", "play": "3O"},
        {"by": "ana", "play": "10O"},
    ]
    assert hand(events, cards=cards, rules=inverse)["points"] == {"A": 1, "B": 0}
