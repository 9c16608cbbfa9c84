"""Single and double elimination: seeding, byes, advancement, walkovers, the reset."""

import random
from collections import Counter

import pytest

from tournaments.formats.base import FormatError
from tournaments.formats.elimination import (
    Outcome,
    Section,
    bracket_from_positions,
    bracket_size,
    double_elimination,
    seed_order,
    seeded_positions,
    single_elimination,
)


def _play(bracket, choose):
    """Play every ready match with ``choose(match) -> winner`` until nothing is ready."""
    played = []
    while ready := bracket.ready():
        match = ready[0]
        bracket.report(match.id, choose(match))
        played.append(match.id)
    return played


def _favourite(match):
    return min(match.teams)  # teams are their seeds: the lower number is the favourite


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seed_order_keeps_top_seeds_apart(size):
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    pairs = list(zip(order[::2], order[1::2], strict=True))
    assert all(a + b == size + 1 and a < b for a, b in pairs)
    # With favourites winning, round r is contested by seeds 1..size/2^(r-1) only.
    survivors = order
    while len(survivors) > 1:
        survivors = [min(p) for p in zip(survivors[::2], survivors[1::2], strict=True)]
        assert sorted(survivors) == list(range(1, len(survivors) + 1))


def test_seed_order_of_sixteen_is_the_standard_one():
    pairs = list(zip(*[iter(seed_order(16))] * 2, strict=True))
    assert pairs == [
        (1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)
    ]  # fmt: skip


@pytest.mark.parametrize("n", range(2, 34))
def test_single_elimination_byes_go_to_top_seeds_and_favourites_reach_the_final(n):
    bracket = single_elimination(range(1, n + 1))
    size = bracket_size(n)
    first_round = [m for m in bracket.matches.values() if m.round == 1]
    assert len(first_round) == size // 2
    byes = sorted(m.winner for m in first_round if m.outcome is Outcome.BYE)
    assert byes == list(range(1, size - n + 1))
    played = _play(bracket, _favourite)
    assert len(played) == n - 1, "every match but the byes is played"
    assert sorted(bracket.final.teams) == [1, 2], "1 and 2 meet in the final"
    assert bracket.champion == 1 and bracket.finished
    # Seeds 1 and 2 never meet before the final.
    for match in bracket.matches.values():
        if match.id != bracket.final.id:
            assert set(match.teams) != {1, 2}


@pytest.mark.parametrize("n", [2, 5, 12, 17, 33])
def test_single_elimination_every_team_but_the_champion_loses_once(n):
    rnd = random.Random(n)
    bracket = single_elimination([f"t{k}" for k in range(n)])
    _play(bracket, lambda m: rnd.choice(m.teams))
    losses = Counter(m.loser for m in bracket.matches.values() if m.loser is not None)
    assert set(losses.values()) == {1}
    assert set(losses) | {bracket.champion} == {f"t{k}" for k in range(n)}


def test_advancing_fills_the_next_slot_and_a_walkover_is_recorded():
    bracket = single_elimination(["a", "b", "c", "d"])
    assert [(m.id, m.teams) for m in bracket.ready()] == [
        ("W1-1", ["a", "d"]),
        ("W1-2", ["b", "c"]),
    ]
    assert bracket.report("W1-1", "d") == ["W1-1", "W2-1"]
    assert bracket["W2-1"].teams == ["d", None]
    assert not bracket["W2-1"].ready
    bracket.report("W1-2", "b", outcome=Outcome.WALKOVER)
    assert bracket["W1-2"].outcome is Outcome.WALKOVER
    assert bracket["W1-2"].loser == "c"
    assert bracket["W2-1"].teams == ["d", "b"]
    assert bracket.champion is None
    bracket.report("W2-1", "b", outcome="forfeit")
    assert bracket.champion == "b"
    assert bracket["W2-1"].outcome is Outcome.FORFEIT


@pytest.mark.parametrize(
    ("match_id", "winner", "outcome", "code"),
    [
        ("W9-9", "a", Outcome.PLAYED, "unknown_match"),
        ("W2-1", "a", Outcome.PLAYED, "not_ready"),
        ("W1-1", "b", Outcome.PLAYED, "not_in_match"),
        ("W1-1", "a", Outcome.BYE, "bad_outcome"),
    ],
)
def test_bad_reports_are_refused_and_change_nothing(match_id, winner, outcome, code):
    bracket = single_elimination(["a", "b", "c", "d"])
    before = {k: (list(m.teams), m.winner) for k, m in bracket.matches.items()}
    with pytest.raises(FormatError) as info:
        bracket.report(match_id, winner, outcome=outcome)
    assert info.value.code == code
    assert {k: (list(m.teams), m.winner) for k, m in bracket.matches.items()} == before


def test_a_decided_match_cannot_be_reported_again():
    bracket = single_elimination(["a", "b", "c"])
    with pytest.raises(FormatError) as info:
        bracket.report("W1-1", "a")  # a bye
    assert info.value.code == "already_decided"
    bracket.report("W1-2", "b")
    with pytest.raises(FormatError):
        bracket.report("W1-2", "c")
    assert bracket["W2-1"].teams == ["a", "b"]


def test_an_unknown_outcome_is_refused():
    bracket = single_elimination(["a", "b"])
    with pytest.raises(FormatError) as info:
        bracket.report("W1-1", "a", outcome="abandoned")
    assert info.value.code == "bad_outcome"
    assert bracket.champion is None


@pytest.mark.parametrize("n", [3, 4, 6, 8, 11])
def test_third_place_match_between_the_semi_final_losers(n):
    bracket = single_elimination(range(1, n + 1), third_place=True)
    _play(bracket, _favourite)
    assert bracket.champion == 1 and bracket.finished
    third = bracket["P3"]
    if n == 3:  # seed 1 had a bye in the semi-final: seed 3 is third without playing
        assert third.outcome is Outcome.BYE and third.winner == 3
    else:
        assert sorted(third.teams) == [3, 4] and third.winner == 3


def test_finished_waits_for_the_third_place_match():
    bracket = single_elimination([1, 2, 3, 4], third_place=True)
    for mid in ("W1-1", "W1-2", "W2-1"):
        bracket.report(mid, min(bracket[mid].teams))
    assert bracket.champion == 1 and not bracket.finished
    bracket.report("P3", 4)
    assert bracket.finished


@pytest.mark.parametrize("double", [False, True])
def test_replaying_stored_results_rebuilds_the_same_bracket(double):
    rnd = random.Random(9)
    positions = seeded_positions(range(1, 12))
    bracket = bracket_from_positions(positions, double=double)
    log = []
    while ready := bracket.ready():
        match = ready[-1]
        winner = rnd.choice(match.teams)
        outcome = rnd.choice([Outcome.PLAYED, Outcome.WALKOVER, "forfeit"])
        bracket.report(match.id, winner, outcome=outcome)
        log.append((match.id, winner, outcome))
    rebuilt = bracket_from_positions(positions, double=double)
    for match_id, winner, outcome in log:
        rebuilt.report(match_id, winner, outcome=outcome)
    assert rebuilt == bracket
    assert rebuilt.champion == bracket.champion is not None


def test_positions_must_fill_a_power_of_two():
    with pytest.raises(FormatError) as info:
        bracket_from_positions(["a", "b", "c"])
    assert info.value.code == "bad_size"
    with pytest.raises(FormatError):
        single_elimination(["a"])


@pytest.mark.parametrize("reset", [True, False])
@pytest.mark.parametrize("n", range(2, 21))
def test_double_elimination_out_after_exactly_two_losses(n, reset):
    for trial in range(4):
        rnd = random.Random(f"{n}-{trial}")
        teams = list(range(1, n + 1))
        bracket = double_elimination(teams, reset=reset)
        lost_at: dict[int, list[str]] = {t: [] for t in teams}

        def choose(match, rnd=rnd, lost_at=lost_at):
            for team in match.teams:
                assert len(lost_at[team]) < 2, "an eliminated team never plays again"
            winner = rnd.choice(match.teams)
            loser = match.teams[1] if winner == match.teams[0] else match.teams[0]
            lost_at[loser].append(match.id)
            return winner

        played = _play(bracket, choose)
        champion = bracket.champion
        assert champion is not None and bracket.finished
        gf = bracket["GF"]
        lb_won_final = gf.winner == gf.teams[1]
        second_final = reset and lb_won_final
        assert len(played) == 2 * n - 2 + second_final
        for team in teams:
            if team == champion:
                assert len(lost_at[team]) <= 1
            elif team == gf.teams[0] and lb_won_final and not reset:
                assert len(lost_at[team]) == 1, "without a reset one final loss ends it"
            else:
                assert len(lost_at[team]) == 2, f"team {team} went out after two losses"
            assert bracket.losses(team) == len(lost_at[team])


def test_grand_final_reset_is_played_only_when_the_losers_bracket_team_wins():
    def run(lb_wins_final, reset=True):
        bracket = double_elimination([1, 2, 3, 4], reset=reset)
        for mid in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
            bracket.report(mid, min(bracket[mid].teams))
        assert bracket["GF"].teams == [1, 2]
        assert bracket["GF"].section is Section.FINAL
        bracket.report("GF", 2 if lb_wins_final else 1)
        return bracket

    bracket = run(lb_wins_final=False)
    assert bracket["GF2"].void and bracket.champion == 1 and not bracket.ready()
    bracket = run(lb_wins_final=True)
    assert bracket["GF2"].ready and bracket["GF2"].teams == [2, 1]
    assert bracket.champion is None
    bracket.report("GF2", 1)
    assert bracket.champion == 1
    bracket = run(lb_wins_final=True, reset=False)
    assert "GF2" not in bracket.matches and bracket.champion == 2


def test_losers_bracket_is_fed_in_alternating_order():
    bracket = double_elimination(range(1, 9))
    assert bracket["L1-1"].sources == ("loser W1-1", "loser W1-2")
    # Losers of winners round 2 drop in reversed order, so they avoid their own quarter.
    assert bracket["W2-1"].loser_to.match == "L2-2"
    assert bracket["W2-2"].loser_to.match == "L2-1"
    assert bracket["W3-1"].loser_to.match == "L4-1"
    assert bracket["L4-1"].winner_to.match == "GF"
    assert len(bracket.matches) == 2 * 8 - 1


def test_byes_flow_through_the_losers_bracket():
    bracket = double_elimination([1, 2, 3, 4, 5])  # bracket of 8, three byes
    assert [(m.id, m.teams) for m in bracket.ready()] == [("W1-2", [4, 5]), ("W2-2", [3, 2])]
    assert bracket["L1-2"].void, "two byes above it: nobody drops into it"
    assert not bracket["L1-1"].decided
    bracket.report("W1-2", 4)
    assert bracket["L1-1"].outcome is Outcome.BYE and bracket["L1-1"].winner == 5
    assert bracket["L2-1"].teams == [5, None]
    assert bracket["L2-2"].empty == [True, False]
    bracket.report("W2-1", 1)
    assert bracket["L2-2"].winner == 4, "the loser of W2-1 passes the empty slot"
    assert bracket.losses(4) == 1 and bracket.losses(5) == 1
