"""A championship's placements per format, from stages generated and played through the
services (results from hands)."""

import pytest

from tests.tournaments.conftest import play
from tournaments.models import Championship, Match, PlacementSnapshot
from tournaments.stages import services as stage_services
from tournaments.standings import placements
from tournaments.standings.placements import championship_placements


def favourite(match: Match):
    a, b = match.team_a, match.team_b
    return a if a.seed < b.seed else b


def play_out(stage, pick=favourite):
    while stage.matches.filter(status=Match.Status.SCHEDULED).exists():
        for match in stage.matches.filter(status=Match.Status.SCHEDULED):
            if not match.is_bye and not match.is_decided:
                play(match, pick(match))
        if not stage.matches.filter(status=Match.Status.SCHEDULED).exists():
            try:
                stage_services.round_generate(stage=stage)
            except Exception:
                return


def table(championship, teams):
    """Placements as (seed, place, tied), best first."""
    seeds = {t.pk: t.seed for t in teams}
    return [
        (seeds[p.team_id], p.place, p.tied)
        for p in championship_placements(championship=championship)
    ]


def test_single_elimination_semi_finalists_share_third(championship, make_teams):
    teams = make_teams(championship, 8)
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    stage_services.round_generate(stage=stage)
    play_out(stage)
    assert table(championship, teams) == [
        (1, 1, False),
        (2, 2, False),
        (3, 3, True),
        (4, 3, True),
        (5, 5, True),
        (6, 5, True),
        (7, 5, True),
        (8, 5, True),
    ]


def test_single_elimination_third_place_match_and_byes(championship, make_teams):
    teams = make_teams(championship, 6)
    stage = stage_services.stage_create(
        championship=championship, format="single_elimination", settings={"third_place": True}
    )
    stage_services.round_generate(stage=stage)

    # The underdog wins the third-place match.
    def underdog(m):
        return m.team_a if m.team_a.seed > m.team_b.seed else m.team_b

    play_out(stage, pick=lambda m: underdog(m) if m.bracket_id == "P3" else favourite(m))
    rows = table(championship, teams)
    assert rows[:4] == [(1, 1, False), (2, 2, False), (4, 3, False), (3, 4, False)]
    # Seeds 1 and 2 had byes: the first-round losers are 5th together.
    assert sorted(rows[4:]) == [(5, 5, True), (6, 5, True)]


def test_a_running_bracket_is_provisional(championship, make_teams):
    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    first = stage_services.round_generate(stage=stage)
    play(first[0], favourite(first[0]))
    rows = table(championship, teams)
    # The semi-final's winner is 1st for now (2nd at worst), the two teams still to play
    # 2nd together, the loser 4th (3rd together with the other semi-final's loser, later).
    assert [r[1:] for r in rows] == [(1, False), (2, True), (2, True), (4, False)]
    assert rows[0][0] == 1 and rows[-1][0] == 4


def test_double_elimination_by_the_losers_bracket(championship, make_teams):
    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(championship=championship, format="double_elimination")
    stage_services.round_generate(stage=stage)
    play_out(stage)
    # 1 wins the grand final (no reset), 2 lost it, 3 lost the losers' final, 4 went first.
    assert table(championship, teams) == [
        (1, 1, False),
        (2, 2, False),
        (3, 3, False),
        (4, 4, False),
    ]


def test_round_robin_by_the_standings_with_a_complete_tie(championship, make_teams):
    championship.tiebreaks = ["points"]  # no lots: a tie on points stays a tie
    championship.save()
    teams = make_teams(championship, 3)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    # A cycle: each team beats one and loses to the other, all tied on points.
    winners = {frozenset((1, 2)): 1, frozenset((2, 3)): 2, frozenset((1, 3)): 3}
    for _ in range(3):
        for match in stage_services.round_generate(stage=stage):
            if not match.is_bye:
                seeds = frozenset((match.team_a.seed, match.team_b.seed))
                won = winners[seeds]
                play(match, match.team_a if match.team_a.seed == won else match.team_b)
    assert table(championship, teams) == [(1, 1, True), (2, 1, True), (3, 1, True)]


def test_swiss_by_the_standings(championship, make_teams):
    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 2}
    )
    for _ in range(2):
        for match in stage_services.round_generate(stage=stage):
            if not match.is_bye:
                play(match, favourite(match))
    rows = table(championship, teams)
    assert rows[0] == (1, 1, False)
    assert [r[1] for r in rows] == [1, 2, 3, 4]  # the chain ends in lots: no tie


def test_groups_then_knockout_teams_out_in_the_groups_below(championship, make_teams):
    teams = make_teams(championship, 8)
    stage = stage_services.stage_create(
        championship=championship,
        format="groups_knockout",
        settings={"group_count": 2, "advance": 2},
    )
    for _ in range(3):
        for match in stage_services.round_generate(stage=stage):
            if not match.is_bye:
                play(match, favourite(match))
    # Groups played, knockout not drawn: by the rank in the group, the groups together.
    rows = table(championship, teams)
    assert [(r[1], r[2]) for r in rows] == [(1, True)] * 2 + [(3, True)] * 2 + [(5, True)] * 2 + [
        (7, True)
    ] * 2
    stage_services.round_generate(stage=stage)
    play_out(stage)
    rows = table(championship, teams)
    assert rows[:2] == [(1, 1, False), (2, 2, False)]
    assert {r[0] for r in rows[2:4]} == {3, 4} and {r[1] for r in rows[2:4]} == {3}
    # The thirds of both groups 5th together, the fourths 7th.
    assert sorted(rows[4:]) == [(5, 5, True), (6, 5, True), (7, 7, True), (8, 7, True)]


def test_teams_out_in_an_earlier_stage_come_below(championship, make_teams):
    teams = make_teams(championship, 6)
    swiss = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 2}
    )
    for _ in range(2):
        for match in stage_services.round_generate(stage=swiss):
            if not match.is_bye:
                play(match, favourite(match))
    knockout = stage_services.stage_create(
        championship=championship, format="single_elimination", name="Final", teams=teams[:2]
    )
    stage_services.round_generate(stage=knockout)
    play_out(knockout, pick=lambda m: m.team_b if m.team_b.seed == 2 else m.team_a)
    rows = table(championship, teams)
    assert rows[:2] == [(2, 1, False), (1, 2, False)]
    assert [r[1] for r in rows[2:]] == [3, 4, 5, 6]
    assert {r[0] for r in rows[2:]} == {3, 4, 5, 6}


@pytest.mark.parametrize("status", ["withdrawn", "refused"])
def test_a_team_out_is_not_placed(championship, make_teams, status):
    from tournaments.models import Entry

    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.round_generate(stage=stage)
    Entry.objects.create(championship=championship, team=teams[3], status=status, position=1)
    assert teams[3].pk not in {
        p.team_id for p in championship_placements(championship=championship)
    }


def test_placements_computed_while_none_are_stored_are_computed_once_per_result(
    championship, make_teams, monkeypatch
):
    """Before the first result's refresh stores them (or while it is queued), every page of
    the championship's people asked for them: computed once for the results as they are,
    again once a result changes them."""
    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 2}
    )
    first, _second = stage_services.round_generate(stage=stage)
    computed = []
    original = placements.championship_placements

    def counted(**kwargs):
        computed.append(kwargs["championship"].pk)
        return original(**kwargs)

    monkeypatch.setattr(placements, "championship_placements", counted)

    def current():
        PlacementSnapshot.objects.filter(championship=championship).delete()  # none stored
        found = Championship.objects.get(pk=championship.pk)
        return placements.current_placements(championships=[found]).by_championship[found.pk]

    before = current()
    assert current() == before
    assert computed == [championship.pk]
    assert set(before) == {team.pk for team in teams}

    play(first, first.team_a)
    after = current()
    assert computed == [championship.pk] * 2
    assert after[first.team_a.pk].place < after[first.team_b.pk].place
    assert current() == after
    assert len(computed) == 2
