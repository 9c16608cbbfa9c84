"""Groups then knockout: snake seeding, and the crossing of group places in the bracket."""

from collections import Counter

import pytest

from tournaments.formats.base import FormatError
from tournaments.formats.elimination import Outcome
from tournaments.formats.groups import groups_knockout, knockout_positions, snake_groups


def test_snake_seeding_of_sixteen_into_four_groups():
    assert snake_groups(range(1, 17), 4) == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]


@pytest.mark.parametrize(("n", "g"), [(8, 2), (12, 3), (17, 4), (30, 6), (9, 4)])
def test_snake_groups_are_balanced(n, g):
    groups = snake_groups(range(1, n + 1), g)
    assert sorted(t for group in groups for t in group) == list(range(1, n + 1))
    sizes = [len(group) for group in groups]
    assert max(sizes) - min(sizes) <= 1
    # Each pot of g seeds sends exactly one team to every group.
    for pot in range(n // g):
        assert sorted(next(t for t in grp if pot * g < t <= (pot + 1) * g) for grp in groups) == (
            list(range(pot * g + 1, (pot + 1) * g + 1))
        )


def test_too_many_groups_is_refused():
    with pytest.raises(FormatError) as info:
        snake_groups(range(5), 3)
    assert info.value.code == "bad_group_count"


def _rankings(groups, per_group):
    return [[f"{chr(65 + g)}{p}" for p in range(1, per_group + 1)] for g in range(groups)]


def test_classic_crossing_winners_meet_runners_up_of_the_neighbour_group():
    positions = knockout_positions(_rankings(4, 4), 2)
    pairs = {frozenset(p) for p in zip(positions[::2], positions[1::2], strict=True)}
    assert pairs == {
        frozenset(("A1", "B2")),
        frozenset(("B1", "A2")),
        frozenset(("C1", "D2")),
        frozenset(("D1", "C2")),
    }


@pytest.mark.parametrize("groups", [2, 4, 8])
def test_two_from_each_group_meet_their_group_mate_only_in_the_final(groups):
    positions = knockout_positions(_rankings(groups, 3), 2)
    half = len(positions) // 2
    for g in range(groups):
        name = chr(65 + g)
        top = {positions.index(f"{name}1") < half, positions.index(f"{name}2") < half}
        assert top == {True, False}, f"group {name}'s teams are in opposite halves"
    for a, b in zip(positions[::2], positions[1::2], strict=True):
        assert a.endswith("1") != b.endswith("1"), "a winner meets a runner-up"


@pytest.mark.parametrize(("groups", "advance"), [(3, 2), (5, 2), (3, 3), (6, 1), (4, 3)])
def test_byes_go_to_the_group_winners_first(groups, advance):
    positions = knockout_positions(_rankings(groups, 4), advance)
    entrants = [p for p in positions if p is not None]
    assert Counter(entrants) == Counter(
        f"{chr(65 + g)}{p}" for g in range(groups) for p in range(1, advance + 1)
    )
    with_bye = [
        a if a is not None else b
        for a, b in zip(positions[::2], positions[1::2], strict=True)
        if a is None or b is None
    ]
    assert len(with_bye) == len(positions) - len(entrants)
    places = sorted(int(team[1:]) for team in with_bye)
    every_place = sorted(int(team[1:]) for team in entrants)
    assert places == every_place[: len(places)], "the best places get the byes"


def test_groups_knockout_builds_a_playable_bracket():
    bracket = groups_knockout(_rankings(3, 3), 2)
    assert sum(1 for m in bracket.matches.values() if m.outcome is Outcome.BYE) == 2
    while ready := bracket.ready():
        bracket.report(ready[0].id, min(ready[0].teams, key=lambda t: (t[1:], t)))
    assert bracket.champion == "A1"


def test_group_smaller_than_the_places_advancing_is_refused():
    with pytest.raises(FormatError) as info:
        knockout_positions([["A1", "A2"], ["B1"]], 2)
    assert info.value.code == "group_too_small"
    with pytest.raises(FormatError):
        knockout_positions([["A1"]], 1)
