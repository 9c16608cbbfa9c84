"""Standings of a stage through the selector: every registered tie-break, the snapshot,
and a query count that does not grow with the number of teams."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import chico_hand
from tournaments.models import Match, StandingsSnapshot
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors
from tournaments.standings import services as standing_services
from tournaments.standings import tiebreaks


def mazo_hand(match: Match, loser: str) -> dict:
    """A real hand: every player of ``loser`` goes to the mazo (2 points to the other)."""
    team = match.team_a if loser == "A" else match.team_b
    return {"events": [{"by": m.player.record_key, "mazo": True} for m in team.memberships.all()]}


def play_hands(match: Match, script: str) -> Match:
    """Play ``script``: "A"/"B" a chico won by that side, "a"/"b" a 2-point mazo hand."""
    if not match.seats:
        result_services.match_start(match=match)
    for step in script:
        if step.isupper():
            record = chico_hand(match, step)
        else:
            record = mazo_hand(match, "B" if step == "a" else "A")
        result_services.hand_record(match=match, record=record, recorded_by=None)
    match.refresh_from_db()
    return match


def between(stage, x, y) -> tuple[Match, str, str]:
    """The match of x and y, and the side letters of x and y in it."""
    match = stage.matches.get(team_a__in=[x, y], team_b__in=[x, y])
    return (match, "A", "B") if match.team_a_id == x.pk else (match, "B", "A")


def play_between(stage, x, y, script_for_x: str) -> None:
    """``script_for_x`` written from x's point of view: X/x for x, Y/y for the other."""
    match, sx, sy = between(stage, x, y)
    table = {"X": sx, "Y": sy, "x": sx.lower(), "y": sy.lower()}
    play_hands(match, "".join(table[c] for c in script_for_x))


def chain(championship, keys):
    championship.tiebreaks = keys
    championship.save(update_fields=["tiebreaks"])


@pytest.fixture
def round_robin(championship, make_teams):
    def build(count):
        teams = make_teams(championship, count)
        stage = stage_services.stage_create(championship=championship, format="round_robin")
        for _ in range(count - 1 + count % 2):
            stage_services.round_generate(stage=stage)
        return stage, teams

    return build


def order(stage, **kwargs):
    return [line.team.seed for line in standing_selectors.stage_standings(stage=stage, **kwargs)]


def test_chicos_won_chico_difference_and_lots(championship, round_robin):
    stage, (t1, t2, t3) = round_robin(3)
    play_between(stage, t1, t2, "XX")  # 2-0
    play_between(stage, t2, t3, "XYX")  # 2-1
    play_between(stage, t3, t1, "XYX")  # 2-1: everyone has one win
    chain(championship, ["points", "chico_diff"])
    lines = standing_selectors.stage_standings(stage=stage)
    assert [(line.team.seed, line.metrics["chico_diff"]) for line in lines] == [
        (1, 1),
        (3, 0),
        (2, -1),
    ]
    assert {line.points for line in lines} == {2}  # a win and a bye each

    # Chicos won: t1 and t3 both won 3; the lots (seeded by the championship) split them.
    chain(championship, ["points", "chicos_won", "lots"])
    lines = standing_selectors.stage_standings(stage=stage)
    assert lines[2].team == t2 and lines[2].metrics["chicos_won"] == 2
    lots = tiebreaks.draw_lots([t1.pk, t3.pk, t2.pk], championship.lots_seed)
    assert [line.team.pk for line in lines[:2]] == sorted([t1.pk, t3.pk], key=lots.get)
    assert [line.rank for line in lines] == [1, 2, 3]

    # Without lots the two share the rank.
    chain(championship, ["points", "chicos_won"])
    assert [line.rank for line in standing_selectors.stage_standings(stage=stage)] == [1, 1, 3]


def test_tantos_for_and_difference(championship, round_robin):
    stage, (t1, t2, t3) = round_robin(3)
    play_between(stage, t1, t2, "xxxxxYXX")  # t1: 10 in a lost chico, then two of 30
    play_between(stage, t2, t3, "yyyXX")  # t3: 6 in a lost chico
    play_between(stage, t3, t1, "XX")
    lines = {line.team: line for line in standing_selectors.stage_standings(stage=stage)}
    assert (lines[t1].tantos_for, lines[t1].tantos_against) == (70, 90)
    assert (lines[t2].tantos_for, lines[t2].tantos_against) == (90, 76)
    assert (lines[t3].tantos_for, lines[t3].tantos_against) == (66, 60)
    chain(championship, ["points", "tantos_for"])
    assert order(stage) == [2, 1, 3]
    chain(championship, ["points", "tantos_diff"])
    assert order(stage) == [2, 3, 1]
    assert [
        line.metrics["tantos_diff"] for line in standing_selectors.stage_standings(stage=stage)
    ] == [
        14,
        6,
        -20,
    ]


def test_head_to_head_beats_chico_difference(championship, round_robin):
    stage, (t1, t2, t3, t4) = round_robin(4)
    play_between(stage, t1, t2, "XYX")  # t1 beats t2
    play_between(stage, t3, t1, "XX")
    play_between(stage, t1, t4, "XYX")
    play_between(stage, t2, t3, "XX")
    play_between(stage, t2, t4, "XX")
    play_between(stage, t4, t3, "XX")
    # t1 and t2 have two wins; t2 has the better chico difference, t1 won their match.
    chain(championship, ["points", "chico_diff"])
    assert order(stage)[:2] == [2, 1]
    chain(championship, ["points", "head_to_head", "chico_diff"])
    lines = standing_selectors.stage_standings(stage=stage)
    assert [line.team.seed for line in lines][:2] == [1, 2]
    assert (lines[0].metrics["head_to_head"], lines[1].metrics["head_to_head"]) == (1, 0)
    chain(championship, ["wins", "lots"])
    assert [line.metrics["wins"] for line in standing_selectors.stage_standings(stage=stage)] == [
        2,
        2,
        1,
        1,
    ]


def test_buchholz_and_median_buchholz_in_a_swiss(championship, make_teams):
    teams = make_teams(championship, 6)
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 3}
    )
    for number in range(3):
        for match in stage_services.round_generate(stage=stage):
            # The better seed wins, except that seed 4 beats seed 1 in round 2.
            a, b = match.team_a, match.team_b
            winner = a if a.seed < b.seed else b
            if number == 1 and {a.seed, b.seed} == {1, 4}:
                winner = a if a.seed == 4 else b
            play_hands(match, "AA" if winner == a else "BB")
    chain(championship, ["points", "buchholz", "median_buchholz", "lots"])
    lines = standing_selectors.stage_standings(stage=stage)
    points = {line.team.pk: line.points for line in lines}
    for line in lines:
        opponents = [
            m.team_b_id if m.team_a_id == line.team.pk else m.team_a_id
            for m in stage.matches.filter(team_b__isnull=False)
            if line.team.pk in (m.team_a_id, m.team_b_id)
        ]
        values = sorted(points[o] for o in opponents)
        assert line.metrics["buchholz"] == sum(values)
        assert line.metrics["median_buchholz"] == sum(values[1:-1])
    keys = [
        (line.points, line.metrics["buchholz"], line.metrics["median_buchholz"]) for line in lines
    ]
    assert keys == sorted(keys, reverse=True)
    assert len(teams) == len(lines)


def test_lots_are_reproducible_and_seeded_by_the_championship(championship, round_robin):
    stage, teams = round_robin(8)
    chain(championship, ["lots"])
    first = order(stage)
    assert first == order(stage)
    lots = tiebreaks.draw_lots([t.pk for t in teams], championship.lots_seed)
    assert [t.seed for t in sorted(teams, key=lambda t: lots[t.pk])] == first
    championship.seed = "otro sorteo"
    championship.save(update_fields=["seed"])
    stage.refresh_from_db()
    other = tiebreaks.draw_lots([t.pk for t in teams], "otro sorteo")
    assert order(stage) == [t.seed for t in sorted(teams, key=lambda t: other[t.pk])]


def test_the_snapshot_is_refreshed_after_each_result(
    championship, round_robin, django_capture_on_commit_callbacks
):
    stage, (t1, t2, t3) = round_robin(3)
    match, sx, _ = between(stage, t2, t3)
    with django_capture_on_commit_callbacks(execute=True):
        play_hands(match, sx * 2)
    snapshot = StandingsSnapshot.objects.get(stage=stage, group=None)
    assert snapshot.rows[0]["team"] == t2.pk
    assert standing_selectors.stage_standings(stage=stage) == standing_selectors.stage_standings(
        stage=stage, use_snapshot=False
    )
    # A new result makes the snapshot stale at once, before the refresh runs: it stays
    # stored (the refresh replaces it) but the standings are computed instead.
    play_between(stage, t1, t2, "XX")
    stale = StandingsSnapshot.objects.get(stage=stage, group=None)
    assert stale.rows == snapshot.rows
    stage.refresh_from_db()
    assert stale.version < stage.results_version
    assert order(stage)[0] == 1


@pytest.mark.parametrize("use_snapshot", [False, True])
def test_the_standings_query_count_does_not_grow_with_teams(
    championship_factory, make_teams, django_assert_max_num_queries, use_snapshot
):
    counts = []
    for size in (4, 40):
        championship = championship_factory(slug=f"liga-{size}")
        make_teams(championship, size)
        stage = stage_services.stage_create(championship=championship, format="round_robin")
        for match in stage_services.round_generate(stage=stage):
            result_services.match_walkover(match=match, winner=match.team_a, reason="test")
        if use_snapshot:
            standing_services.standings_refresh(stage=stage)
        stage = type(stage).objects.select_related("championship").get(pk=stage.pk)
        with CaptureQueriesContext(connection) as queries:
            lines = standing_selectors.stage_standings(stage=stage, use_snapshot=use_snapshot)
        assert len(lines) == size
        counts.append(len(queries))
        with django_assert_max_num_queries(3):
            standing_selectors.stage_standings(stage=stage, use_snapshot=use_snapshot)
    assert counts[0] == counts[1]
