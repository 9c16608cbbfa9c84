"""The flor, its answers and bets (docs/rules.md "Flor"; seeds 003, 004)."""

from __future__ import annotations

import pytest

from tests.scoring.events import answer, call, tricks

FLOR = {"rules": "argentine_flor"}


def flor_item(result):
    (item,) = [i for i in result["items"] if i["kind"] == "flor"]
    return item["side"], item["points"]


# The table of docs/rules.md "Flor", row by row. Ana (A) is mano; score 0-0 unless given.
@pytest.mark.parametrize(
    ("events", "kwargs", "expected", "row"),
    [
        ([call("ana", "flor")], {}, ("A", 3), "flor, nothing: 3 (003, 004)"),
        ([call("ana", "flor"), call("alba", "flor")], {"players": 4}, ("A", 6), "3 per flor"),
        (
            [call("ana", "flor"), call("beto", "flor"), {"flor": {"ana": 30, "beto": 33}}],
            {},
            ("B", 3),
            "flor, flor: the best flor's side, 3 per flor it sang (003)",
        ),
        (
            [call("ana", "flor"), call("alba", "flor"), call("beto", "flor"), {"flor_winner": "A"}],
            {"players": 4},
            ("A", 6),
            "both of A's flores count",
        ),
        (
            [call("ana", "flor"), answer("beto", "con_flor_me_achico")],
            {},
            ("A", 4),
            "con flor me achico: 4 in all to the side that sang first (004)",
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor"),
                answer("ana", "quiero"),
                {"flor": {"ana": 35, "beto": 32}},
            ],
            {},
            ("A", 6),
            "contraflor accepted: 6 (004)",
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor"),
                answer("ana", "con_flor_quiero"),
                {"flor": {"ana": 25, "beto": 32}},
            ],
            {},
            ("B", 6),
            "con flor quiero: 6 to the best",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), answer("ana", "no_quiero")],
            {},
            ("B", 4),
            "contraflor refused: 4 to the caller (004)",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), answer("ana", "con_flor_me_achico")],
            {},
            ("B", 4),
            "achico to contraflor: 4",
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor_al_resto"),
                answer("ana", "quiero"),
                {"flor_winner": "A"},
            ],
            {"score": (10, 20)},
            ("A", 16),
            "resto_plus_flores: 30 - 20 (the leader) + 3 x 2 flores (003)",
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor"),
                call("ana", "contraflor_al_resto"),
                answer("beto", "con_flor_quiero"),
                {"flor_winner": "B"},
            ],
            {"score": (20, 10)},
            ("B", 16),
            "contraflor al resto over a contraflor",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor_al_resto"), answer("ana", "no_quiero")],
            {},
            ("B", 4),
            "contraflor al resto refused: 4 to the caller (004)",
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor_al_resto"),
                answer("ana", "quiero"),
                {"flor_winner": "B"},
            ],
            {"pica_pica": True},
            ("B", 12),
            "pica-pica: 6 plus the contraflor's 6 (003)",
        ),
    ],
)
def test_flor_table(hand, events, kwargs, expected, row):
    result = hand([*events, *tricks("A", "A")], **{**FLOR, **kwargs})
    assert flor_item(result) == expected, row


def test_contraflor_al_resto_whole_chico(hand):
    # 004 (trucardo's default): "si se acepta, quien gane esa apuesta gana el chico".
    events = [
        call("ana", "flor"),
        call("beto", "contraflor_al_resto"),
        answer("ana", "quiero"),
        {"flor_winner": "A"},
        *tricks("B", "B"),
    ]
    result = hand(events, rules="trucardo", score=(10, 20))
    assert result["points"] == {"A": 20, "B": 0}
    assert (result["status"], result["winner"], result["score"]) == (
        "game_over",
        "A",
        {"A": 30, "B": 20},
    )


def test_a_sung_flor_cancels_the_envido(hand, illegal):
    # 003, 004: "queda cancelado todo lo cantado referido al envido".
    result = hand([call("beto", "envido"), call("ana", "flor"), *tricks("A", "A")], **FLOR)
    assert [i["kind"] for i in result["items"]] == ["flor", "truco"]
    assert result["points"] == {"A": 4, "B": 0}
    result = hand(
        [
            call("beto", "envido"),
            answer("ana", "no_quiero"),
            call("ana", "flor"),
            *tricks("B", "B"),
        ],
        **FLOR,
    )
    assert result["points"] == {"A": 3, "B": 1}
    err = illegal([call("ana", "flor"), call("beto", "envido")], **FLOR)
    assert (err.code, err.event) == ("envido_too_late", 1)


def test_a_flor_sung_while_a_truco_waits(hand):
    events = [
        call("ana", "truco"),
        call("beto", "flor"),
        answer("beto", "quiero"),
        *tricks("A", "A"),
    ]
    assert hand(events, **FLOR)["points"] == {"A": 2, "B": 3}


def test_flores_settled_from_the_cards(hand):
    cards = {"ana": ["5E", "6E", "7E"], "beto": ["1B", "2B", "3B"]}  # 38 v 26
    events = [
        call("ana", "flor"),
        call("beto", "flor"),
        {"by": "ana", "play": "5E"},
        {"by": "beto", "play": "1B"},
        {"by": "beto", "play": "2B"},
        {"by": "ana", "play": "6E"},
    ]
    result = hand(events, cards=cards, **FLOR)
    assert flor_item(result) == ("A", 3)
    assert result["points"] == {"A": 3, "B": 1}  # 1B beats 5E, 2B beats 6E


@pytest.mark.parametrize(
    ("events", "kwargs", "code", "event"),
    [
        ([call("ana", "flor")], {"cards": {"ana": ["5E", "6E", "7O"]}}, "no_flor", 0),
        (
            [call("ana", "flor"), answer("beto", "con_flor_me_achico")],
            {"cards": {"beto": ["5O", "6E", "7O"]}},
            "no_flor",
            1,
        ),
        ([{"trick": "A"}, call("ana", "flor")], {}, "flor_too_late", 1),
        ([call("ana", "flor"), call("ana", "flor")], {}, "flor_already_sung", 1),
        ([call("beto", "contraflor")], {}, "flor_answer_not_allowed", 0),
        (
            [call("ana", "flor"), call("alba", "contraflor")],
            {"players": 4},
            "flor_answer_not_allowed",
            1,
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), {"trick": "A"}],
            {},
            "answer_pending",
            2,
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), call("beto", "truco")],
            {},
            "answer_pending",
            2,
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), answer("beto", "quiero")],
            {},
            "not_answering_side",
            2,
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor"),
                answer("ana", "quiero"),
                call("beto", "flor"),
            ],
            {},
            "flor_too_late",
            3,
        ),
        (
            [call("ana", "flor"), call("beto", "flor"), {"flor": {"alba": 30}}],
            {"players": 4},
            "bad_settlement",
            2,
        ),
        ([call("ana", "flor"), {"flor_winner": "A"}], {}, "nothing_to_settle", 1),
        (
            [call("ana", "flor"), call("beto", "flor"), *tricks("A", "A")],
            {},
            "settlement_missing",
            None,
        ),
    ],
)
def test_illegal_flor_sequences(illegal, events, kwargs, code, event):
    err = illegal(events, **{**FLOR, **kwargs})
    assert (err.code, err.event) == (code, event)


def test_the_flor_cards_and_declared_value_must_agree(illegal):
    cards = {"ana": ["5E", "6E", "7E"]}
    events = [call("ana", "flor"), call("beto", "flor"), {"flor": {"ana": 30, "beto": 33}}]
    err = illegal(events, cards=cards, **FLOR)
    assert (err.code, err.params["actual"]) == ("value_contradicts_cards", 38)


def test_a_raise_without_flor_is_refused(illegal):
    # 003: only a player holding a flor bets on it; alba's known cards are no flor.
    events = [call("ana", "flor"), call("beto", "contraflor"), call("alba", "contraflor_al_resto")]
    exc = illegal(events, players=4, cards={"alba": ["4C", "5O", "6B"]}, **FLOR)
    assert (exc.code, exc.event) == ("no_flor", 2)


def test_raising_over_a_contraflor_by_its_singer_sings_no_new_flor(hand):
    # ana already sang: her contraflor al resto adds no flor; bruno's quiero sings his (003).
    events = [
        call("ana", "flor"),
        call("beto", "contraflor"),
        call("ana", "contraflor_al_resto"),
        answer("bruno", "quiero"),
        {"flor_winner": "A"},
        *tricks("B", "B"),
    ]
    result = hand(events, players=4, score=(10, 20), **FLOR)
    assert flor_item(result) == ("A", 30 - 20 + 3 * 3)
