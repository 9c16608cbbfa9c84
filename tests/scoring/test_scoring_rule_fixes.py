"""Rules docs/rules.md states that the engine applied wrongly, one table per rule.

Each case names the rule book it comes from: ``000`` calls and turns, ``001`` Argentine
truco without flor, ``003`` the Argentine reglamento, ``004`` Trucardo.

- A truco call comes from the player whose turn it is to play, or from the one who has
  just played (``000``): in a record with card plays, before the first card too.
- The answers to a plain flor are a flor, ``con_flor_me_achico`` or ``quiero`` /
  ``con_flor_quiero`` (``003``, ``004``): not ``no_quiero``.
- Points that ended the chico stand whatever follows (``001``): a flor sung after the
  envido that ended it no longer cancels that envido, and declaring the points of an
  envido the cards had already settled does not move it after a later penalty.
"""

from __future__ import annotations

import pytest

from scoring import EngineError, HandEntry
from scoring.actions import Call
from scoring.session import Session
from tests.scoring.events import answer, call, mazo, tricks

FLOR = {"rules": "argentine_flor"}
TRUCARDO = {"rules": "trucardo"}


def play(by, card):
    return {"by": by, "play": card}


# 2 players, ana mano: ana's 4C loses to beto's 5O, beto's 7O to ana's 1E, ana's 6C to 3B.
DUEL = {"ana": ["4C", "1E", "6C"], "beto": ["5O", "7O", "3B"]}
DUEL_PLAYS = [play("ana", "4C"), play("beto", "5O"), play("beto", "7O"), play("ana", "1E"),
              play("ana", "6C"), play("beto", "3B")]  # fmt: skip


# -- a truco call before the first card comes from the mano (000) -----------------------
@pytest.mark.parametrize(
    ("events", "kwargs", "at", "book"),
    [
        (
            [call("beto", "truco"), answer("ana", "quiero"), *DUEL_PLAYS],
            {"cards": DUEL},
            0,
            "000: the first turn is the mano's; beto, to play second, may not call yet",
        ),
        (
            [call("beto", "truco"), answer("ana", "quiero"), *DUEL_PLAYS],
            {},
            0,
            "000: the same without the cards dealt: the plays make it card-by-card entry",
        ),
        (
            [call("bruno", "truco"), answer("ana", "quiero"), play("ana", "4C")],
            {"players": 4},
            0,
            "000: bruno plays last in the first trick",
        ),
        (
            [call("beto", "envido"), answer("ana", "quiero"), {"envido_winner": "A"},
             call("alba", "truco"), play("ana", "4C")],
            {"players": 4},
            3,
            "000: after a settled envido, still nobody but the mano before the first card",
        ),
        (
            [call("aina", "truco"), answer("bru", "quiero"), play("ana", "4C")],
            {"players": 6, **TRUCARDO},
            0,
            "000: six players, trucardo: aina, fifth to play, may not call before the first card",
        ),
    ],
)  # fmt: skip
def test_a_truco_call_before_the_first_card_not_by_the_mano_is_refused(
    illegal, events, kwargs, at, book
):
    exc = illegal(events, **kwargs)
    assert (exc.code, exc.event) == ("call_not_in_turn", at), book


@pytest.mark.parametrize(
    ("events", "kwargs", "points", "book"),
    [
        (
            [call("ana", "truco"), answer("beto", "quiero"), *DUEL_PLAYS],
            {"cards": DUEL},
            {"A": 0, "B": 2},
            "000: the mano may call before playing his card",
        ),
        (
            [call("beto", "envido"), answer("ana", "no_quiero"), *DUEL_PLAYS],
            {"cards": DUEL},
            {"A": 0, "B": 2},
            "001: the envido is no turn call: anyone who has not played his card",
        ),
        (
            [call("beto", "truco"), answer("ana", "quiero"), *tricks("B", "B")],
            {},
            {"A": 0, "B": 2},
            "000: quick entry cannot see turns: any player may call",
        ),
        (
            [mazo("ana"), call("beto", "truco"), answer("alba", "quiero"), play("beto", "5O"),
             mazo("alba")],
            {"players": 4},
            {"A": 0, "B": 2},
            "003: the mano went to the mazo, so beto leads the first trick and may call",
        ),
    ],
)  # fmt: skip
def test_a_truco_call_before_the_first_card_by_the_player_to_lead_stands(
    hand, events, kwargs, points, book
):
    assert hand(events, **kwargs)["points"] == points, book


def test_card_by_card_entry_offers_the_truco_before_the_first_card_to_the_mano_only():
    # 000: the tablet entering card by card offers what the saved record will pass; a draft
    # of either mode is checked as a record is, by its first card or trick.
    head = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]}, "seats": ["ana", "beto"]}
    cards = HandEntry.from_state(head, None, plays=True)
    callers = {a.by for a in cards.legal_actions() if isinstance(a, Call) and a.call == "truco"}
    assert callers == {"ana"}
    with pytest.raises(EngineError) as info:
        cards.apply(call("beto", "truco"))
    assert info.value.code == "call_not_in_turn"
    view = Session(head, None, plays=True).view()
    assert [a["player"] for a in view["actions"] if a["event"].get("call") == "truco"] == ["ana"]

    quick = HandEntry.from_state(head, None, plays=False)
    quick.apply(call("beto", "truco"))  # quick entry: no turn to check
    either = HandEntry.from_state(head, None)
    with pytest.raises(EngineError) as info:
        either.restore({"events": [call("beto", "truco"), answer("ana", "quiero"),
                                   play("ana", "4C")]})  # fmt: skip
    assert (info.value.code, either.current.events) == ("call_not_in_turn", [])
    either.restore({"events": [call("beto", "truco"), answer("ana", "quiero"), *tricks("A")]})
    assert len(either.current.events) == 3


# -- no_quiero is no answer to a plain flor (003, 004) ----------------------------------
@pytest.mark.parametrize(
    ("events", "kwargs", "book"),
    [
        (
            [call("ana", "flor"), answer("beto", "no_quiero"), *tricks("A", "A")],
            FLOR,
            "003: a flor is answered flor, con flor me achico, con flor quiero or contraflor",
        ),
        (
            [call("ana", "flor"), answer("beto", "no_quiero"), *tricks("A", "A")],
            {**FLOR, "cards": {"beto": ["1O", "6O", "7O"]}},
            "004: beto, holding a flor, says con flor me achico instead",
        ),
        (
            [call("beto", "flor"), answer("alba", "no_quiero"), *tricks("A", "A")],
            {**TRUCARDO, "players": 4},
            "004: trucardo, four players",
        ),
        (
            [call("ana", "flor"), call("bru", "flor"), answer("alba", "no_quiero"),
             {"flor_winner": "A"}, *tricks("A", "A")],
            {**FLOR, "players": 6},
            "003: nor to two flores sung against each other",
        ),
    ],
)  # fmt: skip
def test_no_quiero_to_a_plain_flor_is_refused(illegal, events, kwargs, book):
    exc = illegal(events, **kwargs)
    assert (exc.code, exc.params["what"]) == ("bad_answer", "flor"), book
    assert exc.event == next(i for i, e in enumerate(events) if e.get("answer")), book


@pytest.mark.parametrize(
    ("events", "kwargs", "items", "book"),
    [
        (
            [call("ana", "flor"), answer("beto", "con_flor_me_achico"), *tricks("A", "A")],
            FLOR,
            [("flor", "A", 4), ("truco", "A", 1)],
            "004: con flor me achico, 4 to the side that sang first",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), answer("ana", "no_quiero"),
             *tricks("A", "A")],
            FLOR,
            [("flor", "B", 4), ("truco", "A", 1)],
            "004: a contraflor is a bet: refused, 4 to its caller",
        ),
        (
            [call("ana", "flor"), call("beto", "truco"), answer("ana", "no_quiero")],
            FLOR,
            [("flor", "A", 3), ("truco", "B", 1)],
            "003: with a truco waiting over the flor, no_quiero refuses the truco",
        ),
    ],
)  # fmt: skip
def test_answers_a_flor_still_takes(hand, events, kwargs, items, book):
    result = hand(events, **kwargs)
    assert [(i["kind"], i["side"], i["points"]) for i in result["items"]] == items, book


# -- points that ended the chico stand whatever follows (001) ----------------------------
@pytest.mark.parametrize(
    ("events", "kwargs", "winner", "envido", "book"),
    [
        (
            [call("ana", "envido"), answer("beto", "no_quiero"), call("beto", "flor")],
            {**FLOR, "score": (29, 10)},
            "A",
            1,
            "001: A reached 30 on the refused envido; beto's flor, left unanswered, "
            "neither cancels it nor leaves the hand incomplete",
        ),
        (
            [call("beto", "real_envido"), answer("alba", "quiero"), {"envido_winner": "B"},
             call("alba", "flor"), call("bruno", "contraflor")],
            {**TRUCARDO, "players": 4, "score": (12, 27)},
            "B",
            3,
            "001: trucardo, four players: the contraflor waiting for an answer changes nothing",
        ),
        (
            [call("beto", "falta_envido"), answer("ana", "quiero"),
             {"envido": {"ana": 31, "beto": 20}}, call("bru", "flor"),
             answer("alba", "con_flor_me_achico"), *tricks("B", "B")],
            {**FLOR, "players": 6, "score": (20, 5)},
            "A",
            10,
            "001: six players: the flor sung after the falta envido does not score instead",
        ),
        (
            [call("ana", "envido"), answer("beto", "quiero"), {"penalty": {"to": "B",
             "points": 5, "reason": "pido flor"}}, {"envido": {"ana": 33, "beto": 25}}],
            {"cards": {"ana": ["7E", "6E", "4C"], "beto": ["1O", "4O", "5B"]}, "score": (28, 25)},
            "A",
            2,
            "001: the dealt cards settled the envido at beto's quiero and A reached 30 there: "
            "the penalty given afterwards and the points declared later do not overtake it",
        ),
    ],
)  # fmt: skip
def test_a_chico_ended_on_a_settled_envido_stands_whatever_follows(
    hand, events, kwargs, winner, envido, book
):
    result = hand(events, **kwargs)
    assert (result["status"], result["winner"]) == ("game_over", winner), book
    assert [(i["kind"], i["points"]) for i in result["items"]][-1] == ("envido", envido), book


# -- a bet the recorded cards settle counts from its answer; without them, from its
# settlement (004: "los jugadores de inmediato indican su puntuación") --------------------
ENVIDO_CARDS = {"ana": ["7E", "6E", "4C"], "beto": ["1O", "4O", "5B"]}  # 33 v 25
FLOR_CARDS = {"ana": ["7E", "6E", "5E"], "beto": ["1O", "4O", "5O"]}  # 38 v 30
PENALTY_B = {"penalty": {"to": "B", "points": 5, "reason": "pido flor"}}


@pytest.mark.parametrize(
    ("events", "kwargs", "winner", "kinds", "book"),
    [
        (
            [call("ana", "envido"), answer("beto", "quiero"), PENALTY_B, {"envido_winner": "A"}],
            {"cards": ENVIDO_CARDS},
            "A",
            ["envido"],
            "the cards settled the envido at beto's quiero: it counts before the penalty",
        ),
        (
            [call("ana", "envido"), answer("beto", "quiero"), PENALTY_B, {"envido_winner": "A"}],
            {},
            "B",
            ["penalty"],
            "no cards: the envido counts where it is settled, after the penalty",
        ),
        (
            [call("ana", "flor"), call("beto", "flor"), PENALTY_B,
             {"flor": {"ana": 38, "beto": 30}}],
            {**TRUCARDO, "cards": FLOR_CARDS},
            "A",
            ["flor"],
            "a contested flor the cards settle counts from its last singer",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), PENALTY_B, answer("ana", "quiero"),
             {"flor_winner": "A"}],
            {**TRUCARDO, "cards": FLOR_CARDS},
            "B",
            ["penalty"],
            "the contraflor is settled at ana's quiero, after the penalty given before it",
        ),
        (
            [call("ana", "flor"), call("beto", "flor"), PENALTY_B,
             {"flor": {"ana": 38, "beto": 30}}],
            TRUCARDO,
            "B",
            ["penalty"],
            "no cards: the flor counts where it is settled, after the penalty",
        ),
    ],
)  # fmt: skip
def test_a_bet_the_cards_settle_counts_from_its_answer(hand, events, kwargs, winner, kinds, book):
    result = hand(events, score=(28, 25), **kwargs)
    assert (result["status"], result["winner"]) == ("game_over", winner), book
    assert [i["kind"] for i in result["items"]] == kinds, book


def test_a_flor_still_cancels_a_settled_envido_that_did_not_end_the_chico(hand):
    # 003, 004: "si alguien canta flor queda cancelado todo lo cantado referido al envido".
    events = [call("ana", "envido"), answer("beto", "no_quiero"), call("beto", "flor"),
              *tricks("A", "A")]  # fmt: skip
    result = hand(events, score=(10, 10), **FLOR)
    assert [(i["kind"], i["side"], i["points"]) for i in result["items"]] == [
        ("flor", "B", 3),
        ("truco", "A", 1),
    ]
