"""A match recorded as its result (``scoring.score_reported_result``, ``python -m scoring
result``): each chico's final score checked against the rules (docs/rules.md "Scoring a
game", "Three players, gallo", "Catalan joc and the rule of 11") and scored as a match
entered hand by hand would be."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring import MatchError, MatchState, table_placement
from scoring.cli import main
from tests.scoring.test_match_state import SHAPES, random_match


def report(rules: Any, *scores: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"rules": rules, "games": [{"score": s} for s in scores], **extra}


def ab(a: int, b: int) -> dict[str, int]:
    return {"A": a, "B": b}


def abc(a: int, b: int, c: int) -> dict[str, int]:
    return {"A": a, "B": b, "C": c}


BEST_OF_1 = {"preset": "argentine", "best_of": 1}
GALLO = {"preset": "argentine", "target": 15}


# -- possible results ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("given", "winner", "chicos", "tantos", "why"),
    [
        (report("argentine", ab(30, 25), ab(18, 30), ab(30, 12)), "A", ab(2, 1), ab(78, 67),
         "003: best of three, a third chico at one all"),
        (report("argentine", ab(12, 30), ab(29, 30)), "B", ab(0, 2), ab(41, 60),
         "003: decided 2-0 in two chicos; 29 is as near as a loser gets"),
        (report(BEST_OF_1, ab(30, 0)), "A", ab(1, 0), ab(30, 0), "best_of 1: one chico"),
        (report({"preset": "trucardo", "target": 15}, ab(15, 14), ab(15, 3)), "A", ab(2, 0),
         ab(30, 17), "target 15"),
        (report("catalan", ab(12, 11), ab(4, 12), ab(12, 6)), "A", ab(2, 1), ab(28, 29),
         "002: jocs of 12; 12-11, the mestre at 11 played his hand and lost it"),
        (report({"preset": "catalan", "mestre_penalty": "from_mestre"}, ab(12, 0), ab(12, 11)),
         "A", ab(2, 0), ab(24, 11), "002 read literally: a joc still ends at 12"),
        (report(GALLO, abc(15, 9, 3), abc(2, 15, 11), abc(7, 11, 15), abc(15, 14, 14), sides=3),
         "A", abc(2, 1, 1), abc(39, 49, 43),
         "003, gallo por turno: A, B, C, then a second chico for A: four chicos"),
        ({"rules": GALLO, "sides": 3, "games": [{"score": abc(4, 15, 15), "winner": "B"},
                                                 {"score": abc(9, 15, 0)}]},
         "B", abc(0, 2, 0), abc(13, 30, 15),
         "003: the pair's two players at the target in one hand, the report says who won"),
        (report({"preset": "argentine", "gallo": "fijo", "best_of": 1}, ab(30, 14)), "A",
         ab(1, 0), ab(30, 14), "gallo fijo: the gallo against the pair, two sides"),
    ],
)  # fmt: skip
def test_a_possible_result_is_scored(given, winner, chicos, tantos, why):
    result = scoring.score_reported_result(given)
    assert (result.winner, result.chicos, result.tantos) == (winner, chicos, tantos), why
    assert [g.score for g in result.games] == [g["score"] for g in given["games"]], why
    assert result.places[0].side == winner and result.places[0].place == 1, why


def test_the_winner_stated_when_it_agrees_and_each_chicos_winner():
    given = report("argentine", ab(30, 25), ab(18, 30), ab(30, 12), winner="A")
    given["games"][1]["winner"] = "B"
    result = scoring.score_reported_result(given)
    assert [g.winner for g in result.games] == ["A", "B", "A"]
    assert result.to_dict()["places"] == {"A": 1, "B": 2}


def test_the_state_is_a_decided_match_with_no_hand():
    result = scoring.score_reported_result(report("argentine", ab(30, 25), ab(30, 29)))
    state = MatchState.from_dict(json.loads(json.dumps(result.state.to_dict())))
    assert state == result.state
    assert (state.hands, state.winner, state.wins, state.score) == (0, "A", ab(2, 0), ab(0, 0))
    assert state.games == result.games
    # A hand after it is refused, as after any decided match.
    head = {"rules": "argentine", "teams": {"A": ["ana"], "B": ["beto"]}, "seats": ["ana", "beto"]}
    with pytest.raises(MatchError) as info:
        scoring.score_next_hand(head, state, {"events": [{"trick": "A"}, {"trick": "A"}]})
    assert info.value.code == "match_over"
    assert state.next_hand(head) is None


def test_places_at_a_table_of_three_follow_the_chain():
    given = report(GALLO, abc(15, 0, 14), abc(15, 10, 2), sides=3)
    by_default = scoring.score_reported_result(given)
    assert [(p.side, p.place) for p in by_default.places] == [("A", 1), ("B", 2), ("C", 3)]
    # B has more in the last chico, C more tantos over the match.
    by_tantos = scoring.score_reported_result({**given, "tiebreaks": ["tantos"]})
    assert [(p.side, p.place) for p in by_tantos.places] == [("A", 1), ("C", 2), ("B", 3)]
    by_none = scoring.score_reported_result({**given, "tiebreaks": []})
    assert [(p.side, p.place) for p in by_none.places] == [("A", 1), ("B", 2), ("C", 2)]


# -- impossible results ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("given", "code", "index", "why"),
    [
        (report("argentine", ab(30, 30), ab(30, 2)), "chico_tied", 0,
         "a chico has one winner: both at the target is impossible"),
        (report("argentine", ab(31, 12), ab(30, 2)), "chico_past_target", 0,
         "a chico ends the moment a side reaches 30: points beyond it are dropped"),
        (report("argentine", ab(30, 2), ab(12, 33)), "chico_past_target", 1,
         "an envido that overshoots is capped too"),
        (report("argentine", ab(28, 25), ab(30, 2)), "chico_unfinished", 0,
         "nobody reached the target: the chico is not over"),
        (report("argentine", ab(30, 2), ab(30, 2), ab(2, 30)), "chico_after_match", 2,
         "best of three decided 2-0: no third chico"),
        (report(BEST_OF_1, ab(30, 2), ab(2, 30)), "chico_after_match", 1,
         "best of one: one chico"),
        (report("argentine", ab(30, 2)), "match_not_decided", None,
         "best of three: one chico is too few"),
        (report("argentine"), "match_not_decided", None, "no chico at all"),
        (report("argentine", ab(30, 2), ab(2, 30)), "match_not_decided", None,
         "one all: the third chico is missing"),
        (report("catalan", ab(12, 12), ab(12, 0)), "chico_tied", 0, "002: one side wins a joc"),
        (report("catalan", ab(11, 11), ab(12, 0), ab(12, 0)), "chico_unfinished", 0,
         "002: 11-11 is no final score, both go back to 6"),
        (report("catalan", ab(13, 4), ab(12, 0)), "chico_past_target", 0,
         "002: a joc ends at 12"),
        (report(GALLO, abc(15, 15, 15), sides=3), "chico_tied", 0,
         "003: the gallo and the pair never reach the target in the same hand"),
        (report(GALLO, abc(15, 15, 4), abc(15, 0, 0), sides=3), "chico_winner_needed", 0,
         "gallo por turno: two players at the target, the report must say who won the chico"),
        (report(GALLO, abc(15, 9, 4), abc(15, 0, 0), sides=3, winner="C"),
         "winner_contradicts_result", None, "the stated winner contradicts the chicos"),
        (report("argentine", ab(30, 25), ab(18, 30), ab(30, 12), winner="B"),
         "winner_contradicts_result", None, "Los Anchos won 2-1, not their rivals"),
    ],
)  # fmt: skip
def test_an_impossible_result_is_refused(given, code, index, why):
    with pytest.raises(MatchError) as info:
        scoring.score_reported_result(given)
    assert (info.value.code, info.value.params.get("index")) == (code, index), why


def test_a_chico_winner_who_did_not_reach_the_target_is_refused():
    given = report("argentine", ab(30, 25), ab(30, 12))
    given["games"][1]["winner"] = "B"
    with pytest.raises(MatchError) as info:
        scoring.score_reported_result(given)
    assert info.value.code == "chico_winner_contradicts"
    assert info.value.message == (
        "B did not win chico 2: a chico is won by reaching 30, and B has 12."
    )


def test_catalan_messages_speak_of_jocs():
    with pytest.raises(MatchError) as info:
        scoring.score_reported_result(report("catalan", ab(12, 3), ab(12, 4), ab(12, 4)))
    assert info.value.message == "A had already won the match in joc 2: joc 3 cannot follow."


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ([1, 2], "result_invalid"),
        (report("argentine", ab(30, 2), ab(30, 2)) | {"games": "30-2"}, "result_invalid"),
        (report("argentine", {"A": 30}), "result_invalid"),
        (report("argentine", {"A": 30, "B": 2, "C": 0}), "result_invalid"),
        (report("argentine", ab(30, -1)), "result_invalid"),
        (report("argentine", ab(30, 2.5)), "result_invalid"),
        (report("argentine", ab(30, True)), "result_invalid"),
        (report("argentine", ab(30, 2), ab(30, 2), winner="Z"), "result_invalid"),
        (report("argentine", ab(30, 2), ab(30, 2), sides=4), "result_invalid"),
        (report("argentine", ab(30, 2), ab(30, 2), sides="2"), "result_invalid"),
        (report("catalan", abc(12, 0, 0), sides=3), "result_invalid"),
        (report({"preset": "argentine", "gallo": "fijo"}, abc(30, 0, 0), sides=3),
         "result_invalid"),
        (report("argentine", ab(30, 2), ab(30, 2), tiebreaks=["chicos", "luck"]),
         "placement_invalid"),
        (report("argentine", ab(30, 2), ab(30, 2), tiebreaks="chicos"), "result_invalid"),
        (report("truquito", ab(30, 2)), "unknown_preset"),
        (report({"preset": "argentine", "best_of": 5}, ab(30, 2)), "bad_option_value"),
        ({"games": [{"score": ab(30, 2)}]}, "bad_field"),
        (report("argentine", ab(30, 2)) | {"games": [{"score": ab(30, 2), "winner": "\ud800"}]},
         "bad_text"),
    ],
)  # fmt: skip
def test_a_malformed_report_is_refused_with_a_clear_error(given, code):
    with pytest.raises(scoring.EngineError) as info:
        scoring.score_reported_result(given)
    assert info.value.code == code
    assert info.value.message.endswith(".")


# -- the same as a match entered hand by hand ------------------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), shape=st.sampled_from(SHAPES))
def test_a_played_match_reported_as_its_chicos_gives_what_its_hands_give(seed, shape):
    head, entries = random_match(seed, shape)
    played = scoring.score_match_result({**head, "hands": entries})
    if played.winner is None:
        return  # stopped before the end: nothing to report
    sides = list(head["teams"])
    given = {
        "rules": head["rules"],
        "sides": len(sides),
        "games": [{"score": dict(g.score), "winner": g.winner} for g in played.games],
        "winner": played.winner,
    }
    result = scoring.score_reported_result(json.loads(json.dumps(given)))
    assert result.games == played.games and result.winner == played.winner
    assert result.state.games == played.state.games and result.state.wins == played.state.wins
    assert [(p.side, p.place) for p in result.places] == [
        (p.side, p.place) for p in table_placement(played)
    ]
    # Each chico's winner needs saying only where two players reached the target together.
    target = scoring.RuleSet.from_spec(head["rules"]).target
    for game in given["games"]:
        if list(game["score"].values()).count(target) < 2:
            del game["winner"]
    assert scoring.score_reported_result(given).games == played.games


def test_a_chico_ended_on_an_envido_that_overshoots_is_reported_at_the_target():
    # 001: the envido's points end the chico at once; the score beyond 30 is dropped.
    head = {"rules": {"preset": "argentine", "best_of": 1}, "teams": {"A": ["ana"], "B": ["beto"]},
            "seats": ["ana", "beto"]}  # fmt: skip
    penalty = {"penalty": {"to": "A", "points": 28, "reason": "pido flor"}}
    hands = [
        {"events": [penalty, {"trick": "A"}, {"trick": "A"}]},  # A 29
        {
            "events": [
                {"by": "beto", "call": "real_envido"},
                {"by": "ana", "answer": "quiero"},
                {"envido_winner": "A"},
            ]
        },
    ]
    played = scoring.score_match_result({**head, "hands": hands})
    assert played.hands[-1].points["A"] == 3 and played.games[0].score == ab(30, 0)
    assert scoring.score_reported_result(report(head["rules"], ab(30, 0))).winner == "A"
    with pytest.raises(MatchError):
        scoring.score_reported_result(report(head["rules"], ab(32, 0)))


# -- python -m scoring result ----------------------------------------------------------
def run(argv, data: bytes = b""):
    import io

    out = io.StringIO()
    code = main(argv, stdin=io.BytesIO(data), out=out)
    return code, json.loads(out.getvalue())


def test_the_result_command(tmp_path):
    given = report("argentine", ab(30, 25), ab(18, 30), ab(30, 12), winner="A")
    code, out = run(["result", "-"], json.dumps(given).encode())
    assert code == 0
    assert out == {
        "winner": "A",
        "chicos": ab(2, 1),
        "tantos": ab(78, 67),
        "games": [
            {"winner": "A", "score": ab(30, 25)},
            {"winner": "B", "score": ab(18, 30)},
            {"winner": "A", "score": ab(30, 12)},
        ],
        "places": ab(1, 2),
        "state": scoring.score_reported_result(given).state.to_dict(),
    }
    path = tmp_path / "result.json"
    path.write_text(json.dumps(given), encoding="utf-8")
    assert run(["result", str(path)]) == (0, out)


@pytest.mark.parametrize(
    ("data", "code", "game"),
    [
        (json.dumps(report("argentine", ab(30, 2), ab(30, 30))).encode(), "chico_tied", 1),
        (json.dumps(report("argentine", ab(30, 2))).encode(), "match_not_decided", None),
        (b"{", "bad_json", None),
        (b"\xff", "bad_encoding", None),
        (b"[]", "result_invalid", None),
    ],
)
def test_the_result_command_names_the_chico_at_fault(data, code, game):
    status, out = run(["result", "-"], data)
    assert status == 2 and set(out) == {"error"}
    assert (out["error"]["code"], out["error"]["game"], out["error"]["event"]) == (code, game, None)


def test_python_m_scoring_result_end_to_end():
    import subprocess
    import sys
    from pathlib import Path

    given = report("catalan", ab(12, 11), ab(12, 4))
    proc = subprocess.run(
        [sys.executable, "-m", "scoring", "result", "-"],
        cwd=Path(__file__).resolve().parents[2],
        input=json.dumps(given).encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert json.loads(proc.stdout)["chicos"] == ab(2, 0)


def test_a_pair_reaching_the_target_together_is_reported_with_the_chicos_winner():
    # 003, gallo por turno: the pair's points go to both its players; the one ahead before
    # the hand wins the chico, which the final score alone does not show.
    head = {
        "rules": {"preset": "argentine", "target": 15, "best_of": 1},
        "teams": {"A": ["a1"], "B": ["b1"], "C": ["c1"]},
        "seats": ["a1", "b1", "c1"],
    }
    penalty = {"penalty": {"to": "A", "points": 14, "reason": "pido flor"}}
    played = scoring.score_match_result(
        {**head, "hands": [{"events": [penalty, {"trick": "A"}, {"trick": "A"}]}]}
    )  # fmt: skip
    (game,) = played.games
    assert (game.winner, game.score) == ("A", abc(15, 15, 0))
    given = report(head["rules"], abc(15, 15, 0), sides=3)
    with pytest.raises(MatchError) as info:
        scoring.score_reported_result(given)
    assert info.value.message == ("Both A and B reached 15 in chico 1: say which of them won it.")
    given["games"][0]["winner"] = "A"
    assert scoring.score_reported_result(given).games == played.games


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.sampled_from(["A", "B", "C", "argentine"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["rules", "sides", "games", "score", "winner", "A", "B", "C", "preset"]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON)
def test_any_report_gets_a_result_or_an_error_object(value):
    status, out = run(["result", "-"], json.dumps(value).encode())
    if status == 0:
        assert set(out) == {"winner", "chicos", "tantos", "games", "places", "state"}
    else:
        assert status == 2 and set(out) == {"error"}
        assert out["error"]["code"] != "internal_error", out


@settings(max_examples=300, deadline=None)
@given(
    best_of=st.sampled_from([1, 3]),
    scores=st.lists(st.tuples(st.integers(25, 31), st.integers(25, 31)), max_size=4),
)
def test_random_scores_are_accepted_exactly_when_the_rules_allow_them(best_of, scores):
    given = report({"preset": "argentine", "best_of": best_of}, *(ab(a, b) for a, b in scores))
    need = best_of // 2 + 1
    winners = []
    possible = True
    for a, b in scores:
        if sorted((a, b))[1] != 30 or a == b:  # exactly one side at 30, none past it
            possible = False
            break
        winners.append("A" if a == 30 else "B")
    counts = [winners[: i + 1].count(w) for i, w in enumerate(winners)]
    possible = possible and bool(counts) and counts[-1] == need and max(counts[:-1] or [0]) < need
    try:
        result = scoring.score_reported_result(given)
    except MatchError as refused:
        assert not possible, refused.message
    else:
        assert possible
        assert result.winner == winners[-1] and result.chicos[result.winner] == need
