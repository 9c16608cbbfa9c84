"""A table's placement (docs/rules.md "A table's placement"): who is first, second and
third at a table of three, from the engine's own scoring."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring import Game, MatchState, table_placement

SIDES = ("X", "Y", "Z")
POR_TURNO = {
    "teams": {"X": ["xavi"], "Y": ["yago"], "Z": ["zoe"]},
    "seats": ["xavi", "yago", "zoe"],
}


def state(score, wins=(0, 0, 0), games=(), winner=None) -> MatchState:
    return MatchState(
        hands=10,
        mano=0,
        score=dict(zip(SIDES, score, strict=True)),
        wins=dict(zip(SIDES, wins, strict=True)),
        games=tuple(Game(w, dict(zip(SIDES, s, strict=True))) for w, s in games),
        winner=winner,
    )


def places(result) -> list[tuple[str, int]]:
    return [(p.side, p.place) for p in result]


CASES = [
    # A table stopped in its first chico: the running score decides.
    ("first chico, time called", state((9, 12, 4)), [("Y", 1), ("X", 2), ("Z", 3)]),
    # Chicos come first, whatever the running score.
    (
        "a chico beats tantos",
        state((0, 14, 10), wins=(1, 0, 0), games=[("X", (15, 7, 3))]),
        [("X", 1), ("Y", 2), ("Z", 3)],
    ),
    # The last hand closed a chico: the last chico is that chico's final score.
    (
        "last hand closed a chico",
        state((0, 0, 0), wins=(1, 0, 0), games=[("X", (15, 6, 11))]),
        [("X", 1), ("Z", 2), ("Y", 3)],
    ),
    # Equal chicos and last chico: the tantos over the match decide.
    (
        "tantos over the match",
        state((5, 5, 2), wins=(1, 1, 0), games=[("X", (15, 13, 9)), ("Y", (4, 15, 14))]),
        [("Y", 1), ("X", 2), ("Z", 3)],
    ),
    # Equal on everything: a shared place, the next place skipped.
    (
        "shared first place",
        state((7, 7, 3)),
        [("X", 1), ("Y", 1), ("Z", 3)],
    ),
    ("shared second place", state((8, 3, 3)), [("X", 1), ("Y", 2), ("Z", 2)]),
    ("all equal", state((0, 0, 0)), [("X", 1), ("Y", 1), ("Z", 1)]),
    # A decided match: the winner first, the others by their tantos in the last chico.
    (
        "decided match",
        state(
            (0, 0, 0),
            wins=(2, 0, 0),
            games=[("X", (15, 3, 8)), ("X", (15, 4, 12))],
            winner="X",
        ),
        [("X", 1), ("Z", 2), ("Y", 3)],
    ),
]


@pytest.mark.parametrize(("name", "match", "expected"), CASES, ids=[c[0] for c in CASES])
def test_placement_table(name, match, expected):
    assert places(table_placement(match)) == expected


def test_the_figures_are_reported():
    match = state((5, 5, 2), wins=(1, 1, 0), games=[("X", (15, 13, 9)), ("Y", (4, 15, 14))])
    first = table_placement(match)[0]
    assert (first.side, first.chicos, first.last_chico, first.tantos) == ("Y", 1, 5, 33)


def test_the_chain_is_a_championship_option():
    match = state((5, 5, 2), wins=(1, 1, 0), games=[("X", (15, 13, 9)), ("Y", (4, 15, 14))])
    # Tantos before chicos: Z's 25 tantos beat X's 24 even though Z won no chico.
    chain = ["tantos", "chicos"]
    assert places(table_placement(match, tiebreaks=chain)) == [("Y", 1), ("Z", 2), ("X", 3)]
    # No chain: only the winner ranks; an undecided table is all first.
    assert places(table_placement(match, tiebreaks=[])) == [("X", 1), ("Y", 1), ("Z", 1)]


@pytest.mark.parametrize("chain", [["points"], ["chicos", "chicos"]])
def test_a_bad_chain_is_refused(chain):
    with pytest.raises(scoring.EngineError) as caught:
        table_placement(state((0, 0, 0)), tiebreaks=chain)
    assert caught.value.code == "placement_invalid"


def tricks(side: str) -> dict:
    return {"events": [{"trick": side}, {"trick": side}]}


def test_from_a_scored_gallo_por_turno_record_with_players():
    # Hand i: gallo seats[(i + 2) % 3]. X wins every hand: with the pair or as gallo.
    record = {
        **POR_TURNO,
        "rules": {"preset": "argentine", "target": 15, "best_of": 3},
        "hands": [tricks("X"), tricks("X"), tricks("Z")],
    }
    # Hand 1 (gallo zoe): xavi and yago +1; hand 2 (gallo xavi): xavi +1; hand 3 (gallo
    # yago): the pair xavi+zoe +1 each.
    result = scoring.score_match_result(record)
    placed = table_placement(result, teams=record["teams"])
    assert [(p.players, p.place, p.last_chico) for p in placed] == [
        (("xavi",), 1, 3),
        (("yago",), 2, 1),
        (("zoe",), 2, 1),
    ]


def test_gallo_fijo_the_pair_shares_its_place():
    record = {
        "rules": {"preset": "argentine", "gallo": "fijo"},
        "teams": {"G": ["gus"], "P": ["pia", "pau"]},
        "seats": ["gus", "pia", "pau"],
        "hands": [tricks("P"), tricks("G"), tricks("P")],
    }
    placed = table_placement(scoring.score_match_result(record), teams=record["teams"])
    assert [(p.players, p.place) for p in placed] == [(("pia", "pau"), 1), (("gus",), 2)]


# -- properties ------------------------------------------------------------------------------

hands_strategy = st.lists(st.sampled_from(SIDES), max_size=60)


def play(winners: list[str], best_of: int) -> tuple[dict, scoring.MatchResult]:
    """A gallo por turno match to 15 of the given hands, stopped where it was decided."""
    record = {**POR_TURNO, "rules": {"preset": "argentine", "target": 15, "best_of": best_of}}
    record["hands"] = []
    result = scoring.score_match_result(record)
    for side in winners:
        if result.winner is not None:
            break
        record["hands"].append(tricks(side))
        result = scoring.score_match_result(record)
    return record, result


@settings(max_examples=60, deadline=None)
@given(hands_strategy, st.sampled_from([1, 3]))
def test_places_are_consistent(winners, best_of):
    _, result = play(winners, best_of)
    placed = table_placement(result)
    assert sorted(p.side for p in placed) == list(SIDES)
    for i, p in enumerate(placed):
        # A place is one more than the number of sides strictly better.
        better = [q for q in placed if q.place < p.place]
        assert p.place == len(better) + 1
        if i:
            assert placed[i - 1].place <= p.place
    # More chicos is never placed below fewer.
    for p in placed:
        for q in placed:
            if p.chicos > q.chicos:
                assert p.place < q.place
    # The winner of a decided match is first, alone.
    if result.winner is not None:
        assert placed[0].side == result.winner
        assert [p.place for p in placed].count(1) == 1
    # Distinct figures give a permutation of 1, 2, 3.
    figures = {(p.chicos, p.last_chico, p.tantos) for p in placed}
    if len(figures) == 3:
        assert [p.place for p in placed] == [1, 2, 3]


@settings(max_examples=40, deadline=None)
@given(hands_strategy)
def test_replaying_gives_the_same_places(winners):
    record, result = play(winners, 3)
    head = {k: v for k, v in record.items() if k != "hands"}
    match_state = None
    for entry in record["hands"]:
        _, match_state = scoring.score_next_hand(head, match_state, entry)
    if match_state is None:
        match_state = MatchState.start(SIDES)
    stored = MatchState.from_dict(match_state.to_dict())
    assert table_placement(stored) == table_placement(result)
    assert table_placement(scoring.score_match_result(record)) == table_placement(result)
