"""Tables of three: Swiss rounds of tables, the round robin of tables, the final table."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    FormatError,
    final_table,
    table_sizes,
    tables_round_robin,
    tables_swiss,
)


def partitions(items: list[int], sizes: list[int]):
    """Every way to cut ``items`` into groups of the given sizes (brute force)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [i for i in rest if i not in others]
            for tail in partitions(remaining, left):
                yield [(first, *others), *tail]


def repeats_of(tables, met) -> int:
    return sum(b in met.get(a, ()) for t in tables for a, b in itertools.combinations(t, 2))


def random_history(rng: random.Random, n: int, rounds: int):
    """Meetings and byes from ``rounds`` random earlier rounds of tables."""
    met: dict[int, set[int]] = {p: set() for p in range(n)}
    byes: list[int] = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        cut = n - n % 3 if rng.random() < 0.5 else n
        for k in range(0, cut, 3):
            table = order[k : k + 3]
            for p in table:
                met[p] |= set(table) - {p}
        byes += order[cut:]
    return met, byes


def check_shape(result, players, remainder, byes_had):
    threes, twos, bye_count = table_sizes(len(players), remainder)
    sizes = Counter(len(t) for t in result.tables)
    assert sizes[3] == threes and sizes[2] == twos and len(result.byes) == bye_count
    seated = [p for t in result.tables for p in t] + list(result.byes)
    assert sorted(seated) == sorted(players)
    # Byes to the players with the fewest byes so far (none while someone has none).
    had = Counter(byes_had)
    outside = [had[p] for p in players if p not in result.byes]
    if result.byes and outside:
        assert max(had[p] for p in result.byes) <= min(outside)


@settings(max_examples=120, deadline=None)
@given(
    st.integers(3, 11),
    st.integers(0, 6),
    st.sampled_from(["table_of_two", "bye"]),
    st.randoms(use_true_random=False),
)
def test_small_fields_match_brute_force(n, rounds, remainder, rng):
    players = list(range(n))
    met, byes = random_history(rng, n, rounds)
    result = tables_swiss(players, {}, met, remainder=remainder, byes=byes)
    check_shape(result, players, remainder, byes)
    assert result.exact
    assert len(result.repeats) == repeats_of(result.tables, met)
    # The fewest repeats over every seating and every allowed set of byes.
    threes, twos, bye_count = table_sizes(n, remainder)
    had = Counter(byes)
    fewest_byes = sorted(had[p] for p in players)[bye_count - 1] if bye_count else 0
    best = None
    for out in itertools.combinations(players, bye_count):
        if any(had[p] > fewest_byes for p in out):
            continue
        if any(had[p] < fewest_byes for p in players if p not in out):
            continue
        rest = [p for p in players if p not in out]
        for seating in partitions(rest, [3] * threes + [2] * twos):
            cost = repeats_of(seating, met)
            best = cost if best is None else min(best, cost)
            if best == 0:
                break
        if best == 0:
            break
    assert len(result.repeats) == best


@settings(max_examples=40, deadline=None)
@given(
    st.integers(12, 60),
    st.integers(0, 8),
    st.sampled_from(["table_of_two", "bye"]),
    st.randoms(use_true_random=False),
)
def test_larger_fields_seat_everyone_without_repeats(n, rounds, remainder, rng):
    players = list(range(n))
    met, byes = random_history(rng, n, rounds)
    result = tables_swiss(players, {}, met, remainder=remainder, byes=byes)
    check_shape(result, players, remainder, byes)
    assert result.exact
    # With at most 16 earlier opponents out of 11 or more, a seating without a repeat
    # exists for these fields; the search must find it.
    if n >= 3 * 2 * rounds + 6:
        assert result.repeats == ()
    assert len(result.repeats) == repeats_of(result.tables, met)


def test_swiss_rounds_of_nine_players_never_repeat_for_four_rounds():
    players = list(range(9))
    met: dict[int, set[int]] = {p: set() for p in players}
    points = dict.fromkeys(players, 0)
    for _ in range(4):
        order = sorted(players, key=lambda p: -points[p])
        result = tables_swiss(order, points, met)
        assert result.repeats == ()
        for table in result.tables:
            for place, p in enumerate(table):
                points[p] += (3, 1, 0)[place]
                met[p] |= set(table) - {p}
    assert all(len(met[p]) == 8 for p in players)


def test_similar_standings_sit_together_and_the_same_input_gives_the_same_round():
    players = [f"p{i}" for i in range(12)]
    points = {p: 12 - i for i, p in enumerate(players)}
    first = tables_swiss(players, points, {})
    assert first.tables == (
        ("p0", "p1", "p2"),
        ("p3", "p4", "p5"),
        ("p6", "p7", "p8"),
        ("p9", "p10", "p11"),
    )
    assert tables_swiss(players, points, {}) == first
    # A seed draws lots among players level on points, reproducibly.
    level = tables_swiss(players, {}, {}, seed="cup")
    assert level == tables_swiss(list(reversed(players)), {}, {}, seed="cup")


def test_remainder_rules():
    assert table_sizes(4) == (0, 2, 0) and table_sizes(5) == (1, 1, 0)
    assert table_sizes(7) == (1, 2, 0) and table_sizes(8) == (2, 1, 0)
    assert table_sizes(7, "bye") == (2, 0, 1) and table_sizes(8, "bye") == (2, 0, 2)
    bye = tables_swiss(list("abcdefgh"), remainder="bye", byes=["h"])
    assert bye.byes == ("f", "g")
    with pytest.raises(FormatError) as caught:
        tables_swiss(list("abcd"), remainder="sit")
    assert caught.value.code == "bad_remainder"
    with pytest.raises(FormatError):
        tables_swiss(["a", "b"])


def pair_counts(rounds) -> Counter:
    return Counter(
        frozenset(pair)
        for r in rounds
        for table in r.tables
        for pair in itertools.combinations(table, 2)
    )


def test_round_robin_of_nine_every_pair_exactly_once_in_four_rounds():
    rounds = tables_round_robin(range(9), seed=4)
    assert len(rounds) == 4
    for r in rounds:
        assert sorted(p for t in r.tables for p in t) == list(range(9))
        assert all(len(t) == 3 for t in r.tables)
    counts = pair_counts(rounds)
    assert len(counts) == 36 and set(counts.values()) == {1}


@pytest.mark.parametrize(
    ("n", "rounds", "low", "high"),
    [(3, 1, 1, 1), (6, 4, 1, None), (7, 7, 2, 2), (12, 4, 0, 1), (15, 7, 1, 1)],
)
def test_round_robin_guarantees(n, rounds, low, high):
    schedule = tables_round_robin(range(n))
    assert len(schedule) == rounds
    for r in schedule:
        assert sorted([p for t in r.tables for p in t] + list(r.byes)) == list(range(n))
        assert all(len(t) == 3 for t in r.tables)
    counts = pair_counts(schedule)
    every_pair = [counts[frozenset(p)] for p in itertools.combinations(range(n), 2)]
    assert min(every_pair) >= low
    if high is not None:
        assert max(every_pair) <= high
    if n == 7:
        assert sorted(b for r in schedule for b in r.byes) == list(range(7))


@pytest.mark.parametrize("n", [1, 2, 4, 5, 8, 10, 11, 13, 18])
def test_round_robin_refuses_other_fields(n):
    with pytest.raises(FormatError) as caught:
        tables_round_robin(range(n))
    assert caught.value.code == "tables_size"


def test_final_table():
    assert final_table([5, 3, 9, 1]) == (5, 3, 9)
    with pytest.raises(FormatError):
        final_table([1, 2])
