"""Every format played through the services to a champion, results coming from hands."""

from collections import Counter
from itertools import combinations

import pytest

from tests.tournaments.conftest import play
from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.results import services as result_services
from tournaments.stages import selectors as stage_selectors
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors


def favourite(match: Match):
    """The better seed wins (seeds are 1, 2, 3...)."""
    a, b = match.team_a, match.team_b
    return a if a.seed < b.seed else b


def play_out(stage, pick=favourite):
    """Play every match the bracket opens until none is left."""
    while stage.matches.filter(status=Match.Status.SCHEDULED).exists():
        play_round(stage.matches.filter(status=Match.Status.SCHEDULED), pick)


def play_round(matches, pick=favourite, referee=None):
    for match in matches:
        if not match.is_bye and not match.is_decided:
            play(match, pick(match), referee=referee)


def test_round_robin_single_cycle_with_byes(championship, make_teams, referee):
    teams = make_teams(championship, 5)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    for _ in range(5):
        play_round(stage_services.round_generate(stage=stage), referee=referee)
    with pytest.raises(TournamentError) as error:
        stage_services.round_generate(stage=stage)
    assert error.value.code == "no_round_left"

    played = Counter(
        frozenset((m.team_a_id, m.team_b_id)) for m in stage.matches.filter(team_b__isnull=False)
    )
    assert set(played) == {frozenset(p) for p in combinations([t.pk for t in teams], 2)}
    assert set(played.values()) == {1}
    byes = Counter(stage.matches.filter(team_b__isnull=True).values_list("team_a_id", flat=True))
    assert byes == Counter({t.pk: 1 for t in teams})

    standings = standing_selectors.stage_standings(stage=stage)
    assert [line.team for line in standings] == teams  # the favourite always won
    assert [line.wins for line in standings] == [4, 3, 2, 1, 0]
    assert standings[0].chicos_for == 8 and standings[0].chicos_against == 4


def test_round_robin_double_cycle_meets_twice_home_and_away(championship, make_teams):
    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(
        championship=championship, format="round_robin", settings={"cycles": 2}
    )
    for _ in range(6):
        play_round(stage_services.round_generate(stage=stage))
    homes = Counter((m.team_a_id, m.team_b_id) for m in stage.matches.all())
    assert len(homes) == 12  # every ordered pair once: each pair twice, home and away
    assert set(homes.values()) == {1}
    assert standing_selectors.stage_standings(stage=stage)[0].team == teams[0]


@pytest.mark.parametrize("count", [8, 7])
def test_swiss_avoids_rematches_and_gives_one_bye_at_most(championship, make_teams, count):
    teams = make_teams(championship, count)
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": 4}
    )
    first = stage_services.round_generate(stage=stage)
    with pytest.raises(TournamentError) as error:
        stage_services.round_generate(stage=stage)  # round 1 is not over
    assert error.value.code == "round_unfinished"
    play_round(first)
    for _ in range(3):
        play_round(stage_services.round_generate(stage=stage))

    pairs = [frozenset((m.team_a_id, m.team_b_id)) for m in stage.matches.exclude(team_b=None)]
    assert len(pairs) == len(set(pairs)), "no rematch in four rounds"
    byes = Counter(stage.matches.filter(team_b=None).values_list("team_a_id", flat=True))
    assert sum(byes.values()) == (4 if count % 2 else 0)
    assert all(n == 1 for n in byes.values())
    standings = standing_selectors.stage_standings(stage=stage)
    assert standings[0].team == teams[0] and standings[0].points == 4
    with pytest.raises(TournamentError):
        stage_services.round_generate(stage=stage)


def test_single_elimination_seeding_byes_and_advancement(championship, make_teams):
    teams = make_teams(championship, 6)
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    first = stage_services.round_generate(stage=stage)
    # Seeds 1 and 2 have byes; 4 v 5 and 3 v 6 play.
    pairs = {frozenset((m.team_a.seed, m.team_b.seed)) for m in first}
    assert pairs == {frozenset((4, 5)), frozenset((3, 6))}
    # An upset: seed 5 beats seed 4, and goes on to meet seed 1 at once.
    upset = next(m for m in first if {m.team_a.seed, m.team_b.seed} == {4, 5})
    play(upset, teams[4])
    semi = stage.matches.get(bracket_id="W2-1")
    assert {semi.team_a_id, semi.team_b_id} == {teams[0].pk, teams[4].pk}
    with pytest.raises(TournamentError) as error:
        stage_services.round_generate(stage=stage)  # nothing new until a result comes in
    assert error.value.code == "nothing_to_generate"
    play_out(stage)
    final = stage.matches.get(bracket_id="W3-1")
    assert final.winner == teams[0]
    view = stage_selectors.stage_bracket(stage=stage)
    assert view.bracket.champion == teams[0].pk
    assert set(view.matches) == {"W1-2", "W1-3", "W2-1", "W2-2", "W3-1"}


def test_a_walkover_advances_the_winner(championship, make_teams):
    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    one_v_four, two_v_three = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.pk)
    result_services.match_walkover(match=one_v_four, winner=teams[3], reason="No se presentó")
    play(two_v_three, teams[1])
    final = stage.matches.get(bracket_id="W2-1")
    assert {final.team_a_id, final.team_b_id} == {teams[3].pk, teams[1].pk}


def test_double_elimination_grand_final_reset(championship, make_teams):
    teams = make_teams(championship, 4)
    stage = stage_services.stage_create(championship=championship, format="double_elimination")
    play_round(stage_services.round_generate(stage=stage))  # 1 beats 4, 2 beats 3
    play_round(stage.matches.filter(status=Match.Status.SCHEDULED))  # W final, L1
    play_round(stage.matches.filter(status=Match.Status.SCHEDULED))  # L2: 2 v 3
    grand_final = stage.matches.get(bracket_id="GF")
    assert [grand_final.team_a_id, grand_final.team_b_id] == [teams[0].pk, teams[1].pk]
    # The losers-bracket champion wins the grand final: both have lost once, a reset.
    play(grand_final, teams[1])
    reset = stage.matches.get(bracket_id="GF2")
    assert {reset.team_a_id, reset.team_b_id} == {teams[0].pk, teams[1].pk}
    play(reset, teams[1])
    assert stage_selectors.stage_bracket(stage=stage).bracket.champion == teams[1].pk
    # Correcting the reset's last hand reopens it; the grand final cannot change any more.
    result_services.hand_delete_last(match=reset)
    assert stage_selectors.stage_bracket(stage=stage).bracket.champion is None
    with pytest.raises(TournamentError) as error:
        result_services.hand_delete_last(match=grand_final)
    assert error.value.code == "bracket_conflict"


def test_groups_then_knockout_with_the_crossing(championship, make_teams):
    teams = make_teams(championship, 8)
    stage = stage_services.stage_create(
        championship=championship,
        format="groups_knockout",
        settings={"group_count": 2, "advance": 2},
    )
    for _ in range(3):
        play_round(stage_services.round_generate(stage=stage))
    groups = {g.name: g for g in stage.groups.all()}
    # Snake seeding: A gets seeds 1, 4, 5, 8 and B 2, 3, 6, 7.
    assert sorted(t.seed for t in groups["A"].teams.all()) == [1, 4, 5, 8]
    a1, a2 = (
        line.team for line in standing_selectors.stage_standings(stage=stage, group=groups["A"])[:2]
    )
    b1, b2 = (
        line.team for line in standing_selectors.stage_standings(stage=stage, group=groups["B"])[:2]
    )

    semis = stage_services.round_generate(stage=stage)
    assert {frozenset((m.team_a_id, m.team_b_id)) for m in semis} == {
        frozenset((a1.pk, b2.pk)),
        frozenset((b1.pk, a2.pk)),
    }
    play_round(semis)
    play_out(stage)
    assert stage_selectors.stage_bracket(stage=stage).bracket.champion == teams[0].pk
    # Group standings ignore the knockout.
    assert sum(line.played for line in standing_selectors.stage_standings(stage=stage)) == 24
