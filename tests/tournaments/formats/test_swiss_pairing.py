"""Swiss rounds over simulated tournaments, checked against a brute-force optimum."""

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats.base import FormatError
from tournaments.formats.swiss import SwissTeam, swiss_pairings, swiss_teams


class Tournament:
    """A simulated Swiss: random results, the standing re-sorted after every round."""

    def __init__(self, n: int, rnd: random.Random) -> None:
        self.rnd = rnd
        self.teams = list(range(1, n + 1))
        self.score = Counter()
        self.opponents = {t: set() for t in self.teams}
        self.byes = Counter()
        self.history = []

    def standing(self) -> list[SwissTeam]:
        tie_order = {t: self.rnd.random() for t in self.teams}
        order = sorted(self.teams, key=lambda t: (-self.score[t], tie_order[t]))
        return swiss_teams(order, self.score, self.opponents, byes=+self.byes)

    def play(self, standing: list[SwissTeam]):
        pairing = swiss_pairings(standing)
        for p in pairing.pairings:
            self.opponents[p.home].add(p.away)
            self.opponents[p.away].add(p.home)
            self.score[self.rnd.choice((p.home, p.away))] += 1
        if pairing.bye is not None:
            self.byes[pairing.bye] += 1
            self.score[pairing.bye] += 1
        self.history.append(pairing)
        return pairing


def _ranked(standing):
    return sorted(standing, key=lambda t: -t.score)


def _key(ranked, pairs, bye):
    """What the pairing optimises, in order: rematches, bye rank, score-group distance."""
    groups = sorted({t.score for t in ranked}, reverse=True)
    group = {t.id: groups.index(t.score) for t in ranked}
    index = {t.id: k for k, t in enumerate(ranked)}
    by_id = {t.id: t for t in ranked}
    rematches = sum(1 for a, b in pairs if b in by_id[a].opponents)
    bye_cost = 0
    if bye is not None:
        bye_cost = sum(1 for t in ranked if not t.had_bye and index[t.id] > index[bye])
    distance = sum((group[a] - group[b]) ** 2 for a, b in pairs)
    return rematches, bye_cost, distance


def _all_pairings(ids):
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for k, other in enumerate(rest):
        for tail in _all_pairings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def _brute_force_best(ranked):
    ids = [t.id for t in ranked]
    options = []
    if len(ids) % 2:
        for t in ranked:
            if not t.had_bye:
                remaining = [i for i in ids if i != t.id]
                options += [(p, t.id) for p in _all_pairings(remaining)]
    else:
        options = [(p, None) for p in _all_pairings(ids)]
    return min(_key(ranked, pairs, bye) for pairs, bye in options)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 10), seed=st.integers(0, 10**6), data=st.data())
def test_swiss_rounds_match_the_brute_force_optimum(n, seed, data):
    rounds = data.draw(st.integers(1, n - 1), label="rounds")
    tournament = Tournament(n, random.Random(seed))
    for _ in range(rounds):
        standing = tournament.standing()
        ranked = _ranked(standing)
        pairing = tournament.play(standing)
        pairs = [(p.home, p.away) for p in pairing.pairings]
        seen = [t for pair in pairs for t in pair] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seen) == tournament.teams, "every team once: paired or bye"
        # No rematch while one can be avoided, the bye as low as possible, and score
        # groups kept together as far as possible: the brute-force optimum.
        assert _key(ranked, pairs, pairing.bye) == _brute_force_best(ranked)
        assert len(pairing.rematches) == _key(ranked, pairs, pairing.bye)[0]
    assert max(tournament.byes.values(), default=0) <= 1, "one bye per team at most"


@pytest.mark.parametrize("n", [65, 101, 150])
def test_larger_fields_use_the_window_and_keep_the_rules(n):
    tournament = Tournament(n, random.Random(n))
    for _ in range(6):
        standing = tournament.standing()
        ranked = _ranked(standing)
        groups = sorted({t.score for t in ranked}, reverse=True)
        pairing = tournament.play(standing)
        assert not pairing.rematches
        group = {t.id: groups.index(t.score) for t in ranked}
        crossings = [p for p in pairing.pairings if group[p.home] != group[p.away]]
        # A float is needed only where a group is odd: one per group boundary at most.
        assert len(crossings) <= len(groups) - 1
        assert all(abs(group[p.home] - group[p.away]) == 1 for p in crossings)
        if pairing.bye is not None:
            without = [t.id for t in ranked if not t.had_bye]
            assert pairing.bye == without[-1], "bye to the lowest-ranked team without one"
    assert set(tournament.byes.values()) <= {1}


def test_first_round_pairs_top_half_against_bottom_half():
    result = swiss_pairings([SwissTeam(t) for t in range(1, 9)])
    assert [(p.home, p.away) for p in result.pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert result.bye is None


def test_winners_meet_winners():
    standing = [
        SwissTeam("A", 1, frozenset("E")),
        SwissTeam("B", 1, frozenset("F")),
        SwissTeam("C", 1, frozenset("G")),
        SwissTeam("D", 1, frozenset("H")),
        SwissTeam("E", 0, frozenset("A")),
        SwissTeam("F", 0, frozenset("B")),
        SwissTeam("G", 0, frozenset("C")),
        SwissTeam("H", 0, frozenset("D")),
    ]
    result = swiss_pairings(standing)
    assert [(p.home, p.away) for p in result.pairings] == [
        ("A", "C"),
        ("B", "D"),
        ("E", "G"),
        ("F", "H"),
    ]


def test_standing_is_sorted_by_score_keeping_the_given_order_inside_a_group():
    standing = [SwissTeam("low", 0), SwissTeam("top", 2), SwissTeam("mid", 0), SwissTeam("x", 2)]
    result = swiss_pairings(standing)
    assert [(p.home, p.away) for p in result.pairings] == [("top", "x"), ("low", "mid")]


def test_rematch_only_when_no_other_pairing_exists():
    standing = [SwissTeam("A", 1, frozenset("B")), SwissTeam("B", 0, frozenset("A"))]
    result = swiss_pairings(standing)
    assert [(p.home, p.away) for p in result.pairings] == [("A", "B")]
    assert [(p.home, p.away) for p in result.rematches] == [("A", "B")]


def test_bye_skips_teams_that_had_one():
    standing = [SwissTeam(1, 2), SwissTeam(2, 1), SwissTeam(3, 1, had_bye=True)]
    assert swiss_pairings(standing).bye == 2


def test_same_input_same_pairing():
    tournament = Tournament(40, random.Random(3))
    for _ in range(3):
        tournament.play(tournament.standing())
    standing = tournament.standing()
    assert swiss_pairings(standing) == swiss_pairings(list(standing))


def test_no_bye_left_is_a_clear_error():
    standing = [SwissTeam(t, had_bye=True) for t in (1, 2, 3)]
    with pytest.raises(FormatError) as info:
        swiss_pairings(standing)
    assert info.value.code == "no_bye_left"


def test_duplicate_team_is_refused():
    with pytest.raises(FormatError) as info:
        swiss_pairings([SwissTeam(1), SwissTeam(1)])
    assert info.value.code == "duplicate_team"


@pytest.mark.parametrize("n", [65, 101, 160])
def test_candidate_window_reaches_the_complete_graph_optimum(n, monkeypatch):
    from tournaments.formats import swiss

    tournament = Tournament(n, random.Random(n * 7))
    for _ in range(10):
        standing = tournament.standing()
        ranked = _ranked(standing)
        windowed = swiss_pairings(standing)
        monkeypatch.setattr(swiss, "EXACT_LIMIT", n)
        complete = swiss_pairings(standing)
        monkeypatch.undo()

        def key(result, ranked=ranked):
            return _key(ranked, [(p.home, p.away) for p in result.pairings], result.bye)

        assert key(windowed) == key(complete)
        tournament.play(standing)
