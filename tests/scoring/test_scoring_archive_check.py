"""``python -m scoring archive-check``: an archive's hands and matches scored again, each
disagreement reported; exit 0, 1 or 2 (docs/hand-record.md)."""

from __future__ import annotations

import io
import json

import pytest

from scoring import check_archive, rename_players
from scoring.cli import main
from tests.scoring.archives import duel_archive, table_archive


def run(archive: object) -> tuple[int, dict]:
    out = io.StringIO()
    data = archive if isinstance(archive, bytes) else json.dumps(archive).encode()
    code = main(["archive-check", "-"], stdin=io.BytesIO(data), out=out)
    return code, json.loads(out.getvalue())


def test_an_honest_archive_agrees():
    archive = duel_archive()
    code, report = run(archive)
    assert code == 0
    assert report == {
        "agree": True,
        "matches": 1,
        "hands": len(archive["matches"][0]["hands"]),
        "disagreements": [],
    }
    assert archive["matches"][0]["winner"] == "A"


def test_a_tampered_hand_is_named_with_both_results():
    archive = duel_archive()
    hand = archive["matches"][0]["hands"][1]
    hand["score"] = {"A": hand["score"]["A"] + 1, "B": hand["score"]["B"]}
    code, report = run(archive)
    assert code == 1
    (found,) = report["disagreements"]
    assert (found["match"], found["hand"], found["field"]) == (1, 2, "score")
    assert found["engine"]["A"] == found["stored"]["A"] - 1


def test_a_tampered_record_changes_the_hands_after_it_and_the_winner():
    archive = duel_archive()
    # Hand 3's truco is now refused: the mano's side takes one point, not two.
    record = archive["matches"][0]["hands"][2]["record"]
    record["events"] = [
        record["events"][0],
        {"by": record["events"][1]["by"], "answer": "no_quiero"},
    ]
    code, report = run(archive)
    assert code == 1
    fields = {(d["hand"], d["field"]) for d in report["disagreements"]}
    assert (3, "points") in fields and (4, "score_before") in fields
    # The match now ends a hand later or sooner: the engine refuses the hand after its end,
    # or the stored winner is not the engine's.
    assert any(field in ("record", "winner", "games") for _hand, field in fields)


def test_a_hand_the_engine_refuses_is_a_disagreement_not_a_crash():
    archive = duel_archive(hands=4)
    archive["matches"][0]["hands"][1]["record"]["events"].insert(0, {"by": "zoe", "mazo": True})
    code, report = run(archive)
    assert code == 1
    (found,) = report["disagreements"]
    assert (found["hand"], found["field"]) == (2, "record")
    assert found["engine"]["error"]["code"] == "unknown_player"


def test_walkovers_keep_the_organisers_result():
    archive = duel_archive(hands=0)
    match = archive["matches"][0]
    match.update(outcome="walkover", winner="B", chicos={"A": 0, "B": 1})
    match["games"] = [{"number": 1, "winner": "B", "score": {"A": 0, "B": 15}}]
    assert run(archive) == (0, {"agree": True, "matches": 1, "hands": 0, "disagreements": []})


@pytest.mark.parametrize(
    ("spoil", "path"),
    [
        (lambda a: a.update(format="zip"), "$.format"),
        (lambda a: a.update(version=True), "$.version"),
        (lambda a: a.update(matches={}), "$.matches"),
        (lambda a: a["matches"][0].update(lineup=None), "$.matches[0].lineup"),
        (
            lambda a: a["matches"][0]["hands"][0].update(points={"A": "2"}),
            "$.matches[0].hands[0].points.A",
        ),
        (lambda a: a["matches"][0]["hands"][0].update(record=7), "$.matches[0].hands[0].record"),
        (lambda a: a["matches"][0].update(winner="C"), "$.matches[0].winner"),
    ],
)
def test_an_invalid_archive_exits_2_with_its_path(spoil, path):
    archive = duel_archive(hands=2)
    spoil(archive)
    code, report = run(archive)
    assert code == 2
    assert report["error"]["code"] == "archive_invalid"
    assert report["error"]["path"] == path
    assert path in report["error"]["message"]
    assert report["error"]["event"] is None


@pytest.mark.parametrize("data", [b"", b"{", b"\xff", b"[" * 100_000, b"1e999999"])
def test_not_json_exits_2(data):
    code, report = run(data)
    assert code == 2 and report["error"]["code"] in ("bad_json", "bad_encoding", "archive_invalid")


def test_check_archive_and_rename_players_from_the_front_door():
    archive = duel_archive(hands=3)
    renamed = json.loads(json.dumps(archive))
    for hand in renamed["matches"][0]["hands"]:
        hand["record"] = rename_players(hand["record"], {"p1": "ana", "p2": "beto"})
        hand["order"] = ["ana" if p == "p1" else "beto" for p in hand["order"]]
    renamed["matches"][0]["lineup"] = {"A": ["ana"], "B": ["beto"]}
    renamed["matches"][0]["seats"] = ["ana", "beto"]
    assert check_archive(renamed)["agree"] is True


@pytest.mark.parametrize("gallo", ["por_turno", "fijo"])
def test_a_table_of_three_agrees_and_its_third_side_and_places_are_checked(gallo):
    archive = table_archive(gallo)
    match = archive["matches"][0]
    assert set(match["places"]) == set(match["chicos"]) == {"A", "B", "C"}
    code, report = run(archive)
    assert (code, report["agree"], report["hands"]) == (0, True, len(match["hands"]))

    tampered = json.loads(json.dumps(archive))
    hand = tampered["matches"][0]["hands"][3]
    hand["score"]["C"] += 1
    tampered["matches"][0]["places"] = {"A": 3, "B": 3, "C": 3}
    code, report = run(tampered)
    assert code == 1
    assert [(d["hand"], d["field"]) for d in report["disagreements"]] == [
        (4, "score"),
        (None, "places"),
    ]
    score, places = report["disagreements"]
    assert score["engine"] == match["hands"][3]["score"]
    assert places["engine"] == match["places"]
    if gallo == "fijo":  # the pair's place and figures, twice
        assert places["engine"]["B"] == places["engine"]["C"]
        assert score["engine"]["B"] == score["engine"]["C"]


def test_a_table_is_ranked_by_its_stages_placement_chain():
    archive = table_archive("por_turno", hands=4)
    match = archive["matches"][0]
    assert len(set(match["places"].values())) > 1  # the last chico's points part them
    archive["stages"] = [{"id": 1, "settings": {"placement": ["chicos"]}}]
    code, report = run(archive)
    assert code == 1
    (found,) = report["disagreements"]
    assert found["field"] == "places"
    assert found["engine"] == {"A": 1, "B": 1, "C": 1}  # no chico won yet: all first
    archive["stages"][0]["settings"]["placement"] = ["luck"]
    code, report = run(archive)
    assert code == 2 and report["error"]["path"] == "$.stages[0].settings.placement"


@pytest.mark.parametrize(
    ("spoil", "path"),
    [
        (lambda m: m["lineup"].pop("C"), "$.matches[0].lineup.C"),
        (lambda m: m["hands"][0]["points"].pop("C"), "$.matches[0].hands[0].points.C"),
        (lambda m: m.update(places={"A": 1, "B": 2}), "$.matches[0].places.C"),
        (lambda m: m.pop("places"), "$.matches[0].places"),
        (lambda m: m.update(winner="D"), "$.matches[0].winner"),
    ],
)
def test_an_invalid_table_exits_2_with_its_path(spoil, path):
    archive = table_archive("por_turno", hands=4)
    spoil(archive["matches"][0])
    code, report = run(archive)
    assert (code, report["error"]["code"], report["error"]["path"]) == (2, "archive_invalid", path)
