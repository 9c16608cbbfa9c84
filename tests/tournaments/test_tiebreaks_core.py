"""Standings and every registered tie-break, over plain results (no database)."""

import random

import pytest
from django.utils.functional import Promise

from tournaments.formats.base import FormatError
from tournaments.standings.tiebreaks import (
    DEFAULT_CHAIN,
    TIEBREAKS,
    ByeBuchholz,
    MatchResult,
    PointsScheme,
    TieBreak,
    build_table,
    draw_lots,
    register,
    standings,
)


def win(a, b, chicos=(2, 0), tantos=(60, 30)):
    return MatchResult(a, b, a, chicos[0], chicos[1], tantos[0], tantos[1])


def order(rows):
    return [r.team for r in rows]


def ranks(rows):
    return {r.team: r.rank for r in rows}


def test_registry_holds_every_tiebreak_with_key_name_and_abbr():
    assert set(TIEBREAKS) >= {
        "points",
        "wins",
        "chicos_won",
        "chico_diff",
        "tantos_for",
        "tantos_diff",
        "head_to_head",
        "buchholz",
        "median_buchholz",
        "lots",
    }
    for key, cls in TIEBREAKS.items():
        assert cls.key == key
        # Names are lazy translations, resolved in the user's language at the edge.
        assert isinstance(cls.name, Promise) and isinstance(cls.abbr, Promise)


def test_registering_a_key_twice_is_refused():
    class Again(TieBreak):
        key = "points"

    with pytest.raises(ValueError, match="registered twice"):
        register(Again)


def test_match_points_follow_the_scheme():
    results = [
        win("A", "B"),
        MatchResult("A", "C"),  # a draw
        MatchResult("B", "C", "B", walkover=True),
        MatchResult("D"),  # a bye
        MatchResult("C", "D", walkover=True),  # both forfeit
    ]
    rows = standings("ABCD", results, chain=["points"])
    points = {r.team: r.metrics["points"] for r in rows}
    assert points == {"A": 1.5, "B": 1, "C": 0.5, "D": 1}
    scheme = PointsScheme(win=3, draw=1, loss=0, bye=3, walkover_loss=-1)
    rows = standings("ABCD", results, chain=["points"], scheme=scheme)
    assert {r.team: r.metrics["points"] for r in rows} == {"A": 4, "B": 3, "C": -1, "D": 2}
    totals = {r.team: r.totals for r in rows}
    assert (totals["C"].wins, totals["C"].draws, totals["C"].losses) == (0, 1, 2)
    assert (totals["D"].byes, totals["D"].played) == (1, 1)


def test_shared_rank_when_the_whole_chain_ties():
    rows = standings([3, 1, 2, 4], [win(4, 1), win(2, 3)], chain=["points"])
    assert [(r.team, r.rank, r.position) for r in rows] == [
        (2, 1, 1),
        (4, 1, 2),
        (1, 3, 3),
        (3, 3, 4),
    ]


@pytest.mark.parametrize(
    ("key", "results", "expected"),
    [
        (
            "chicos_won",
            [
                win("A", "C", chicos=(2, 1)),
                win("E", "A", chicos=(2, 1)),
                win("B", "D", chicos=(2, 0)),
                win("E", "B", chicos=(2, 0)),
            ],
            ["A", "B"],
        ),
        (
            "chico_diff",
            [win("A", "C", chicos=(2, 1)), win("B", "D", chicos=(2, 0))],
            ["B", "A"],
        ),
        (
            "tantos_for",
            [win("A", "C", tantos=(61, 50)), win("B", "D", tantos=(60, 10))],
            ["A", "B"],
        ),
        (
            "tantos_diff",
            [win("A", "C", tantos=(61, 50)), win("B", "D", tantos=(60, 10))],
            ["B", "A"],
        ),
    ],
)
def test_score_tiebreaks_split_teams_level_on_points(key, results, expected):
    teams = ["A", "B", "C", "D", "E"]
    level = standings(teams, results, chain=["points"])
    assert ranks(level)["A"] == ranks(level)["B"]
    rows = standings(teams, results, chain=["points", key])
    first, second = expected
    assert order(rows).index(first) < order(rows).index(second)
    assert ranks(rows)[first] < ranks(rows)[second]


def test_head_to_head_is_a_mini_table_of_the_tied_teams_only():
    # A, B, C on 2 points; D also on 2 but above them on chicos... no: on points level.
    results = [
        win("A", "B"),
        win("B", "C"),
        win("A", "C"),
        win("C", "D"),
        win("D", "A"),
        win("B", "D"),
        win("D", "E"),
        win("E", "A"),
    ]
    rows = standings("ABCDE", results, chain=["points", "head_to_head"])
    points = {r.team: r.metrics["points"] for r in rows}
    assert points == {"A": 2, "B": 2, "C": 1, "D": 2, "E": 1}
    # Among A, B, D: A beat B, B beat D, D beat A: one point each, still tied.
    assert {r.team: r.metrics["head_to_head"] for r in rows if r.team in "ABD"} == {
        "A": 1,
        "B": 1,
        "D": 1,
    }
    # Among C and E (1 point each): they never met.
    assert rows[3].metrics["head_to_head"] == 0
    assert ranks(rows) == {"A": 1, "B": 1, "D": 1, "C": 4, "E": 4}


def test_head_to_head_decides_a_two_way_tie_and_ignores_the_others():
    # B and C level on points; C beat B. A is above them and its results do not count.
    results = [win("A", "B"), win("A", "C"), win("C", "B"), win("B", "D")]
    rows = standings("ABCD", results, chain=["points", "head_to_head"])
    assert order(rows) == ["A", "C", "B", "D"]
    by_team = {r.team: r for r in rows}
    assert by_team["C"].metrics["head_to_head"] == 1
    assert by_team["B"].metrics["head_to_head"] == 0
    assert by_team["A"].metrics["head_to_head"] is None, "A was not tied: not computed"


def test_head_to_head_mini_table_among_four():
    # A, B, C, E level on points overall; their mini-table splits them in two pairs.
    results = [
        win("A", "B"),
        win("A", "C"),
        win("B", "C"),
        win("B", "D"),
        win("C", "D"),
        win("C", "E"),
        win("D", "A"),
        win("E", "A"),
        win("E", "B"),
    ]
    rows = standings("ABCDE", results, chain=["points", "head_to_head"])
    assert {r.team: r.metrics["points"] for r in rows if r.team in "ABCE"} == {
        "A": 2,
        "B": 2,
        "C": 2,
        "E": 2,
    }
    # Tied four: A beat B, C -> 2; E beat A, B -> 2; B beat C -> 1; C beat E -> 1.
    h2h = {r.team: r.metrics["head_to_head"] for r in rows}
    assert h2h == {"A": 2, "E": 2, "B": 1, "C": 1, "D": None}
    assert order(rows) == ["A", "E", "B", "C", "D"]
    assert ranks(rows) == {"A": 1, "E": 1, "B": 3, "C": 3, "D": 5}


def _swiss_results():
    return [
        win(1, 2),
        win(3, 4),
        win(1, 3),
        win(4, 2),
        win(4, 1),
        MatchResult(3),  # a bye
        win(2, 3),
    ]


def test_buchholz_sums_the_opponents_points():
    table = build_table([1, 2, 3, 4], _swiss_results())
    assert {t: tot.points for t, tot in table.totals.items()} == {1: 2, 2: 1, 3: 2, 4: 2}
    rows = standings([1, 2, 3, 4], _swiss_results(), chain=["points", "buchholz"])
    bh = {r.team: r.metrics["buchholz"] for r in rows}
    # 1 met 2, 3, 4 -> 1 + 2 + 2; 4 met 3, 2, 1 -> 2 + 1 + 2; 3 met 4, 1, 2 + bye (own 2).
    assert bh == {1: 5, 2: 6, 3: 7, 4: 5}
    assert order(rows) == [3, 1, 4, 2]


@pytest.mark.parametrize(
    ("mode", "expected"), [(ByeBuchholz.OWN, 7), (ByeBuchholz.ZERO, 5), (ByeBuchholz.IGNORE, 5)]
)
def test_a_bye_counts_for_buchholz_as_configured(mode, expected):
    rows = standings([1, 2, 3, 4], _swiss_results(), chain=["buchholz", "median_buchholz"],
                     bye_buchholz=mode)  # fmt: skip
    by_team = {r.team: r.metrics for r in rows}
    assert by_team[3]["buchholz"] == expected
    # Median: 3's opponents are 2, 2, 1 (+ own 2 or a zero for the bye, or nothing).
    median = {ByeBuchholz.OWN: 4, ByeBuchholz.ZERO: 3, ByeBuchholz.IGNORE: 2}[mode]
    assert by_team[3]["median_buchholz"] == median


def test_median_buchholz_drops_highest_and_lowest_and_keeps_all_below_three():
    results = [win("A", "B"), win("A", "C"), win("A", "D"), win("C", "D"), win("D", "B")]
    # points: A 3, B 0, C 1, D 1
    rows = standings("ABCD", results, chain=["points", "buchholz", "median_buchholz"])
    metrics = {r.team: r.metrics for r in rows}
    assert metrics["A"]["buchholz"] == 2 and metrics["A"]["median_buchholz"] == 1
    # B met A and D only: two opponents, nothing dropped.
    assert metrics["B"]["buchholz"] == 4 and metrics["B"]["median_buchholz"] == 4


def test_median_buchholz_breaks_a_tie_buchholz_leaves():
    # P's opponents end on 0, 2, 2 points and Q's on 1, 1, 2: Buchholz 4 for both,
    # median-Buchholz 2 for P and 1 for Q.
    results = [
        win("P", "X0"), win("P", "X2a"), win("P", "X2b"),
        win("Q", "Y1a"), win("Q", "Y1b"), win("Q", "Y2"),
        win("X2a", "F1"), win("X2a", "F2"), win("X2b", "F3"), win("X2b", "F4"),
        win("Y1a", "F5"), win("Y1b", "F6"), win("Y2", "F7"), win("Y2", "F8"),
    ]  # fmt: skip
    teams = ["Q", "P", "X0", "X2a", "X2b", "Y1a", "Y1b", "Y2"] + [f"F{k}" for k in range(1, 9)]
    rows = standings(teams, results, chain=["points", "buchholz"])
    assert ranks(rows)["P"] == ranks(rows)["Q"] == 1
    rows = standings(teams, results, chain=["points", "buchholz", "median_buchholz"])
    metrics = {r.team: r.metrics for r in rows}
    assert metrics["P"]["buchholz"] == metrics["Q"]["buchholz"] == 4
    assert (metrics["P"]["median_buchholz"], metrics["Q"]["median_buchholz"]) == (2, 1)
    assert order(rows)[:2] == ["P", "Q"]
    assert (ranks(rows)["P"], ranks(rows)["Q"]) == (1, 2)


def test_drawing_of_lots_is_reproducible_and_independent_of_input_order():
    teams = list(range(1, 13))
    results = [win(1, 2), win(3, 4)]
    chain = ["points", "lots"]
    rows = standings(teams, results, chain=chain, seed="copa-2026")
    assert [r.rank for r in rows] == list(range(1, 13)), "lots never leave a shared rank"
    assert order(rows)[:2] in ([1, 3], [3, 1])
    shuffled = teams[:]
    random.Random(5).shuffle(shuffled)
    again = standings(shuffled, results[::-1], chain=chain, seed="copa-2026")
    assert order(again) == order(rows)
    assert [r.metrics["lots"] for r in again] == [r.metrics["lots"] for r in rows]
    others = {tuple(order(standings(teams, results, chain=chain, seed=s))) for s in range(8)}
    assert len(others) > 1, "another seed draws other lots"


def test_draw_lots_numbers_every_team_once():
    lots = draw_lots(["b", 7, "a", 3], seed=42)
    assert sorted(lots.values()) == [1, 2, 3, 4]
    assert lots == draw_lots([3, "a", 7, "b"], seed=42)
    assert lots == draw_lots([3, "a", 7, "b"], seed="42"), "the seed is used as text"


def test_default_chain_ends_in_lots_and_needs_the_seed():
    assert DEFAULT_CHAIN[-1] == "lots"
    with pytest.raises(FormatError) as info:
        standings("AB", [win("A", "B")])
    assert info.value.code == "no_seed"
    rows = standings("ABC", [win("A", "B")], seed=1)
    assert order(rows)[0] == "A"


@pytest.mark.parametrize(
    ("chain", "code"),
    [
        ([], "empty_chain"),
        (["points", "goal_average"], "unknown_tiebreak"),
        (["points", "points"], "repeated_tiebreak"),
        (["lots", "points"], "lots_not_last"),
    ],
)
def test_bad_chains_are_refused(chain, code):
    with pytest.raises(FormatError) as info:
        standings("AB", [win("A", "B")], chain=chain, seed=1)
    assert info.value.code == code


def test_bad_results_are_refused():
    with pytest.raises(FormatError) as info:
        standings("AB", [win("A", "Z")], chain=["points"])
    assert info.value.code == "unknown_team"
    with pytest.raises(FormatError) as info:
        MatchResult("A", "B", "C")
    assert info.value.code == "not_in_match"
    with pytest.raises(FormatError) as info:
        MatchResult("A", "A")
    assert info.value.code == "same_team"
    with pytest.raises(FormatError) as info:
        MatchResult("A", "B", "A", chicos_a=-1)
    assert info.value.code == "bad_score"
