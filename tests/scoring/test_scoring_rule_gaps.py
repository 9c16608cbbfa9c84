"""Rules settled in docs/rules.md that the first engine left open, one table per rule.

Each case names the rule book it comes from: ``003`` the Argentine reglamento (flor,
penalties), ``004`` Trucardo, ``002`` the Catalan championship rules.
"""

from __future__ import annotations

import json

import pytest

from scoring.cli import main
from scoring.errors import EngineError
from scoring.record import score_hand
from scoring.rules import RuleSet
from tests.scoring.events import answer, call, tricks

FLOR = {"rules": "argentine_flor"}
PER_FLOR = {"rules": {"preset": "argentine_flor", "contraflor_value": "per_flor"}}
FLOR_A = ["1E", "4E", "5E"]  # a flor of espadas, 29
FLOR_B = ["1O", "6O", "7O"]  # a flor of oros, 34
NO_FLOR = ["4C", "5O", "6B"]


def penalty(to, points, reason="pido flor"):
    return {"penalty": {"to": to, "points": points, "reason": reason}}


def flor_item(result):
    (item,) = [i for i in result["items"] if i["kind"] == "flor"]
    return item["side"], item["points"], item["flores"]


# -- quiero / con flor quiero sings the answerer's own flor (003) -----------------------
@pytest.mark.parametrize(
    ("events", "kwargs", "expected", "book"),
    [
        (
            [call("ana", "flor"), answer("beto", "con_flor_quiero"), {"flor_winner": "B"}],
            {},
            ("B", 3, 2),
            "003: con flor quiero to a flor sings beto's flor; settled by value",
        ),
        (
            [call("ana", "flor"), answer("beto", "quiero"), {"flor": {"ana": 29, "beto": 34}}],
            {},
            ("B", 3, 2),
            "003: quiero to a flor sings it too; beto declares his flor",
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor"),
                answer("alba", "con_flor_quiero"),
                {"flor": {"ana": 29, "beto": 30, "alba": 33}},
            ],
            {"players": 4, **PER_FLOR},
            ("A", 9, 3),
            "003: alba's con flor quiero is a third flor: per_flor gives 9",
        ),
        (
            [
                call("ana", "flor"),
                call("beto", "contraflor_al_resto"),
                answer("alba", "quiero"),
                {"flor_winner": "B"},
            ],
            {"players": 4, "score": (10, 20)},
            ("B", 30 - 20 + 3 * 3, 3),
            "003: the resto plus 3 for each of the three flores sung",
        ),
    ],
)
def test_accepting_a_flor_sings_ones_own(hand, events, kwargs, expected, book):
    result = hand([*events, *tricks("A", "A")], **{**FLOR, **kwargs})
    assert flor_item(result) == expected, book


@pytest.mark.parametrize(
    ("events", "kwargs", "code", "at", "book"),
    [
        (
            [call("ana", "flor"), answer("beto", "con_flor_quiero")],
            {"cards": {"beto": NO_FLOR}},
            "no_flor",
            1,
            "003: con flor quiero without a flor",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), answer("alba", "quiero")],
            {"players": 4, "cards": {"alba": NO_FLOR}},
            "no_flor",
            2,
            "003: quiero to a contraflor sings a flor alba does not hold",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor")],
            {"cards": {"beto": NO_FLOR}},
            "no_flor",
            1,
            "003: a contraflor by a player without flor",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor_al_resto")],
            {"cards": {"beto": NO_FLOR}},
            "no_flor",
            1,
            "003: a contraflor al resto by a player without flor",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor_al_resto"),
             answer("ana", "con_flor_me_achico")],
            {},
            "bad_answer",
            2,
            "003: the answers to a contraflor al resto are only two",
        ),
        (
            [call("ana", "flor"), call("beto", "contraflor"), call("ana", "contraflor_al_resto"),
             answer("beto", "con_flor_me_achico")],
            {},
            "bad_answer",
            3,
            "003: not over a contraflor either",
        ),
        (
            [call("ana", "truco"), answer("beto", "con_flor_quiero")],
            {},
            "nothing_to_answer",
            1,
            "003: nothing flor-like to accept",
        ),
    ],
)  # fmt: skip
def test_flor_answers_refused(illegal, events, kwargs, code, at, book):
    exc = illegal(events, **{**FLOR, **kwargs})
    assert (exc.code, exc.event) == (code, at), book


def test_contraflor_al_resto_takes_quiero_or_no_quiero(hand):
    # 003 "las respuestas ... son sólo dos"; a refusal gives the caller 4 (004).
    base = [call("ana", "flor"), call("beto", "contraflor_al_resto")]
    refused = hand([*base, answer("ana", "no_quiero"), *tricks("A", "A")], **FLOR)
    assert flor_item(refused)[:2] == ("B", 4)
    with_cards = {"cards": {"ana": FLOR_A, "beto": FLOR_B}}
    accepted = hand(
        [*base, answer("ana", "con_flor_quiero"), *tricks("A", "A")], **FLOR, **with_cards
    )
    assert flor_item(accepted) == ("B", 30 - 0 + 3 * 2, 2)


# -- contraflor_value (003: 6, or 9 when three flores were sung) ----------------------
@pytest.mark.parametrize(
    ("rules", "players", "extra", "expected"),
    [
        (FLOR, 2, [], 6),
        (PER_FLOR, 2, [], 6),
        (PER_FLOR, 4, [call("alba", "flor")], 9),
        ({"rules": "trucardo"}, 4, [call("alba", "flor")], 6),
    ],
)
def test_contraflor_value(hand, rules, players, extra, expected):
    events = [
        call("ana", "flor"),
        *extra,
        call("beto", "contraflor"),
        answer("ana", "quiero"),
        {"flor_winner": "A"},
        *tricks("A", "A"),
    ]
    assert flor_item(hand(events, players=players, **rules))[:2] == ("A", expected)


def test_contraflor_value_option_values():
    assert RuleSet.from_spec("argentine_flor").contraflor_value == 6
    with pytest.raises(EngineError) as info:
        RuleSet.from_spec({"preset": "argentine_flor", "contraflor_value": "9"})
    assert info.value.code == "bad_option_value"


# -- penalties count when awarded; penalty_max (003) -----------------------------------
def test_a_penalty_before_the_envido_is_settled_counts_though_the_envido_ends_the_chico(hand):
    events = [
        call("ana", "envido"),
        answer("beto", "quiero"),
        penalty("A", 2),
        {"envido_winner": "B"},
        *tricks("A", "A"),
    ]
    result = hand(events, score=(10, 28))
    assert result["status"] == "game_over" and result["winner"] == "B"
    assert [i["kind"] for i in result["items"]] == ["penalty", "envido"]
    assert result["points"] == {"A": 2, "B": 2}


def test_a_penalty_that_reaches_the_target_ends_the_chico_there(hand):
    events = [call("ana", "envido"), penalty("B", 4), answer("beto", "quiero"),
              {"envido_winner": "A"}, *tricks("A", "A")]  # fmt: skip
    result = hand(events, score=(28, 26))
    assert (result["winner"], result["score"]) == ("B", {"A": 28, "B": 30})
    assert [i["kind"] for i in result["items"]] == ["penalty"]


@pytest.mark.parametrize(
    ("rules", "points", "code"),
    [
        ("argentine", 31, "penalty_too_big"),
        ("catalan", 13, "penalty_too_big"),
        ({"preset": "argentine", "penalty_max": 4}, 5, "penalty_too_big"),
        ("argentine", 0, "bad_event"),
        ("argentine", -3, "bad_event"),
        ("argentine", True, "bad_event"),
        ("argentine", 2.0, "bad_event"),
        ("argentine", 10**40, "penalty_too_big"),
    ],
)
def test_penalty_points_are_bounded(illegal, rules, points, code):
    exc = illegal([penalty("A", points)], rules=rules)
    assert (exc.code, exc.event) == (code, 0)


def test_penalty_max_is_an_option_from_1_to_the_target(hand):
    assert RuleSet.from_spec("argentine").max_penalty == 30
    assert RuleSet.from_spec({"preset": "argentine", "target": 15}).max_penalty == 15
    assert RuleSet.from_spec("catalan").max_penalty == 12
    for bad in (0, 31, True, "4"):
        with pytest.raises(EngineError) as info:
            RuleSet.from_spec({"preset": "argentine", "penalty_max": bad})
        assert info.value.code == "bad_option_value"
    with pytest.raises(EngineError):
        RuleSet.from_spec({"preset": "argentine", "target": 15, "penalty_max": 20})
    result = hand(
        [penalty("A", 4), *tricks("A", "A")], rules={"preset": "argentine", "penalty_max": 4}
    )
    assert result["points"]["A"] == 5


# -- catalan accepts an option at its only value (002) --------------------------------
@pytest.mark.parametrize(
    ("spec", "ok"),
    [
        ({"preset": "catalan", "flor": False}, True),
        ({"preset": "catalan", "pica_pica": False}, True),
        ({"preset": "catalan", "target": 12}, True),
        ({"preset": "catalan", "flor": True}, False),
        ({"preset": "catalan", "target": 30}, False),
        ({"preset": "catalan", "hierarchy": "traditional"}, False),
    ],
)
def test_catalan_options_at_their_only_value(spec, ok):
    if ok:
        assert RuleSet.from_spec(spec) == RuleSet.from_spec("catalan")
    else:
        with pytest.raises(EngineError):
            RuleSet.from_spec(spec)


# -- the chico ended on the envido or the flor: complete whatever follows (001) ---------
@pytest.mark.parametrize(
    ("after", "book"),
    [
        ([{"void": "card shown"}], "001: a void called later does not take the points back"),
        ([call("ana", "truco")], "001: a truco left unanswered"),
        ([call("ana", "truco"), answer("beto", "quiero"), call("beto", "retruco")], "001"),
        ([], "001: the events stop right there"),
    ],
)
def test_a_chico_ended_on_the_envido_stands(hand, after, book):
    events = [call("ana", "envido"), answer("beto", "quiero"), {"envido_winner": "A"}, *after]
    result = hand(events, score=(28, 3))
    assert (result["status"], result["winner"], result["score"]["A"]) == ("game_over", "A", 30), (
        book
    )


def test_a_chico_ended_on_the_flor_stands_after_a_void(hand):
    events = [call("ana", "flor"), {"void": "misdeal"}]
    result = hand(events, score=(28, 3), **FLOR)
    assert (result["status"], result["winner"]) == ("game_over", "A")


def test_a_void_still_annuls_an_envido_that_does_not_end_the_chico(hand):
    events = [call("ana", "envido"), answer("beto", "quiero"), {"envido_winner": "A"},
              {"void": "card shown"}]  # fmt: skip
    result = hand(events, score=(10, 3))
    assert (result["status"], result["points"]) == ("void", {"A": 0, "B": 0})


@pytest.mark.parametrize(
    "events",
    [
        [call("ana", "flor"), call("beto", "contraflor")],
        [call("ana", "flor"), call("beto", "contraflor"), call("ana", "contraflor_al_resto")],
    ],
)
def test_a_hand_stopping_on_an_unanswered_flor_bet_is_incomplete(illegal, events):
    exc = illegal(events, score=(28, 28), cards={"ana": FLOR_A, "beto": FLOR_B}, **FLOR)
    assert exc.code == "hand_incomplete"


# -- hostile input is an EngineError, never a traceback --------------------------------
@pytest.mark.parametrize(
    "change",
    [
        lambda r: r["teams"]["A"].__setitem__(0, "an\ud800a"),
        lambda r: r["events"].append({"void": "nul\x00"}),
        lambda r: r["events"].append(penalty("A", 1, "\udfff")),
        lambda r: r.__setitem__("note\x00", 1),
        lambda r: r["events"].insert(0, {"by": "\ud800", "call": "truco"}),
        lambda r: r["score"].__setitem__("A", 10**30),
        lambda r: r["events"].insert(0, {"envido": {"ana": 10**30}}),
    ],
)
def test_hostile_strings_and_numbers_are_refused(record, change):
    rec = json.loads(json.dumps(record([*tricks("A", "A")])))  # the helper shares its lists
    change(rec)
    from scoring.record import score_hand

    with pytest.raises(EngineError):
        score_hand(rec)
    out = _Out()
    assert main(["hand", "-"], stdin=_bytes(json.dumps(rec)), out=out) == 2
    assert set(json.loads(out.text)) == {"error"}


class _Out:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text
        return len(text)


def _bytes(text):
    import io

    return io.BytesIO(text.encode("ascii"))


def test_a_flor_bet_nobody_could_answer_is_refused():
    """003: only a player of the other side holding a flor answers a flor bet. Here side A's
    only flor went to the mazo and its others show no flor: B's contraflor would leave the
    hand waiting for ever (found by the random walks), so it is refused; B sings instead."""
    record = {
        "rules": {"preset": "trucardo", "hierarchy": "inverse"},
        "teams": {"A": ["a1", "a2", "a3", "a4"], "B": ["b1", "b2", "b3", "b4"]},
        "order": ["a3", "b3", "a4", "b4", "a1", "b1", "a2", "b2"],
        "score": {"A": 5, "B": 0},
        "cards": {
            "a3": ["11C", "12E", "10E"],
            "a4": ["2B", "2E", "7C"],
            "a1": ["5O", "3B", "5C"],
            "b1": ["4O", "4B", "1E"],
            "b2": ["1O", "6C", "12C"],
        },
        "events": [
            call("a2", "flor"),
            answer("b3", "con_flor_quiero"),
            call("a4", "truco"),
            call("b1", "retruco"),
            {"by": "a2", "mazo": True},
            call("a3", "vale_cuatro"),
            call("b4", "contraflor"),
        ],
    }
    with pytest.raises(EngineError) as error:
        score_hand(record)
    assert (error.value.code, error.value.event) == ("flor_answer_not_allowed", 6)
