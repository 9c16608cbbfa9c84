"""Statistics at tables of three (gallo): every player's side has its rows, the pair's
facts count for each of its two players (the engine credits the pair's points to both),
and a championship's totals count each hand's events once."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.db.models import Sum

from tests.tournaments.test_gallo_tables import FIJO, POR_TURNO, _table, play_table
from tournaments.models import HandPlayerStat, HandSideStat, Match
from tournaments.ratings import statistics_selectors as stats
from tournaments.results import services as result_services


def _started(rules: dict) -> Match:
    return result_services.match_start(match=_table(rules))


def test_a_gallo_por_turno_hand_counts_the_pair_for_both_players(referee):
    match = _started(POR_TURNO)
    first, _second, gallo = match.seats  # hand 1: the dealer (third seat) is the gallo
    # The pair's first player calls truco, the gallo accepts, the pair takes two tricks.
    hand = {
        "events": [
            {"by": first, "call": "truco"},
            {"by": gallo, "answer": "quiero"},
            {"trick": "A"},
            {"trick": "A"},
        ]
    }
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    rows = {row.side: row for row in HandSideStat.objects.filter(match=match)}
    assert set(rows) == {"A", "B", "C"}
    side_of = {match.team_a_id: "A", match.team_b_id: "B", match.team_c_id: "C"}
    assert {side: side_of[row.team_id] for side, row in rows.items()} == {s: s for s in "ABC"}
    # Each pair player's side: the truco's 2 points and the pair's call; the gallo none.
    for side in ("A", "B"):
        row = rows[side]
        assert (row.points, row.truco_points_1, row.truco_calls, row.truco_accepted) == (2, 2, 1, 1)
    assert (rows["C"].points, rows["C"].truco_answers) == (0, 1)
    assert [rows[s].shared for s in "ABC"] == [False, True, False]
    # Each player's own acts beside his own side's row.
    players = {p.side_stat.side: p for p in HandPlayerStat.objects.filter(hand__match=match)}
    assert players["A"].truco_calls == 1 and players["B"].truco_calls == 0
    assert players["C"].truco_answers == 1
    assert players["B"].team_id == match.team_b_id
    # A team (a player) reads his side; the championship counts the hand's events once.
    assert stats.team_statistics(team=match.team_b).points == 2
    totals = stats.championship_totals(championship=match.stage.championship)
    counted = (totals.hands, totals.points, totals.truco_calls, totals.truco_answers)
    assert counted == (1, 2, 1, 1)


@pytest.mark.parametrize("rules", [POR_TURNO, FIJO], ids=["por_turno", "fijo"])
def test_a_whole_table_sums_to_its_stored_points_and_rebuilds_the_same(referee, rules):
    match, _entries = play_table(_table(rules), random.Random(11), referee=referee)
    hands = match.hands.all()
    for side in "abc":
        team = getattr(match, f"team_{side}")
        stored = hands.aggregate(total=Sum(f"points_{side}"))["total"]
        assert stats.team_statistics(team=team).points == stored, side
        assert stats.team_statistics(team=team).hands == hands.count()
    # Every chico was won by one of the table's players, as the games say.
    won = sum(stats.team_statistics(team=getattr(match, f"team_{s}")).chicos_won for s in "abc")
    expected = match.chicos_a + match.chicos_b + match.chicos_c
    assert won == expected if rules is POR_TURNO else won >= expected
    before = sorted(
        HandSideStat.objects.filter(match=match).values_list("hand__number", "side", "points")
    )
    call_command("stats_rebuild", verbosity=0)
    after = sorted(
        HandSideStat.objects.filter(match=match).values_list("hand__number", "side", "points")
    )
    assert after == before and len(before) == 3 * hands.count()


def test_a_fixed_gallos_pair_repeats_on_its_second_player(referee):
    match = _started(FIJO)
    hand = {"events": [{"trick": "B"}, {"trick": "B"}]}  # the pair (B and C) takes the hand
    result_services.hand_record(match=match, record=hand, recorded_by=referee)
    rows = {row.side: row for row in HandSideStat.objects.filter(match=match)}
    assert {s: (rows[s].points, rows[s].shared) for s in "ABC"} == {
        "A": (0, False),
        "B": (1, False),
        "C": (1, True),
    }
    assert rows["C"].team_id == match.team_c_id
    totals = stats.championship_totals(championship=match.stage.championship)
    assert totals.points == 1
