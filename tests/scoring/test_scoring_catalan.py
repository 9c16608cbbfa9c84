"""Catalan truc: the rule of 11, 11-11, podrides (docs/rules.md "Catalan joc"; seed 002)."""

from __future__ import annotations

import pytest

from tests.scoring.events import tricks

CATALAN = "catalan"
FROM_MESTRE = {"preset": "catalan", "mestre_penalty": "from_mestre"}


def mestre(by, decision):
    return {"by": by, "mestre": decision}


@pytest.mark.parametrize(
    ("rules", "score", "events", "points", "final", "status"),
    [
        # to_opponent (default): pass gives the other side 1.
        (CATALAN, (7, 11), [mestre("beto", "pass")], {"A": 1, "B": 0}, (8, 11), "complete"),
        # Playing makes the hand worth 3 to its winner (HAND_RECORD example 09).
        (
            CATALAN,
            (7, 11),
            [mestre("beto", "play"), *tricks("A", "parda")],
            {"A": 3, "B": 0},
            (10, 11),
            "complete",
        ),
        (
            CATALAN,
            (7, 11),
            [mestre("beto", "play"), *tricks("B", "B")],
            {"A": 0, "B": 3},
            (7, 12),
            "game_over",
        ),
        # from_mestre (literal 002): pass takes 1 from the mestre.
        (FROM_MESTRE, (7, 11), [mestre("beto", "pass")], {"A": 0, "B": -1}, (7, 10), "complete"),
        # Playing and losing takes 3; winning scores 1.
        (
            FROM_MESTRE,
            (7, 11),
            [mestre("beto", "play"), *tricks("A", "A")],
            {"A": 0, "B": -3},
            (7, 8),
            "complete",
        ),
        (
            FROM_MESTRE,
            (11, 4),
            [mestre("ana", "play"), *tricks("A", "A")],
            {"A": 1, "B": 0},
            (12, 4),
            "game_over",
        ),
        # Folding is losing the hand.
        (
            FROM_MESTRE,
            (7, 11),
            [mestre("beto", "play"), {"by": "beto", "mazo": True}],
            {"A": 0, "B": -3},
            (7, 8),
            "complete",
        ),
    ],
)
def test_the_rule_of_11(hand, rules, score, events, points, final, status):
    result = hand(events, rules=rules, score=score)
    assert result["points"] == points
    assert (result["score"]["A"], result["score"]["B"]) == final
    assert result["status"] == status
    assert result["items"][-1]["kind"] == "mestre"


@pytest.mark.parametrize(
    ("events", "kwargs", "code", "event"),
    [
        ([mestre("beto", "play"), {"by": "ana", "call": "truc"}], {}, "no_announcements", 1),
        ([mestre("beto", "play"), {"by": "beto", "call": "truc"}], {}, "no_announcements", 1),
        ([{"trick": "A"}], {}, "mestre_first", 0),
        ([{"by": "ana", "call": "truc"}], {}, "mestre_first", 0),
        ([mestre("ana", "play")], {}, "not_captain", 0),  # A is not the mestre
        ([mestre("bruno", "play")], {"players": 4}, "not_captain", 0),  # beto is B's cap
        ([mestre("beto", "play"), mestre("beto", "pass")], {}, "mestre_decided", 1),
        ([mestre("beto", "maybe")], {}, "bad_event", 0),
    ],
)
def test_mestre_sequences(illegal, events, kwargs, code, event):
    err = illegal(events, rules=CATALAN, score=(7, 11), **kwargs)
    assert (err.code, err.event) == (code, event)


def test_no_mestre_below_11(illegal):
    err = illegal([mestre("ana", "play")], rules=CATALAN, score=(10, 4))
    assert (err.code, err.event) == ("not_mestre", 0)


def test_both_at_11_go_back_to_6(hand):
    # An input score of 11-11 is treated as 6-6: no mestre, a quiet hand scores 1.
    result = hand(tricks("A", "A"), rules=CATALAN, score=(11, 11))
    assert result["score"] == {"A": 7, "B": 6}
    # A hand that leaves both sides at 11 outputs 6-6.
    result = hand([mestre("beto", "pass")], rules=CATALAN, score=(10, 11))
    assert result["points"] == {"A": 1, "B": 0}
    assert result["score"] == {"A": 6, "B": 6}


def test_reaching_11_together_from_a_quiet_hand(hand):
    result = hand(
        [{"penalty": {"to": "A", "points": 1, "reason": "signs"}}, *tricks("B", "B")],
        rules=CATALAN,
        score=(10, 10),
    )
    assert result["points"] == {"A": 1, "B": 1}
    assert result["score"] == {"A": 6, "B": 6}


def test_podrides_three_pardas_redeal_with_no_points(hand):
    result = hand(tricks("parda", "parda", "parda"), rules=CATALAN)
    assert (result["status"], result["points"]) == ("redeal", {"A": 0, "B": 0})
    truc = [{"by": "ana", "call": "truc"}, {"by": "beto", "answer": "quiero"}]
    penalty = {"penalty": {"to": "B", "points": 2, "reason": "signs"}}
    result = hand([*truc, penalty, *tricks("parda", "parda", "parda")], rules=CATALAN)
    assert (result["status"], result["points"]) == ("redeal", {"A": 0, "B": 2})
    result = hand(
        [mestre("beto", "play"), *tricks("parda", "parda", "parda")], rules=CATALAN, score=(7, 11)
    )
    assert (result["status"], result["points"]) == ("redeal", {"A": 0, "B": 0})


def test_catalan_deck_and_order_in_detailed_entry(hand):
    # 10O beats everything; 8s and 9s exist in the 48-card deck (002).
    cards = {"ana": ["9O", "8C", "4E"], "beto": ["10O", "3C", "9B"]}
    events = [
        {"by": "ana", "play": "9O"},
        {"by": "beto", "play": "10O"},
        {"by": "beto", "play": "9B"},
        {"by": "ana", "play": "8C"},
    ]
    assert hand(events, rules=CATALAN, cards=cards)["points"] == {"A": 0, "B": 1}


@pytest.mark.parametrize(
    ("record_changes", "code"),
    [
        ({"captains": None}, "bad_captains"),
        ({"captains": {"A": "ana", "B": "alba"}}, "bad_captains"),
        ({"teams": {"A": ["ana"], "B": ["beto", "bruno", "alba"]}}, "bad_player_count"),
    ],
)
def test_catalan_tables(record, record_changes, code):
    from scoring.errors import EngineError
    from scoring.record import score_hand

    rec = record(tricks("A", "A"), rules=CATALAN, players=4)
    rec.update(record_changes)
    if rec.get("captains") is None:
        del rec["captains"]
    with pytest.raises(EngineError) as info:
        score_hand(rec)
    assert info.value.code == code
