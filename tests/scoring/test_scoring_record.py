"""Hand records: validation, penalties, void hands, the end of a hand (docs/hand-record.md)."""

from __future__ import annotations

import copy

import pytest

from scoring.actions import Answer, Call, Trick
from scoring.errors import EngineError
from scoring.hand import apply
from scoring.record import hand_from_record, score_hand
from tests.scoring.events import tricks


def penalty(to, points, reason="interfered in pica-pica"):
    return {"penalty": {"to": to, "points": points, "reason": reason}}


def broken(record, **changes):
    rec = copy.deepcopy(record)
    for key, value in changes.items():
        if value is KeyError:
            rec.pop(key)
        else:
            rec[key] = value
    return rec


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"rules": KeyError}, "missing_field"),
        ({"teams": KeyError}, "missing_field"),
        ({"order": KeyError}, "missing_field"),
        ({"score": KeyError}, "missing_field"),
        ({"events": KeyError}, "missing_field"),
        ({"rules": "truquito"}, "unknown_preset"),
        ({"teams": {"A": ["ana"], "B": ["beto"], "C": ["cai"]}}, "bad_teams"),
        ({"teams": {"A": ["ana"], "B": []}}, "bad_teams"),
        ({"teams": {"A": ["ana"], "B": ["ana"]}}, "bad_teams"),
        ({"teams": {"A": ["ana"], "parda": ["beto"]}}, "bad_teams"),
        ({"teams": {"A": ["ana", "alba"], "B": ["beto", "bruno", "bru"]}}, "bad_player_count"),
        ({"teams": {"A": ["ana"], "B": ["beto", "bruno", "bru"]}}, "bad_player_count"),
        ({"order": ["ana"]}, "bad_order"),
        ({"order": ["ana", "ana"]}, "bad_order"),
        ({"order": ["ana", "zoe"]}, "unknown_player"),
        ({"order": "ana beto"}, "bad_order"),
        ({"score": {"A": 0}}, "bad_score"),
        ({"score": {"A": -1, "B": 0}}, "bad_score"),
        ({"score": {"A": 30, "B": 0}}, "bad_score"),
        ({"score": {"A": True, "B": 0}}, "bad_score"),
        ({"score": {"A": 1.5, "B": 0}}, "bad_score"),
        ({"cards": {"zoe": ["1E", "2E", "3E"]}}, "unknown_player"),
        ({"cards": {"ana": ["1E", "2E"]}}, "bad_cards"),
        ({"cards": {"ana": ["1E", "2E", "8E"]}}, "bad_card"),
        ({"cards": {"ana": ["1E", "2E", "3E"], "beto": ["3E", "4E", "5E"]}}, "duplicate_card"),
        ({"cards": ["1E"]}, "bad_field"),
        ({"events": {"trick": "A"}}, "bad_field"),
        ({"pica_pica": "yes"}, "bad_field"),
        ({"gallo": "ana"}, "bad_gallo"),
    ],
)
def test_invalid_records_say_what_is_wrong(record, changes, code):
    with pytest.raises(EngineError) as info:
        score_hand(broken(record(tricks("A", "A")), **changes))
    assert info.value.code == code
    assert info.value.event is None
    assert info.value.message.endswith(".")


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ("trick A", "bad_event"),
        ({}, "bad_event"),
        ({"trick": "A", "by": "ana"}, "bad_event"),
        ({"trick": "A", "void": "x"}, "bad_event"),
        ({"call": "truco"}, "bad_event"),
        ({"by": "ana", "call": 3}, "bad_event"),
        ({"by": "ana", "mazo": "yes"}, "bad_event"),
        ({"by": "ana", "play": "7X"}, "bad_card"),
        ({"penalty": {"to": "A", "points": 0, "reason": "x"}}, "bad_event"),
        ({"penalty": {"to": "A", "points": True, "reason": "x"}}, "bad_event"),
        ({"penalty": {"to": "Z", "points": 2, "reason": "x"}}, "unknown_side"),
        ({"void": True}, "bad_event"),
        ({"envido": {"ana": "30"}}, "bad_event"),
    ],
)
def test_invalid_events_point_at_the_event(record, event, code):
    with pytest.raises(EngineError) as info:
        score_hand(record([{"trick": "A"}, event, {"trick": "A"}]))
    assert (info.value.code, info.value.event) == (code, 1)


# -- penalties and void hands (docs/rules.md "Scoring a game") ----------------------------------
def test_penalties_count_in_points_and_items(hand):
    result = hand([penalty("B", 4), *tricks("A", "A")])
    assert result["points"] == {"A": 1, "B": 4}
    assert result["items"][0] == {
        "kind": "penalty",
        "side": "B",
        "points": 4,
        "reason": "interfered in pica-pica",
    }


def test_a_penalty_may_end_the_chico(hand):
    result = hand([*tricks("A"), penalty("B", 4), *tricks("A")], score=(0, 28))
    assert (result["status"], result["winner"], result["score"]) == (
        "game_over",
        "B",
        {"A": 0, "B": 30},
    )
    assert result["points"] == {"A": 0, "B": 4}  # the hand's point came after: not counted


def test_a_void_hand_scores_only_penalties(hand):
    events = [
        {"by": "beto", "call": "envido"},
        {"by": "ana", "answer": "no_quiero"},
        penalty("A", 3, "card shown"),
        {"void": "misdeal"},
        penalty("B", 1),
    ]
    result = hand(events)
    assert result["status"] == "void"
    assert result["points"] == {"A": 3, "B": 1}
    assert [i["kind"] for i in result["items"]] == ["penalty", "penalty"]


def test_a_decided_hand_cannot_be_voided(illegal):
    err = illegal([*tricks("A", "A"), {"void": "late"}])
    assert (err.code, err.event) == ("void_after_decided", 2)


def test_after_the_hand_only_settlements_and_penalties(hand, illegal):
    events = [
        {"by": "ana", "call": "envido"},
        {"by": "beto", "answer": "quiero"},
        *tricks("B", "B"),
        {"envido_winner": "A"},
        penalty("A", 1),
    ]
    assert hand(events)["points"] == {"A": 3, "B": 1}
    for late in ({"trick": "A"}, {"by": "ana", "call": "truco"}, {"by": "ana", "mazo": True}):
        err = illegal([*tricks("B", "B"), late])
        assert (err.code, err.event) == ("hand_decided", 2)


def test_a_record_that_stops_early_is_an_error(illegal):
    for events in ([], tricks("A"), [{"by": "ana", "call": "truco"}]):
        err = illegal(events)
        assert (err.code, err.event) == ("hand_incomplete", None)


def test_points_are_not_capped_but_the_score_is(hand):
    result = hand(
        [{"by": "ana", "call": "truco"}, {"by": "beto", "answer": "quiero"}, *tricks("A", "A")],
        score=(29, 0),
    )
    assert result["points"] == {"A": 2, "B": 0}
    assert result["score"] == {"A": 30, "B": 0}
    assert (result["status"], result["winner"]) == ("game_over", "A")


# -- players (docs/rules.md "Presets and options", "Three players", "Six and eight players") ----
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_player_counts(hand, players):
    result = hand(
        [
            {"by": "beto", "call": "truco"},
            {"by": "ana", "answer": "quiero"},
            *tricks("B", "A", "B"),
        ],
        players=players,
    )
    assert result["points"] == {"A": 0, "B": 2}


def test_eight_players(record):
    rec = record(tricks("A", "A"), players=2)
    rec["teams"] = {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2", "b3", "b4"]}
    rec["order"] = ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"]
    assert score_hand(rec)["points"] == {"A": 1, "B": 0}


def test_the_gallo_alone_with_his_three_kept_cards(record):
    rec = record(tricks("A", "A"), players=3, gallo="ana", cards={"ana": ["7E", "6E", "1O"]})
    assert score_hand(rec)["points"] == {"A": 1, "B": 0}
    rec = record(tricks("A", "A"), players=3, gallo="beto")
    with pytest.raises(EngineError) as info:
        score_hand(rec)
    assert info.value.code == "bad_gallo"


def test_pica_pica_records(record):
    with pytest.raises(EngineError) as info:
        score_hand(record(tricks("A", "A"), players=4, pica_pica=True))
    assert info.value.code == "bad_pica_pica"
    with pytest.raises(EngineError) as info:
        score_hand(record(tricks("A", "A"), rules="catalan", pica_pica=True))
    assert info.value.code == "bad_pica_pica"


# -- robustness: bad input never corrupts data already recorded ---------------------------
def test_scoring_never_changes_the_record(record):
    rec = record(
        [
            {"by": "ana", "call": "envido"},
            {"by": "beto", "answer": "quiero"},
            {"envido": {"ana": 30}},
            *tricks("A", "A"),
        ],
        cards={"beto": ["4C", "5O", "6B"]},
    )
    before = copy.deepcopy(rec)
    score_hand(rec)
    assert rec == before


def test_a_refused_action_leaves_the_state_as_it_was(record):
    state = hand_from_record(record([]))
    state = apply(state, Call("ana", "truco"))
    snapshot = (state.truco_pending, state.truco_calls[:], state.step, state.tricks[:])
    for action in (Call("ana", "retruco"), Trick("A"), Answer("ana", "quiero")):
        with pytest.raises(EngineError):
            apply(state, action)
    assert (state.truco_pending, state.truco_calls, state.step, state.tricks) == snapshot
    after = apply(state, Answer("beto", "quiero"))
    assert state.truco_pending == 1 and after.truco_pending == 0  # apply never mutates
