"""The truco ladder, who calls, raises and answers, and the mazo (docs/rules.md "Truco")."""

from __future__ import annotations

import pytest

from tests.scoring.events import answer, call, mazo, tricks

CATALAN = {"rules": "catalan"}


# -- ladder and refusals (001, 004; 002 for catalan) --------------------------------------
@pytest.mark.parametrize(
    ("events", "kwargs", "points"),
    [
        # argentine accepted: truco 2, retruco 3, vale cuatro 4; won by A in two tricks.
        ([call("ana", "truco"), answer("beto", "quiero")], {}, {"A": 2, "B": 0}),
        (
            [call("ana", "truco"), call("beto", "retruco"), answer("ana", "quiero")],
            {},
            {"A": 3, "B": 0},
        ),
        (
            [
                call("ana", "truco"),
                call("beto", "retruco"),
                call("ana", "vale_cuatro"),
                answer("beto", "quiero"),
            ],
            {},
            {"A": 4, "B": 0},
        ),
        # catalan accepted: truc 2, tres 3.
        ([call("ana", "truc"), answer("beto", "quiero")], CATALAN, {"A": 2, "B": 0}),
        (
            [call("ana", "truc"), call("beto", "tres"), answer("ana", "quiero")],
            CATALAN,
            {"A": 3, "B": 0},
        ),
    ],
)
def test_accepted_steps_are_worth_the_ladder_value(hand, events, kwargs, points):
    result = hand([*events, *tricks("A", "A")], **kwargs)
    assert result["points"] == points
    assert result["items"][-1]["kind"] == "truco" and result["items"][-1]["accepted"]


@pytest.mark.parametrize(
    ("events", "kwargs", "points"),
    [
        # A refusal gives the caller the value of the step before: 1, 2, 3 (001, 004).
        ([call("ana", "truco"), answer("beto", "no_quiero")], {}, {"A": 1, "B": 0}),
        (
            [call("ana", "truco"), call("beto", "retruco"), answer("ana", "no_quiero")],
            {},
            {"A": 0, "B": 2},
        ),
        (
            [
                call("ana", "truco"),
                call("beto", "retruco"),
                call("ana", "vale_cuatro"),
                answer("beto", "no_quiero"),
            ],
            {},
            {"A": 3, "B": 0},
        ),
        # Catalan: refusing truc gives 1, refusing tres gives 2 (002).
        ([call("ana", "truc"), answer("beto", "no_quiero")], CATALAN, {"A": 1, "B": 0}),
        (
            [call("ana", "truc"), call("beto", "tres"), answer("ana", "no_quiero")],
            CATALAN,
            {"A": 0, "B": 2},
        ),
    ],
)
def test_refusals_give_the_step_before(hand, events, kwargs, points):
    result = hand(events, **kwargs)
    assert result["points"] == points and result["status"] == "complete"
    assert result["items"][-1]["accepted"] is False


def test_the_side_that_accepted_may_raise_later_at_any_moment(hand):
    # 000 "Situación 1 extendida": B accepted the truco, raises in a later trick.
    events = [
        call("ana", "truco"),
        answer("beto", "quiero"),
        {"trick": "B"},
        call("beto", "retruco"),
        answer("ana", "quiero"),
        *tricks("A", "A"),
    ]
    assert hand(events)["points"] == {"A": 3, "B": 0}


@pytest.mark.parametrize(
    ("events", "kwargs", "code", "event"),
    [
        # HAND_RECORD example 10: the caller's side may not raise its own accepted call.
        (
            [call("ana", "truco"), answer("beto", "quiero"), call("ana", "retruco")],
            {},
            "raise_not_allowed",
            2,
        ),
        ([call("ana", "retruco")], {}, "truco_order", 0),
        ([call("ana", "truco"), call("beto", "vale_cuatro")], {}, "truco_order", 1),
        ([call("ana", "truco"), call("ana", "truco")], {}, "answer_pending", 1),
        (
            [
                call("ana", "truco"),
                call("beto", "retruco"),
                call("ana", "vale_cuatro"),
                answer("beto", "quiero"),
                call("ana", "vale_cuatro"),
            ],
            {},
            "truco_top",
            4,
        ),
        (
            [
                call("ana", "truc"),
                call("beto", "tres"),
                answer("ana", "quiero"),
                call("beto", "tres"),
            ],
            CATALAN,
            "truco_top",
            3,
        ),
        ([call("ana", "truco"), {"trick": "A"}], {}, "answer_pending", 1),
        ([answer("beto", "quiero")], {}, "nothing_to_answer", 0),
        ([call("ana", "truco"), answer("ana", "quiero")], {}, "not_answering_side", 1),
        ([call("ana", "truc")], {}, "unknown_call", 0),
        ([call("ana", "truco")], CATALAN, "unknown_call", 0),
        ([call("ana", "envido")], CATALAN, "envido_disabled", 0),
        ([call("ana", "flor")], {}, "flor_disabled", 0),
        ([call("zoe", "truco")], {}, "unknown_player", 0),
        ([call("ana", "truco"), answer("beto", "con_flor_quiero")], {}, "nothing_to_answer", 1),
    ],
)
def test_illegal_calls_and_answers(illegal, events, kwargs, code, event):
    err = illegal(events, **kwargs)
    assert (err.code, err.event) == (code, event)


# -- who answers (000; 002) --------------------------------------------------------------
def test_any_player_of_the_other_side_may_answer(hand):
    for answerer in ("beto", "bruno"):
        events = [call("alba", "truco"), answer(answerer, "quiero"), *tricks("B", "B")]
        assert hand(events, players=4)["points"] == {"A": 0, "B": 2}


def test_a_teammate_of_the_caller_may_not_answer(illegal):
    err = illegal([call("alba", "truco"), answer("ana", "quiero")], players=4)
    assert (err.code, err.event) == ("not_answering_side", 1)


def test_catalan_answers_are_the_cap_de_colla_s(hand, illegal):
    # Caps de colla: ana (A), beto (B).
    ok = [call("alba", "truc"), answer("beto", "quiero"), *tricks("B", "B")]
    assert hand(ok, players=4, **CATALAN)["points"] == {"A": 0, "B": 2}
    err = illegal([call("alba", "truc"), answer("bruno", "quiero")], players=4, **CATALAN)
    assert (err.code, err.event) == ("not_captain", 1)
    # A raise answering the call is an answer too.
    err = illegal([call("alba", "truc"), call("bruno", "tres")], players=4, **CATALAN)
    assert (err.code, err.event) == ("not_captain", 1)
    # A later raise by the accepting side comes from any of its players (HAND_RECORD ex. 08).
    later = [
        call("alba", "truc"),
        answer("beto", "quiero"),
        call("bruno", "tres"),
        answer("ana", "quiero"),
        *tricks("B", "B"),
    ]
    assert hand(later, players=4, **CATALAN)["points"] == {"A": 0, "B": 3}


# -- mazo (003; 001 for the envido point) -------------------------------------------------
@pytest.mark.parametrize(
    ("events", "kwargs", "points"),
    [
        # 001: going to the mazo at the start gives 2 (1 for the hand, 1 for the envido).
        ([mazo("ana")], {}, {"A": 0, "B": 2}),
        (
            [mazo("ana")],
            {"rules": {"preset": "argentine", "mazo_envido_point": False}},
            {"A": 0, "B": 1},
        ),
        # After the first trick there is no envido point.
        ([{"trick": "A"}, mazo("ana")], {}, {"A": 0, "B": 1}),
        # A truco accepted: the value in force, no envido point.
        ([call("ana", "truco"), answer("beto", "quiero"), mazo("beto")], {}, {"A": 2, "B": 0}),
        # The other side's unanswered truco counts as refused; nothing was accepted, no
        # envido was called: the extra point applies.
        ([call("ana", "truco"), mazo("beto")], {}, {"A": 2, "B": 0}),
        ([call("ana", "truco"), call("beto", "retruco"), mazo("ana")], {}, {"A": 0, "B": 2}),
        # The other side's unanswered envido counts as refused (1), the hand 1, no extra.
        ([call("ana", "envido"), mazo("beto")], {}, {"A": 2, "B": 0}),
        # An envido already played: no extra point.
        ([call("ana", "envido"), answer("beto", "no_quiero"), mazo("beto")], {}, {"A": 2, "B": 0}),
        # Catalan: the truc value in force, never an envido point.
        ([mazo("ana")], CATALAN, {"A": 0, "B": 1}),
        ([call("ana", "truc"), answer("beto", "quiero"), mazo("ana")], CATALAN, {"A": 0, "B": 2}),
    ],
)
def test_mazo_scores(hand, events, kwargs, points):
    result = hand(events, **kwargs)
    assert result["points"] == points
    assert result["items"][-1]["kind"] == "mazo"


def test_a_side_concedes_only_when_all_its_players_folded(hand, illegal):
    events = [mazo("ana"), call("alba", "truco"), answer("bruno", "quiero"), *tricks("A", "A")]
    assert hand(events, players=4)["points"] == {"A": 2, "B": 0}
    assert hand([mazo("ana"), mazo("alba")], players=4)["points"] == {"A": 0, "B": 2}
    err = illegal([mazo("ana"), call("ana", "truco")], players=4)
    assert (err.code, err.event) == ("player_folded", 1)


def test_a_side_may_not_fold_while_its_own_call_awaits_an_answer(illegal):
    for events in ([call("ana", "truco"), mazo("ana")], [call("ana", "envido"), mazo("ana")]):
        err = illegal(events)
        assert (err.code, err.event) == ("mazo_own_call", 1)


# -- seed 000's worked situations, card by card (no cards recorded: any unseen card) ------
def play(by, card):
    return {"by": by, "play": card}


def test_seed_000_situation_2(hand):
    # A1 ana, B1 beto, A2 alba, B2 bruno. B2 calls truco before playing his card; A1, who
    # has played, answers retruco; B2 accepts and plays, completing the first trick.
    events = [
        play("ana", "4C"), play("beto", "5C"), play("alba", "6C"),
        call("bruno", "truco"), call("ana", "retruco"), answer("bruno", "quiero"),
        play("bruno", "7C"),
        # bruno's 7C (a false 7) beats 6C, 5C, 4C: B leads with bruno and takes trick 2.
        play("bruno", "1E"), play("ana", "4O"), play("beto", "4B"), play("alba", "4E"),
    ]  # fmt: skip
    result = hand(events, players=4)
    assert result["points"] == {"A": 0, "B": 3}


def test_seed_000_three_a_side(hand):
    # A1 ana, B1 beto, A2 alba, B2 bruno, A3 aina, B3 bru. A2 plays then calls truco; B3
    # (not yet played) retruco; A3 vale cuatro; B2 quiero; play resumes with B2.
    events = [
        play("ana", "4C"), play("beto", "5C"), play("alba", "6C"),
        call("alba", "truco"), call("bru", "retruco"), call("aina", "vale_cuatro"),
        answer("bruno", "quiero"),
        play("bruno", "4E"), play("aina", "1E"), play("bru", "4B"),
        play("aina", "1B"), play("bru", "5E"), play("ana", "6E"), play("beto", "6B"),
        play("alba", "6O"), play("bruno", "5B"),
    ]  # fmt: skip
    assert hand(events, players=6)["points"] == {"A": 4, "B": 0}


def test_seed_000_situation_1_extended(hand, illegal):
    # B1 calls truco before playing, A2 accepts; A wins the first trick with A1's card and
    # A1 leads again; A2 raises to retruco after playing in the second trick; B2 accepts.
    events = [
        play("ana", "1E"), call("beto", "truco"), answer("alba", "quiero"),
        play("beto", "4E"), play("alba", "4B"), play("bruno", "5C"),
        play("ana", "4O"), play("beto", "7E"), play("alba", "5O"),
        call("alba", "retruco"), answer("bruno", "quiero"), play("bruno", "6C"),
        play("beto", "5E"), play("alba", "1B"), play("bruno", "6O"), play("ana", "6B"),
    ]  # fmt: skip
    result = hand(events, players=4)
    assert result["points"] == {"A": 3, "B": 0}
    # alba may not raise in trick 2 before her turn (beto is to play, ana just played).
    err = illegal([*events[:7], call("alba", "retruco")], players=4)
    assert (err.code, err.event) == ("call_not_in_turn", 7)


def test_seed_001_console_game_round_1(hand):
    # Eliana (ana, mano): 7E 10O 5E; Ivan (beto): 3O 11B 11E. Real envido refused (1);
    # Ivan wins the first trick, calls truco, Eliana retruco, Ivan vale cuatro, accepted;
    # 7E takes the second trick, 3O the third: Ivan 4 (001: "va ganando Ivan. Por 4 a 1").
    events = [
        call("ana", "real_envido"), answer("beto", "no_quiero"),
        play("ana", "5E"), play("beto", "11B"),
        call("beto", "truco"), call("ana", "retruco"), call("beto", "vale_cuatro"),
        answer("ana", "quiero"),
        play("beto", "11E"), play("ana", "7E"), play("ana", "10O"), play("beto", "3O"),
    ]  # fmt: skip
    cards = {"ana": ["7E", "10O", "5E"], "beto": ["3O", "11B", "11E"]}
    result = hand(events, cards=cards)
    assert result["points"] == {"A": 1, "B": 4}
    assert [i["kind"] for i in result["items"]] == ["envido", "truco"]
