"""Standings of tables of three from known tables (tournaments/standings/tables.py)."""

from __future__ import annotations

import pytest

from tournaments.formats import FormatError
from tournaments.standings.tables import PlacementPoints, TableResult, table_standings


def test_placement_points_then_tantos_then_opponents():
    results = [
        # Round 1: two tables of three.
        TableResult({"a": 1, "b": 2, "c": 3}, {"a": 30, "b": 20, "c": 10}),
        TableResult({"d": 1, "e": 2, "f": 3}, {"d": 30, "e": 25, "f": 5}),
        # Round 2.
        TableResult({"a": 2, "d": 3, "e": 1}, {"a": 22, "d": 14, "e": 30}),
        TableResult({"b": 1, "c": 2, "f": 3}, {"b": 30, "c": 12, "f": 9}),
    ]
    rows = table_standings("abcdef", results, chain=["points", "tantos", "opponents"])
    # Points: a 3+1=4, e 1+3=4, b 1+3=4, d 3, c 1, f 0; tantos a 52, e 55, b 50.
    assert [(r.player, r.metrics["points"], r.metrics["tantos"]) for r in rows] == [
        ("e", 4, 55),
        ("a", 4, 52),
        ("b", 4, 50),
        ("d", 3, 44),
        ("c", 1, 22),
        ("f", 0, 14),
    ]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_opponents_points_break_a_tie_on_points_and_tantos():
    results = [
        TableResult({"a": 1, "x": 2, "y": 3}, {"a": 30}),
        TableResult({"b": 1, "z": 2, "w": 3}, {"b": 30}),
        TableResult({"x": 1, "y": 2, "z": 3}),
    ]
    rows = table_standings(["a", "b", "w", "x", "y", "z"], results, chain=TABLE_CHAIN_NO_LOTS)
    a, b = (next(r for r in rows if r.player == p) for p in "ab")
    # a met x (1+3=4) and y (0+1=1): 2.5; b met z (1+0=1) and w (0): 0.5.
    assert a.metrics["opponents"] == 2.5 and b.metrics["opponents"] == 0.5
    assert a.rank == 2 and b.rank == 3  # x leads with 4 points


TABLE_CHAIN_NO_LOTS = ("points", "tantos", "opponents")


def test_shared_places_share_points_and_equal_players_share_a_rank():
    results = [TableResult({"a": 1, "b": 1, "c": 3}, {"a": 20, "b": 20, "c": 20})]
    rows = table_standings("abc", results, chain=TABLE_CHAIN_NO_LOTS)
    assert [(r.player, r.rank, r.metrics["points"]) for r in rows] == [
        ("a", 1, 2.0),
        ("b", 1, 2.0),
        ("c", 3, 0),
    ]
    # The lots always separate, reproducibly.
    lots = table_standings("abc", results, seed="cup")
    assert [r.rank for r in lots] == [1, 2, 3]
    assert lots == table_standings("cba", results, seed="cup")


def test_tables_of_two_byes_and_a_custom_scale():
    results = [
        TableResult({"a": 1, "b": 2}, {"a": 15, "b": 9}),
        TableResult({"c": 1}, bye=True),
    ]
    rows = table_standings("abc", results, chain=TABLE_CHAIN_NO_LOTS)
    assert [(r.player, r.metrics["points"], r.byes, r.tables) for r in rows] == [
        ("a", 3, 0, 1),
        ("c", 1, 1, 0),
        ("b", 0, 0, 1),
    ]
    # The bye counts the player's own points as opponents' points.
    assert rows[1].metrics["opponents"] == 1
    scale = PlacementPoints(first=5, second=2, third=0, bye=2)
    rows = table_standings("abc", results, chain=["points"], points=scale)
    assert [(r.player, r.metrics["points"]) for r in rows] == [("a", 5), ("c", 2), ("b", 0)]


@pytest.mark.parametrize(
    ("chain", "code"),
    [(["goals"], "bad_chain"), ([], "bad_chain"), (["lots", "points"], "lots_not_last")],
)
def test_bad_chains_are_refused(chain, code):
    with pytest.raises(FormatError) as caught:
        table_standings("abc", [], chain=chain, seed=1)
    assert caught.value.code == code


def test_a_table_naming_a_stranger_is_refused():
    with pytest.raises(FormatError) as caught:
        table_standings("ab", [TableResult({"a": 1, "z": 2})])
    assert caught.value.code == "unknown_team"
