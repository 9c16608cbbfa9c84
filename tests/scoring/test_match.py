"""The match layer: mano rotation, chicos and partidas, jocs, pica-pica and gallo.

Each case names the docs/rules.md section (or seed) it pins.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.errors import EngineError
from scoring.match import score_match

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"


def tricks(side: str) -> dict:
    """A quiet hand won by ``side`` in two tricks: 1 point."""
    return {"events": [{"trick": side}, {"trick": side}]}


def pardas() -> dict:
    """Three pardas: argentine, the mano's side wins (docs/rules.md "Tricks")."""
    return {"events": [{"trick": "parda"}] * 3}


def falta(caller: str, answerer: str, winner: str) -> dict:
    """A falta envido accepted at 0–0 under leader_to_target: worth the whole chico."""
    return {
        "events": [
            {"by": caller, "call": "falta_envido"},
            {"by": answerer, "answer": "quiero"},
            {"envido_winner": winner},
        ]
    }


def duel(hands: list[dict], **rules) -> dict:
    return {
        "rules": {"preset": "argentine", **rules},
        "teams": {"A": ["ana"], "B": ["beto"]},
        "seats": ["ana", "beto"],
        "hands": hands,
    }


# -- mano rotation (docs/rules.md "Scoring a game"; seeds 000, 003) -----------------------------


def test_mano_moves_one_seat_each_hand_so_pardas_alternate():
    result = score_match(duel([pardas(), pardas(), pardas()]))
    assert [h["points"] for h in result["hands"]] == [
        {"A": 1, "B": 0},
        {"A": 0, "B": 1},
        {"A": 1, "B": 0},
    ]


def test_a_void_hand_keeps_the_mano():
    result = score_match(duel([{"events": [{"void": "card shown"}]}, pardas(), pardas()]))
    assert [h["status"] for h in result["hands"]] == ["void", "complete", "complete"]
    # The void hand did not move the mano: ana is still mano for the second hand.
    assert result["hands"][1]["points"] == {"A": 1, "B": 0}
    assert result["hands"][2]["points"] == {"A": 0, "B": 1}


def test_mano_rotation_continues_across_chicos():
    # Chico 1 ends on hand 1 (ana mano); hand 2 starts chico 2 with beto as mano.
    result = score_match(duel([falta("beto", "ana", "A"), pardas()]))
    assert result["games"] == [{"winner": "A", "score": {"A": 30, "B": 0}}]
    assert result["hands"][1]["points"] == {"A": 0, "B": 1}
    assert result["hands"][1]["score"] == {"A": 0, "B": 1}


# -- chicos and partidas (docs/rules.md "Scoring a game") --------------------------------------


def test_partida_best_of_three_goes_to_a_third_chico_at_one_all():
    hands = [falta("beto", "ana", "A"), falta("ana", "beto", "B")]
    result = score_match(duel(hands))
    assert [g["winner"] for g in result["games"]] == ["A", "B"]
    assert result["winner"] is None
    result = score_match(duel([*hands, falta("beto", "ana", "A")]))
    assert [g["winner"] for g in result["games"]] == ["A", "B", "A"]
    assert result["winner"] == "A"


def test_best_of_one_is_decided_by_a_single_chico():
    result = score_match(duel([falta("beto", "ana", "B")], best_of=1))
    assert result["winner"] == "B"


def test_a_hand_after_the_match_is_decided_is_an_error_naming_that_hand():
    with pytest.raises(EngineError) as caught:
        score_match(duel([falta("beto", "ana", "A"), tricks("B")], best_of=1))
    assert caught.value.code == "match_over"
    assert caught.value.hand == 1


def test_chico_to_fifteen_closes_at_the_target_and_caps_the_score():
    hands = [tricks("A")] * 14 + [
        {
            "events": [{"by": "ana", "call": "truco"}, {"by": "beto", "answer": "quiero"}]
            + tricks("A")["events"]
        }
    ]
    result = score_match(duel(hands, target=15, best_of=1))
    assert result["hands"][-1] == {
        "points": {"A": 2, "B": 0},
        "score": {"A": 15, "B": 0},
        "status": "game_over",
    }
    assert result["winner"] == "A"


def test_an_error_in_a_hand_names_the_hand_and_the_event():
    bad = {"events": [{"by": "ana", "call": "truco"}, {"by": "ana", "answer": "quiero"}]}
    with pytest.raises(EngineError) as caught:
        score_match(duel([tricks("A"), bad]))
    assert caught.value.hand == 1
    assert caught.value.event == 1


def test_seats_must_list_every_player_once():
    record = duel([tricks("A")])
    record["seats"] = ["ana", "ana"]
    with pytest.raises(EngineError) as caught:
        score_match(record)
    assert caught.value.code == "seats_invalid"


# -- catalan jocs (docs/rules.md "Catalan joc and the rule of 11"; seed 002) --------------------

CATALAN = {
    "rules": "catalan",
    "teams": {"A": ["anna", "arnau"], "B": ["biel", "berta"]},
    "captains": {"A": "anna", "B": "biel"},
    "seats": ["anna", "biel", "arnau", "berta"],
}


def test_catalan_joc_is_played_to_twelve_and_three_podrides_are_redealt():
    redeal = {"events": [{"trick": "parda"}] * 3}
    hands = [tricks("A")] * 10 + [redeal, tricks("A")]
    result = score_match({**CATALAN, "hands": hands})
    assert result["hands"][10]["status"] == "redeal"
    assert result["hands"][10]["points"] == {"A": 0, "B": 0}
    assert result["hands"][-1]["score"] == {"A": 11, "B": 0}
    assert result["games"] == []


def test_catalan_eleven_all_goes_back_to_six():
    # A reaches 11 and is mestre; its cap de colla passes every hand (to_opponent: 1 to
    # B) until B reaches 11 too, and both go back to 6 at once.
    passes = [{"events": [{"by": "anna", "mestre": "pass"}]}] * 11
    result = score_match({**CATALAN, "hands": [tricks("A")] * 11 + passes})
    assert result["hands"][-2]["score"] == {"A": 11, "B": 10}
    assert result["hands"][-1]["score"] == {"A": 6, "B": 6}
    assert result["games"] == []


def test_catalan_mestre_playing_makes_the_hand_worth_three():
    play = {"events": [{"by": "anna", "mestre": "play"}, *tricks("B")["events"]]}
    result = score_match({**CATALAN, "hands": [tricks("A")] * 11 + [play]})
    assert result["hands"][-1]["points"] == {"A": 0, "B": 3}


# -- six players and pica-pica (docs/rules.md "Six and eight players"; seed 003) -----------------

SIX = {
    "rules": "argentine",
    "teams": {"A": ["a1", "a2", "a3"], "B": ["b1", "b2", "b3"]},
    "seats": ["a1", "b1", "a2", "b2", "a3", "b3"],
}


def pica(*subhands: dict) -> dict:
    return {"pica_pica": list(subhands)}


def sub(first: str, second: str, events: list[dict]) -> dict:
    return {"order": [first, second], "events": events}


def test_pica_pica_follows_a_redondo_and_each_pair_scores_for_its_side():
    hand = pica(
        sub("b1", "a1", tricks("A")["events"]),
        sub("a2", "b2", tricks("A")["events"]),
        sub("b3", "a3", tricks("B")["events"]),
    )
    result = score_match({**SIX, "hands": [tricks("B"), hand, tricks("A")]})
    assert result["hands"][1]["points"] == {"A": 2, "B": 1}
    assert result["hands"][2]["score"] == {"A": 3, "B": 2}


def test_a_redondo_where_a_pica_pica_is_due_is_an_error():
    with pytest.raises(EngineError) as caught:
        score_match({**SIX, "hands": [tricks("A"), tricks("A")]})
    assert caught.value.code == "pica_pica_expected"
    assert caught.value.hand == 1


def test_the_first_hand_of_a_chico_is_a_redondo():
    hand = pica(
        sub("a1", "b1", tricks("A")["events"]),
        sub("a2", "b2", tricks("A")["events"]),
        sub("a3", "b3", tricks("A")["events"]),
    )
    with pytest.raises(EngineError) as caught:
        score_match({**SIX, "hands": [hand]})
    assert caught.value.code == "redondo_expected"


def test_falta_envido_in_pica_pica_is_worth_six():
    hand = pica(
        sub(
            "a1",
            "b1",
            [
                {"by": "a1", "call": "falta_envido"},
                {"by": "b1", "answer": "quiero"},
                {"envido_winner": "B"},
                *tricks("A")["events"],
            ],
        ),
        sub("a2", "b2", tricks("A")["events"]),
        sub("a3", "b3", tricks("A")["events"]),
    )
    result = score_match({**SIX, "hands": [tricks("A"), hand]})
    assert result["hands"][1]["points"] == {"A": 3, "B": 6}


def test_pica_pica_stops_once_a_side_reaches_pica_pica_until():
    # Falta envido at 0–0 in a redondo... is worth 30 and ends the chico; instead climb to
    # 15 with quiet hands alternating with pica-pica, with pica_pica_until 15.
    quiet_pica = pica(
        sub("a1", "b1", tricks("A")["events"]),
        sub("a2", "b2", tricks("A")["events"]),
        sub("a3", "b3", tricks("A")["events"]),
    )
    hands = []
    for _ in range(4):  # 4 × (1 + 3) = 16 ≥ 15
        hands += [tricks("A"), quiet_pica]
    record = {**SIX, "rules": {"preset": "argentine", "pica_pica_until": 15}}
    result = score_match({**record, "hands": hands})
    assert result["hands"][-1]["score"]["A"] == 16
    # From now on only redondo hands: a pica-pica hand is refused.
    with pytest.raises(EngineError) as caught:
        score_match({**record, "hands": [*hands, tricks("A"), quiet_pica]})
    assert caught.value.code == "redondo_expected"
    result = score_match({**record, "hands": [*hands, tricks("A"), tricks("A")]})
    assert result["hands"][-1]["score"]["A"] == 18


def test_without_pica_pica_six_players_always_play_redondo():
    record = {**SIX, "rules": {"preset": "argentine", "pica_pica": False}}
    result = score_match({**record, "hands": [tricks("A"), tricks("A")]})
    assert result["hands"][-1]["score"] == {"A": 2, "B": 0}


# -- three players, gallo (docs/rules.md "Three players, gallo"; seed 003) ----------------------

POR_TURNO = {
    "rules": "argentine",
    "teams": {"X": ["xavi"], "Y": ["yago"], "Z": ["zoe"]},
    "seats": ["xavi", "yago", "zoe"],
}


def test_gallo_por_turno_credits_the_pair_points_to_each_player():
    # Hand 1: mano xavi, dealer (gallo) zoe; the pair xavi+yago wins, named by yago's side.
    result = score_match({**POR_TURNO, "hands": [tricks("Y")]})
    assert result["hands"][0]["points"] == {"X": 1, "Y": 1, "Z": 0}
    # Hand 2: mano yago, gallo xavi; the gallo wins alone.
    result = score_match({**POR_TURNO, "hands": [tricks("Y"), tricks("X")]})
    assert result["hands"][1]["points"] == {"X": 1, "Y": 0, "Z": 0}
    assert result["hands"][1]["score"] == {"X": 2, "Y": 1, "Z": 0}


def test_gallo_por_turno_the_named_gallo_must_be_the_dealer():
    with pytest.raises(EngineError) as caught:
        score_match({**POR_TURNO, "hands": [{**tricks("X"), "gallo": "xavi"}]})
    assert caught.value.code == "gallo_mismatch"


def test_gallo_por_turno_two_players_at_the_target_at_once():
    # Hand i: mano seats[i % 3], gallo the dealer seats[(i + 2) % 3]. A cycle of three
    # hands (the pair xavi+yago wins, gallo xavi wins, gallo yago wins) gives +2 each.
    cycle = [tricks("Y"), tricks("X"), tricks("Y")]
    shape = [tricks("Y"), tricks("Z"), tricks("Y")]  # → xavi 11, yago 13, zoe 1
    vale_cuatro = {
        "events": [
            {"by": "xavi", "call": "truco"},
            {"by": "zoe", "call": "retruco"},
            {"by": "yago", "call": "vale_cuatro"},
            {"by": "zoe", "answer": "quiero"},
            *tricks("X")["events"],
        ]
    }
    record = {**POR_TURNO, "rules": {"preset": "argentine", "target": 15, "best_of": 1}}
    result = score_match({**record, "hands": cycle * 5 + shape + [vale_cuatro]})
    assert result["hands"][-2]["score"] == {"X": 11, "Y": 13, "Z": 1}
    assert result["hands"][-1]["score"] == {"X": 15, "Y": 15, "Z": 1}
    # Both reached 15 at once: the chico goes to the one ahead before the hand.
    assert result["games"][0]["winner"] == "Y"
    assert result["winner"] == "Y"


def test_gallo_fijo_pair_shares_one_score():
    record = {
        "rules": {"preset": "argentine", "gallo": "fijo"},
        "teams": {"G": ["gus"], "P": ["pia", "pau"]},
        "seats": ["gus", "pia", "pau"],
        "hands": [tricks("P"), tricks("G"), {**tricks("P"), "gallo": "gus"}],
    }
    result = score_match(record)
    assert result["hands"][-1]["score"] == {"G": 1, "P": 2}


def test_gallo_fijo_needs_the_pair_as_one_side():
    with pytest.raises(EngineError) as caught:
        score_match(
            {**POR_TURNO, "rules": {"preset": "argentine", "gallo": "fijo"}, "hands": [tricks("X")]}
        )
    assert caught.value.code == "gallo_teams"


# -- the command line (docs/hand-record.md "Scoring a match") -----------------------------------


def run_cli(record: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "match", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_match_prints_the_result():
    done = run_cli(duel([falta("beto", "ana", "A")], best_of=1))
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["winner"] == "A"


def test_cli_match_error_names_the_hand():
    done = run_cli(duel([tricks("A"), {"events": [{"trick": "C"}, {"trick": "A"}]}]))
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["hand"] == 1
    assert error["event"] == 0
    assert error["code"] and error["message"]


@pytest.mark.skipif(not (SHARED / "hand-examples").is_dir(), reason="no ../shared here")
def test_match_examples_in_shared_score_as_shown():
    examples = [
        json.loads(p.read_text()) for p in sorted((SHARED / "hand-examples").glob("*.json"))
    ]
    matches = [e for e in examples if e["command"] == "match"]
    assert matches
    for example in matches:
        assert_subset(example["expected"], score_match(example["input"]), example["note"])


def assert_subset(expected: object, got: object, where: str) -> None:
    if isinstance(expected, dict):
        assert isinstance(got, dict), where
        for key, value in expected.items():
            assert_subset(value, got.get(key), f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), where
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            assert_subset(e, g, f"{where}[{i}]")
    else:
        assert expected == got, where


# -- the next hand, for the referee's tablet -------------------------------------------------


def test_next_hand_gives_the_mano_score_and_a_record_to_fill():
    from scoring.match import next_hand
    from scoring.record import score_hand

    info = next_hand(duel([tricks("A"), {"events": [{"void": "misdeal"}]}]))
    # The void hand kept beto as mano for the third hand.
    assert (info["number"], info["game"], info["kind"], info["mano"]) == (3, 1, "redondo", "beto")
    assert info["score"] == {"A": 1, "B": 0}
    record = {**info["record"], "events": tricks("B")["events"]}
    assert score_hand(record)["score"] == {"A": 1, "B": 1}


def test_next_hand_counts_chicos_and_is_none_once_the_match_is_decided():
    from scoring.match import next_hand

    assert next_hand(duel([falta("beto", "ana", "A")]))["game"] == 2
    assert next_hand(duel([falta("beto", "ana", "A")], best_of=1)) is None


def test_next_hand_in_gallo_por_turno_names_the_dealer_and_the_pair():
    from scoring.match import next_hand

    info = next_hand({**POR_TURNO, "hands": [tricks("Y")]})
    assert info["record"]["gallo"] == "xavi"
    assert info["record"]["teams"] == {"X": ["xavi"], "Y": ["yago", "zoe"]}
    assert info["record"]["score"] == {"X": 1, "Y": 1}


def test_next_hand_in_pica_pica_builds_each_pairs_record():
    from scoring.match import next_hand, subhand_record
    from scoring.record import score_hand

    record = {**SIX, "hands": [tricks("A")]}
    info = next_hand(record)
    assert info["kind"] == "pica_pica"
    assert info["record"] is None
    pair = subhand_record(info, record, "b1", "a1")
    assert pair["teams"] == {"B": ["b1"], "A": ["a1"]}
    falta_six = [
        {"by": "b1", "call": "falta_envido"},
        {"by": "a1", "answer": "quiero"},
        {"envido_winner": "A"},
        *tricks("A")["events"],
    ]
    assert score_hand({**pair, "events": falta_six})["points"] == {"A": 7, "B": 0}
    with pytest.raises(EngineError):
        subhand_record(info, record, "a1", "a2")
