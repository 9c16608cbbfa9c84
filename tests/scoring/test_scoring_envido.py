"""The envido: chain, limits, values, falta envido, settlement (docs/rules.md "Envido")."""

from __future__ import annotations

import pytest

from scoring.actions import Call
from scoring.errors import RuleSetError
from scoring.hand import apply, legal_actions
from scoring.record import hand_from_record
from scoring.rules import RuleSet
from tests.scoring.conftest import make_record
from tests.scoring.events import answer, call, tricks

E, R, F = "envido", "real_envido", "falta_envido"
CHAIN = (E, R, F)


def chain_events(calls, reply):
    """Calls alternate sides, beto first; the other side of the last caller answers."""
    players = ["beto", "ana"]
    events = [call(players[i % 2], c) for i, c in enumerate(calls)]
    last = players[(len(calls) - 1) % 2]
    events.append(answer("ana" if last == "beto" else "beto", reply))
    return events, ("B" if last == "beto" else "A")


# Seed 001's table: calls, points when refused, points when accepted (falta: see below).
TABLE_001 = [
    ([E], 1, 2),
    ([R], 1, 3),
    ([F], 1, None),
    ([E, E], 2, 4),
    ([E, R], 2, 5),
    ([E, F], 2, None),
    ([R, F], 3, None),
    ([E, E, R], 4, 7),
    ([E, R, F], 5, None),
    ([E, E, R, F], 7, None),
]


@pytest.mark.parametrize(("calls", "refused", "accepted"), TABLE_001)
def test_seed_001_table_refused(hand, calls, refused, accepted):
    events, last_side = chain_events(calls, "no_quiero")
    result = hand([*events, *tricks("A", "A")])
    envido = result["items"][0]
    assert (envido["kind"], envido["side"], envido["points"]) == ("envido", last_side, refused)
    assert envido["calls"] == calls and envido["accepted"] is False


@pytest.mark.parametrize(("calls", "refused", "accepted"), TABLE_001)
def test_seed_001_table_accepted(hand, calls, refused, accepted):
    events, _ = chain_events(calls, "quiero")
    # Score 10-20: a falta envido (leader_to_target) is worth 30 - 20 = 10.
    result = hand([*events, {"envido_winner": "A"}, *tricks("B", "B")], score=(10, 20))
    envido = result["items"][0]
    assert envido["side"] == "A" and envido["accepted"] is True
    assert envido["points"] == (accepted if accepted is not None else 10)


@pytest.mark.parametrize(
    ("calls", "max_calls", "code", "event"),
    [
        ([E, E, E], 4, "envido_chain", 2),  # envido at most twice
        ([R, E], 4, "envido_chain", 1),  # envido, then real envido, then falta
        ([R, R], 4, "envido_chain", 1),  # real envido once
        ([F, E], 4, "envido_chain", 1),  # nothing after a falta envido
        ([F, F], 4, "envido_chain", 1),
        ([E, E, R, F], 3, "envido_limit", 3),  # trucardo: a first call and two replies
        ([E, R, F], 2, "envido_limit", 2),
    ],
)
def test_chain_order_and_limits(illegal, calls, max_calls, code, event):
    events, _ = chain_events(calls, "quiero")
    err = illegal(events, rules={"preset": "argentine", "envido_max_calls": max_calls})
    assert (err.code, err.event) == (code, event)


def test_trucardo_allows_three_calls_and_argentine_four(hand, illegal):
    events, _ = chain_events([E, R, F], "no_quiero")
    assert hand([*events, *tricks("A", "A")], rules="trucardo")["points"] == {"A": 1, "B": 5}
    err = illegal(chain_events([E, E, R, F], "no_quiero")[0], rules="trucardo")
    assert (err.code, err.event) == ("envido_limit", 3)
    events, _ = chain_events([E, E, R, F], "no_quiero")
    assert hand([*events, *tricks("B", "B")])["points"] == {"A": 7, "B": 1}


@pytest.mark.parametrize(
    ("events", "code", "event"),
    [
        ([call("ana", E), call("ana", R)], "answer_pending", 1),  # a raise is the other side's
        ([{"trick": "A"}, call("ana", E)], "envido_too_late", 1),  # first trick only
        ([call("ana", "truco"), answer("beto", "quiero"), call("beto", E)], "envido_too_late", 2),
        ([call("ana", "truco"), call("ana", E)], "answer_pending", 1),  # the truco caller waits
        ([call("ana", E), answer("beto", "no_quiero"), call("beto", E)], "envido_closed", 2),
        ([{"envido_winner": "A"}], "nothing_to_settle", 0),
        ([call("ana", E), answer("beto", "quiero"), {"envido_winner": "C"}], "unknown_side", 2),
        ([call("ana", E), answer("beto", "quiero"), {"envido": {"zoe": 20}}], "unknown_player", 2),
        ([call("ana", E), answer("beto", "quiero"), {"envido": {"ana": 34}}], "bad_settlement", 2),
    ],
)
def test_when_the_envido_may_be_called(illegal, events, code, event):
    err = illegal(events)
    assert (err.code, err.event) == (code, event)


def test_envido_only_before_playing_ones_first_card_in_detailed_entry(hand, illegal):
    cards = {"ana": ["7E", "6E", "1O"], "beto": ["3O", "11B", "11E"]}
    err = illegal([{"by": "ana", "play": "1O"}, call("ana", E)], cards=cards)
    assert (err.code, err.event) == ("envido_too_late", 1)
    # beto has not played yet: he may still call. No settlement event: the cards settle it
    # (ana 33, beto 3), and the tricks go 3O, 7E, 11E: beto 2 of 3.
    events = [
        {"by": "ana", "play": "1O"},
        call("beto", E),
        answer("ana", "quiero"),
        {"by": "beto", "play": "3O"},
        {"by": "beto", "play": "11B"},
        {"by": "ana", "play": "7E"},
        {"by": "ana", "play": "6E"},
        {"by": "beto", "play": "11E"},
    ]
    assert hand(events, cards=cards)["points"] == {"A": 2, "B": 1}


def test_el_envido_va_primero(hand):
    # 003, 004: the side answering a truco in the first trick calls envido first; the truco
    # is answered once the envido is settled (HAND_RECORD example 11 refuses it).
    events = [
        call("ana", "truco"),
        call("bruno", E),
        answer("alba", "quiero"),
        {"envido": {"ana": 30, "beto": 27}},
        answer("beto", "quiero"),
        *tricks("B", "B"),
    ]
    result = hand(events, players=4)
    assert result["points"] == {"A": 2, "B": 2}
    assert [i["kind"] for i in result["items"]] == ["envido", "truco"]


def test_the_truco_waits_for_the_envido(illegal):
    events = [call("ana", "truco"), call("bruno", E), answer("beto", "quiero")]
    err = illegal(events, players=4)  # beto's quiero answers the envido: his own side's call
    assert (err.code, err.event) == ("not_answering_side", 2)


# -- falta envido (docs/rules.md "Falta envido value") ------------------------------------------
@pytest.mark.parametrize(
    ("mode", "target", "score", "winner", "value"),
    [
        ("leader_to_target", 30, (3, 7), "A", 23),  # 003: target - the leader's score
        ("leader_to_target", 30, (20, 16), "A", 10),
        ("leader_to_target", 15, (3, 7), "A", 8),
        ("rival_to_half", 30, (20, 10), "A", 5),  # 004: loser B in malas -> to 15
        ("rival_to_half", 30, (3, 17), "A", 13),  # loser B in buenas -> to 30
        ("rival_to_half", 15, (3, 7), "A", 8),  # no halves: "half" is the target
        ("leader_to_half", 30, (3, 7), "A", 8),  # leader 7 in malas -> to 15
        ("leader_to_half", 30, (20, 16), "B", 10),  # leader 20 in buenas -> to 30
        ("leader_to_half", 15, (3, 7), "A", 8),
        ("whole_chico", 30, (3, 7), "A", 27),  # the winner takes the chico
        ("whole_chico", 30, (20, 16), "B", 14),
        ("whole_chico", 15, (3, 7), "B", 8),
    ],
)
def test_falta_envido_modes(hand, mode, target, score, winner, value):
    rules = {"preset": "argentine", "falta_envido": mode, "target": target}
    events = [call("ana", F), answer("beto", "quiero"), {"envido_winner": winner}]
    result = hand([*events, *tricks("A", "A")], rules=rules, score=score)
    assert result["items"][0]["points"] == value
    reached = score[0 if winner == "A" else 1] + value >= target
    assert result["status"] == ("game_over" if reached else "complete")


def test_falta_envido_in_pica_pica_is_worth_6(hand):
    events = [call("ana", F), answer("beto", "quiero"), {"envido_winner": "B"}]
    result = hand([*events, *tricks("A", "A")], score=(3, 7), pica_pica=True)
    assert result["points"] == {"A": 1, "B": 6}


def test_an_envido_that_ends_the_chico_drops_the_rest_of_the_hand(hand):
    # 001: "si una pareja llega a los puntos de una partida sumando los puntos del envido,
    # gana la partida y el truco no se tiene en cuenta".
    events = [
        call("beto", E),
        call("ana", R),
        answer("beto", "quiero"),
        {"envido": {"ana": 7, "beto": 31}},
        {"trick": "A"},
        call("ana", "truco"),
        answer("beto", "no_quiero"),
    ]
    result = hand(events, score=(12, 27))
    assert result["points"] == {"A": 0, "B": 5}
    assert result["score"] == {"A": 12, "B": 30}
    assert [i["kind"] for i in result["items"]] == ["envido"]
    assert (result["status"], result["winner"]) == ("game_over", "B")


def test_the_chico_over_on_the_envido_the_record_may_stop(hand):
    events = [call("ana", F), answer("beto", "quiero"), {"envido_winner": "A"}]
    assert hand(events)["status"] == "game_over"


# -- settlement ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "declared", "winner", "source"),
    [
        (2, {"ana": 28, "beto": 28}, "A", "tie: the mano wins (003, 004)"),
        (4, {"beto": 30, "alba": 30, "ana": 12}, "B", "tie: first in playing order from the mano"),
        (4, {"bruno": 31, "ana": 33}, "A", "the best value"),
        (2, {"beto": 25}, "B", "the other side said 'son buenas'"),
    ],
)
def test_settled_by_declared_points(hand, players, declared, winner, source):
    events = [call("ana", E), answer("beto", "quiero"), {"envido": declared}, *tricks("A", "A")]
    result = hand(events, players=players)
    assert result["items"][0]["side"] == winner, source


def test_a_declared_value_contradicting_the_cards_is_an_error(illegal):
    cards = {"ana": ["7E", "6E", "1O"]}  # 33
    events = [call("ana", E), answer("beto", "quiero"), {"envido": {"ana": 30, "beto": 20}}]
    err = illegal(events, cards=cards)
    assert (err.code, err.event) == ("value_contradicts_cards", 2)
    assert err.params["actual"] == 33


def test_a_winner_contradicting_the_cards_is_an_error(illegal):
    cards = {"ana": ["7E", "6E", "1O"], "beto": ["3O", "11B", "11E"]}
    events = [call("ana", E), answer("beto", "quiero"), {"envido_winner": "B"}]
    err = illegal(events, cards=cards)
    assert (err.code, err.event) == ("winner_contradicts_cards", 2)


def test_an_accepted_envido_must_be_settled(illegal):
    err = illegal([call("ana", E), answer("beto", "quiero"), *tricks("A", "A")])
    assert (err.code, err.event) == ("settlement_missing", None)


# -- option envido_chain: 001's ladder or 004's free chain -----------------------------------
# 004 (Trucardo): "Cualquiera de estas tres apuestas se puede usar tanto como una primera
# apuesta como réplica a una apuesta anterior, a la que se acumula, con un límite de dos
# réplicas posibles para el envido. Como excepción, nunca se puede replicar a un falta
# envido." Calls, points when refused (the chain before the last call, at least 1),
# points when accepted (None: a falta envido, worth its value alone).
TABLE_004 = [
    ([E], 1, 2),
    ([R], 1, 3),
    ([F], 1, None),
    ([R, E], 3, 5),  # a real envido answered by an envido: the ladder refuses it
    ([R, R], 3, 6),
    ([E, E, E], 4, 6),
    ([R, E, E], 5, 7),
    ([R, R, R], 6, 9),
    ([E, R, E], 5, 7),
    ([R, E, F], 5, None),
    ([E, E, F], 4, None),
]


@pytest.mark.parametrize(("calls", "refused", "accepted"), TABLE_004)
def test_seed_004_free_chain_refused(hand, calls, refused, accepted):
    events, last_side = chain_events(calls, "no_quiero")
    result = hand([*events, *tricks("A", "A")], rules="trucardo")
    envido = result["items"][0]
    assert (envido["side"], envido["points"], envido["accepted"]) == (last_side, refused, False)
    assert envido["calls"] == calls


@pytest.mark.parametrize(("calls", "refused", "accepted"), TABLE_004)
def test_seed_004_free_chain_accepted(hand, calls, refused, accepted):
    events, _ = chain_events(calls, "quiero")
    # Score 10-20, winner A: trucardo's falta envido (rival_to_half) is what the loser B,
    # in buenas, needs to reach 30: 10.
    result = hand([*events, {"envido_winner": "A"}, *tricks("B", "B")], rules="trucardo",
                  score=(10, 20))  # fmt: skip
    envido = result["items"][0]
    assert (envido["side"], envido["accepted"]) == ("A", True)
    assert envido["points"] == (accepted if accepted is not None else 10)


@pytest.mark.parametrize(
    ("calls", "rules", "code", "event", "book"),
    [
        ([E, E, E, E], "trucardo", "envido_limit", 3, "004: a call and two replies"),
        ([R, E, R, E], "trucardo", "envido_limit", 3, "004: a call and two replies"),
        ([F, E], "trucardo", "envido_chain", 1, "004: nunca se puede replicar a un falta envido"),
        ([E, F, R], "trucardo", "envido_chain", 2, "004: nothing after a falta envido"),
        ([R, F, F], "trucardo", "envido_chain", 2, "004: nor another falta envido"),
        ([R, E], {"preset": "trucardo", "envido_chain": "ladder"}, "envido_chain", 1,
         "001's ladder chosen for trucardo"),
        ([E, E, E], {"preset": "trucardo", "envido_chain": "ladder"}, "envido_chain", 2,
         "001's ladder: envido at most twice"),
        ([R, E], "argentine", "envido_chain", 1, "001: envido, then real envido, then falta"),
        ([R, E], "argentine_flor", "envido_chain", 1, "001's ladder for argentine_flor"),
    ],
)  # fmt: skip
def test_the_chain_each_option_refuses(illegal, calls, rules, code, event, book):
    events, _ = chain_events(calls, "quiero")
    err = illegal(events, rules=rules)
    assert (err.code, err.event) == (code, event), book


def test_a_free_chain_may_be_chosen_for_argentine_up_to_its_four_calls(hand, illegal):
    rules = {"preset": "argentine", "envido_chain": "free"}
    events, _ = chain_events([R, E, E, R], "quiero")
    result = hand([*events, {"envido_winner": "B"}, *tricks("A", "A")], rules=rules)
    assert result["items"][0]["points"] == 10  # 3 + 2 + 2 + 3
    err = illegal(chain_events([E, E, E, E, E], "quiero")[0], rules=rules)
    assert (err.code, err.event) == ("envido_limit", 4)


def test_each_raise_of_a_free_chain_comes_from_the_answering_side(illegal):
    err = illegal([call("ana", R), call("ana", E)], rules="trucardo")
    assert (err.code, err.event) == ("answer_pending", 1)


def _calls_offered(rules, calls):
    """The envido calls legal_actions offers after ``calls`` (beto first, sides alternating)."""
    state = hand_from_record(make_record([], rules=rules))
    for event in chain_events(calls, "quiero")[0][:-1]:
        state = apply(state, Call(event["by"], event["call"]))
    return {(a.by, a.call) for a in legal_actions(state) if isinstance(a, Call) and a.call in CHAIN}


@pytest.mark.parametrize(
    ("rules", "calls", "offered"),
    [
        ("trucardo", [R], {("ana", E), ("ana", R), ("ana", F)}),
        ("trucardo", [E, E], {("beto", E), ("beto", R), ("beto", F)}),
        ("trucardo", [E, E, E], set()),  # two replies at most
        ("trucardo", [R, F], set()),  # nothing over a falta envido
        ("argentine", [R], {("ana", F)}),  # 001's ladder: only the falta envido is left
        ("argentine", [E, E], {("beto", R), ("beto", F)}),
    ],
)
def test_legal_actions_offer_exactly_the_chain_of_the_rules(rules, calls, offered):
    # The tablet shows exactly legal_actions: the raises offered are those the rules allow.
    assert _calls_offered(rules, calls) == offered


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"preset": "trucardo", "envido_chain": "any"}, "bad_option_value"),
        ({"preset": "argentine", "envido_chain": True}, "bad_option_value"),
        ({"preset": "catalan", "envido_chain": "free"}, "option_not_applicable"),
    ],
)
def test_the_envido_chain_option_is_checked(spec, code):
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_spec(spec)
    assert info.value.code == code and "envido_chain" in info.value.message


def test_each_preset_has_its_chain():
    chains = {p: RuleSet.from_spec(p).options.get("envido_chain") for p in
              ("argentine", "argentine_flor", "trucardo", "catalan")}  # fmt: skip
    assert chains == {
        "argentine": "ladder",
        "argentine_flor": "ladder",
        "trucardo": "free",
        "catalan": None,
    }
