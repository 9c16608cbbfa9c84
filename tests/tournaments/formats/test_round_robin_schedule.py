"""Round robin schedules: every pair once per cycle, one match a round, byes spread."""

from collections import Counter
from itertools import combinations

import pytest

from tournaments.formats.base import FormatError
from tournaments.formats.round_robin import round_robin


def _cycle_rounds(rounds, cycle):
    return [r for r in rounds if r.cycle == cycle]


@pytest.mark.parametrize("cycles", [1, 2])
@pytest.mark.parametrize("n", range(2, 21))
def test_every_pair_meets_once_per_cycle_and_once_a_round(n, cycles):
    teams = [f"team-{k}" for k in range(n)]
    rounds = round_robin(teams, cycles=cycles)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_cycle * cycles
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    for cycle in range(1, cycles + 1):
        met = Counter(p.teams for r in _cycle_rounds(rounds, cycle) for p in r.pairings)
        assert set(met) == {frozenset(pair) for pair in combinations(teams, 2)}
        assert set(met.values()) == {1}
    for r in rounds:
        playing = [t for p in r.pairings for t in (p.home, p.away)]
        if r.bye is not None:
            playing.append(r.bye)
        assert sorted(playing) == sorted(teams), "each team exactly once a round"
        assert (r.bye is None) == (n % 2 == 0)


@pytest.mark.parametrize("n", [3, 5, 7, 9, 15, 19])
def test_odd_count_gives_every_team_one_bye_per_cycle(n):
    rounds = round_robin(range(n), cycles=2)
    for cycle in (1, 2):
        byes = Counter(r.bye for r in _cycle_rounds(rounds, cycle))
        assert byes == Counter(range(n))


@pytest.mark.parametrize("n", range(2, 21))
def test_home_and_away_balanced_and_second_cycle_mirrors_first(n):
    rounds = round_robin(range(n), cycles=2)
    first, second = _cycle_rounds(rounds, 1), _cycle_rounds(rounds, 2)
    home = Counter(p.home for r in first for p in r.pairings)
    away = Counter(p.away for r in first for p in r.pairings)
    assert all(abs(home[t] - away[t]) <= 1 for t in range(n))
    for a, b in zip(first, second, strict=True):
        assert [(p.away, p.home) for p in a.pairings] == [(p.home, p.away) for p in b.pairings]
        assert a.bye == b.bye


def test_without_seed_the_given_order_is_kept():
    rounds = round_robin(["A", "B", "C", "D", "E", "F"])
    assert rounds[0].pairings[0].teams == {"A", "F"}
    assert round_robin(["A", "B", "C", "D", "E", "F"]) == rounds


def test_seed_shuffles_reproducibly():
    teams = list(range(1, 11))
    assert round_robin(teams, seed="liga-2026") == round_robin(teams, seed="liga-2026")
    schedules = {tuple(p.teams for p in round_robin(teams, seed=s)[0].pairings) for s in range(10)}
    assert len(schedules) > 1, "different seeds give different draws"


@pytest.mark.parametrize(
    ("teams", "cycles", "code"),
    [
        ([1], 1, "too_few_teams"),
        ([1, 2, 1], 1, "duplicate_team"),
        ([1, None], 1, "bad_team"),
        ([1, 2, 3], 3, "bad_cycles"),
    ],
)
def test_bad_input_is_refused_with_a_code(teams, cycles, code):
    with pytest.raises(FormatError) as info:
        round_robin(teams, cycles=cycles)
    assert info.value.code == code
