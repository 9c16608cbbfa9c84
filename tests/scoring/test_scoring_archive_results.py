"""The open archive carries matches recorded as their result (``"recorded": "result"``,
docs/archive.md): ``archive-check`` checks each one's chicos as a reported result under
the rules and compares its winner, chicos, tantos, games and a table's places; archives
without them read as before."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import scoring
from scoring.cli import main
from tests.scoring.archives import duel_archive, result_archive, result_match

ROOT = Path(__file__).resolve().parents[2]
TRUCO = {"preset": "argentine", "target": 30}
GALLO = {"preset": "argentine", "target": 15, "gallo": "por_turno"}
FIJO = {"preset": "argentine", "target": 15, "gallo": "fijo"}
REPORTED = {"reported_at": "2026-06-01T18:30:00+00:00"}


def ab(a: int, b: int) -> dict[str, int]:
    return {"A": a, "B": b}


def abc(a: int, b: int, c: int) -> dict[str, int]:
    return {"A": a, "B": b, "C": c}


def run(archive: Any) -> tuple[int, dict]:
    out = io.StringIO()
    code = main(["archive-check", "-"], stdin=io.BytesIO(json.dumps(archive).encode()), out=out)
    return code, json.loads(out.getvalue())


def with_places(match: dict[str, Any], rules: Any) -> dict[str, Any]:
    """A table's stored places, as the engine ranks its chicos."""
    fijo = rules.get("gallo") == "fijo"
    sides = ("A", "B") if fijo else ("A", "B", "C")
    games = [
        {"score": {s: g["score"][s] for s in sides}, "winner": "B" if g["winner"] == "C" and fijo
         else g["winner"]}
        for g in match["games"]
    ]  # fmt: skip
    ranked = scoring.score_reported_result(
        {"rules": {**rules, "best_of": match["best_of"]}, "sides": len(sides), "games": games}
    )
    place = {p.side: p.place for p in ranked.places}
    match["places"] = {"A": place["A"], "B": place["B"], "C": place.get("C", place["B"])}
    return match


# -- honest archives agree -------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "match"),
    [
        (TRUCO, result_match([ab(30, 25), ab(18, 30), ab(30, 12)])),
        ({**TRUCO, "best_of": 1}, result_match([ab(2, 30)], best_of=1)),
        ("catalan", result_match([ab(12, 11), ab(12, 4)])),
        (GALLO, with_places(result_match([abc(15, 4, 9), abc(3, 15, 0), abc(15, 14, 1)]), GALLO)),
        # Fijo: the gallo A against the pair B, whose figures C repeats.
        (FIJO, with_places(result_match([abc(15, 4, 4), abc(15, 14, 14)]), FIJO)),
    ],
)
def test_a_match_recorded_as_its_result_agrees(rules, match):
    assert run(result_archive(rules, match)) == (
        0,
        {"agree": True, "matches": 1, "hands": 0, "disagreements": []},
    )


def test_hands_and_results_in_one_archive():
    archive = duel_archive()
    played = archive["matches"][0]
    reported = result_match([ab(15, 3)], best_of=1, id=2)
    archive["matches"].append(reported)
    code, report = run(archive)
    assert (code, report["matches"], report["hands"]) == (0, 2, len(played["hands"]))
    # "recorded": "hands" is what an absent field means.
    archive["matches"][0]["recorded"] = "hands"
    assert run(archive)[1]["agree"] is True


def test_a_result_not_reported_yet_or_a_walkover_has_nothing_to_check():
    waiting = result_match([])
    walkover = result_match([ab(30, 0), ab(30, 0)], outcome="walkover", winner="B")
    assert run(result_archive(TRUCO, waiting, walkover))[1]["agree"] is True


# -- impossible results and stored figures the engine does not give -------------------
@pytest.mark.parametrize(
    ("rules", "scores", "code", "game"),
    [
        (TRUCO, [ab(31, 12), ab(30, 2)], "chico_past_target", 0),
        (TRUCO, [ab(30, 2), ab(30, 30)], "chico_tied", 1),
        (TRUCO, [ab(30, 2), ab(30, 2), ab(2, 30)], "chico_after_match", 2),
        (TRUCO, [ab(30, 2)], "match_not_decided", None),
        (TRUCO, [ab(30, 2), ab(29, 25)], "chico_unfinished", 1),
        ("catalan", [ab(13, 2), ab(12, 0)], "chico_past_target", 0),
        ("catalan", [ab(11, 11), ab(12, 0), ab(12, 0)], "chico_unfinished", 0),
        (GALLO, [abc(15, 15, 15)], "chico_tied", 0),
    ],
)
def test_an_impossible_result_is_a_disagreement(rules, scores, code, game):
    match = result_match(scores)
    code_, report = run(result_archive(rules, match))
    assert code_ == 1
    (found,) = report["disagreements"]
    assert (found["match"], found["hand"], found["field"]) == (1, None, "result")
    assert found["stored"] == [{"winner": g["winner"], "score": g["score"]} for g in match["games"]]
    assert (found["engine"]["error"]["code"], found["engine"]["error"]["game"]) == (code, game)


@pytest.mark.parametrize(
    ("spoil", "fields"),
    [
        (lambda m: m.update(winner="B"), ["winner"]),
        (lambda m: m.update(chicos=ab(2, 0)), ["chicos"]),
        (lambda m: m.update(tantos=ab(78, 66)), ["tantos"]),
        (lambda m: m["games"][0].update(winner=None), ["games"]),
    ],
)
def test_stored_figures_the_chicos_do_not_give_are_disagreements(spoil, fields):
    match = result_match([ab(30, 25), ab(18, 30), ab(30, 12)])
    spoil(match)
    code, report = run(result_archive(TRUCO, match))
    assert code == 1
    assert [d["field"] for d in report["disagreements"]] == fields


def test_a_chico_winner_the_score_contradicts_is_a_refused_result():
    match = result_match([ab(30, 25), ab(18, 30), ab(30, 12)])
    match["games"][1]["winner"] = "A"
    (found,) = run(result_archive(TRUCO, match))[1]["disagreements"]
    assert found["field"] == "result"
    assert found["engine"]["error"]["message"] == (
        "A did not win chico 2: a chico is won by reaching 30, and A has 18."
    )


def test_a_por_turno_pair_at_the_target_together_is_told_by_its_stored_winner():
    # 003: the pair's points go to both its players; the one ahead before the hand won.
    match = result_match([abc(15, 15, 2)], best_of=1)
    match["games"][0]["winner"] = "B"
    match.update(winner="B", chicos=abc(0, 1, 0))
    with_places(match, GALLO)
    assert run(result_archive(GALLO, match))[1]["agree"] is True
    match["places"] = abc(1, 2, 3)
    assert [d["field"] for d in run(result_archive(GALLO, match))[1]["disagreements"]] == ["places"]
    match["games"][0]["winner"] = None
    (found,) = run(result_archive(GALLO, match))[1]["disagreements"]
    assert (found["field"], found["engine"]["error"]["code"]) == ("result", "chico_winner_needed")


def test_a_fijo_pair_is_one_side_and_its_places_are_checked():
    match = with_places(result_match([abc(15, 4, 4), abc(15, 14, 14)]), FIJO)
    match["games"][1]["score"]["C"] = 13  # C repeats the pair's figures
    match["places"] = abc(2, 1, 1)
    code, report = run(result_archive(FIJO, match))
    assert code == 1
    assert [d["field"] for d in report["disagreements"]] == ["games", "places"]
    games = next(d for d in report["disagreements"] if d["field"] == "games")
    assert games["engine"][1]["score"] == abc(15, 14, 14)


# -- the file itself ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spoil", "path"),
    [
        (lambda m: m.update(recorded="cards"), "$.matches[0].recorded"),
        (lambda m: m.update(hands=[{"number": 1}]), "$.matches[0].hands"),
        (lambda m: m.update(hands=None), "$.matches[0].hands"),
        (lambda m: m.pop("chicos"), "$.matches[0].chicos"),
        (lambda m: m["games"][0].update(score=ab(30, -2)), "$.matches[0].games[0].score.B"),
        (lambda m: m.update(winner="C"), "$.matches[0].winner"),
    ],
)
def test_an_invalid_result_match_exits_2_with_its_path(spoil, path):
    match = result_match([ab(30, 25), ab(30, 12)])
    spoil(match)
    code, report = run(result_archive(TRUCO, match))
    assert (code, report["error"]["code"], report["error"]["path"]) == (2, "archive_invalid", path)


# -- the schema describes them (docs/archive.schema.json) -----------------------------
def _validator(definition: str) -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "archive.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}
    )


@pytest.mark.parametrize(
    ("definition", "match", "valid"),
    [
        ("match", result_match([ab(30, 25), ab(30, 12)]), True),
        ("match", result_match([]), True),  # not reported yet
        ("match", {**result_match([ab(30, 25), ab(30, 12)]), "recorded": "hands"}, True),
        ("table", with_places(result_match([abc(15, 4, 9), abc(15, 3, 0)]), GALLO), True),
        ("match", {**result_match([ab(30, 25), ab(30, 12)]), **REPORTED, "reported_side": "B"},
         True),
        ("table", {**with_places(result_match([abc(15, 4, 9), abc(15, 3, 0)]), GALLO), **REPORTED,
                   "reported_side": "C"}, True),
        ("match", {**result_match([ab(30, 25), ab(30, 12)]), **REPORTED, "reported_side": "C"},
         False),
        ("match", {**result_match([ab(30, 25), ab(30, 12)]), "recorded": "cards"}, False),
        ("match", {**result_match([ab(30, 25), ab(30, 12)]), "hands": [{}]}, False),
        (
            "match",
            {**result_match([ab(30, 25)]), "games": [{"number": 1, "winner": None,
                                                      "score": ab(30, 25)}]},
            False,
        ),
    ],
)  # fmt: skip
def test_the_schema_takes_a_match_recorded_as_its_result(definition, match, valid):
    errors = list(_validator(definition).iter_errors(match))
    assert (not errors) is valid, [e.message for e in errors]


@pytest.mark.parametrize(
    ("action", "before", "after"),
    [
        ("result", None, {"games": [ab(30, 25), ab(30, 12)], "winner": "A"}),
        ("result_corrected", {"games": [ab(30, 25), ab(30, 12)], "winner": "A"},
         {"games": [ab(30, 25), ab(12, 30), ab(30, 2)], "winner": "A"}),
        ("converted", {"recorded": "hands", "hands": 7, "games": [ab(30, 12)], "winner": None},
         {"recorded": "result"}),
    ],
)  # fmt: skip
def test_the_history_of_a_result_is_kept_in_revisions(action, before, after):
    revision = {"number": None, "action": action, "before": before, "after": after}
    revision.update(side="", reason="", by="organiser", at=REPORTED["reported_at"])
    assert list(_validator("revision").iter_errors(revision)) == []


def test_a_match_without_recorded_is_valid_as_before():
    match = result_match([])
    del match["recorded"]
    assert list(_validator("match").iter_errors(match)) == []
