"""A save scores the new hand from the match's stored engine state and writes only what
changed: the cost of the hundredth hand is the cost of the first (timings: bench/).

The stored state always equals the replay's (test_engine_context.py checks it on every
path too); a match without one, or with one out of step with its hands, is replayed once.
"""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from scoring import score_match_result
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.test_engine_context import assert_stored_as_the_engine_says
from tournaments.models import Game, Hand, Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

VOID = {"events": [{"void": "cards shown"}]}


def point(side: str) -> dict:
    return {"events": [{"trick": side}, {"trick": side}]}


def long_hands(count: int) -> list[dict]:
    """Hands that score little (void, or a point to A or B in turn): the match goes on."""
    return [VOID if n % 2 == 0 else point("AB"[(n // 2) % 2]) for n in range(1, count + 1)]


@pytest.fixture
def match(db) -> Match:
    championship = ChampionshipFactory(rules={"preset": "argentine", "target": 30})
    TeamFactory(championship=championship, seed=1)
    TeamFactory(championship=championship, seed=2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


def replayed_state(match: Match) -> dict:
    match = result_selectors.match_detail(pk=match.pk)
    hands = [h.record for h in match.hands.order_by("number")]
    return score_match_result(records.match_record(match, hands)).state.to_dict()


def writes(queries: CaptureQueriesContext, table: str) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if re.match(rf'\s*(INSERT INTO|UPDATE|DELETE FROM) "{table}"', q["sql"])
    ]


def test_a_late_save_writes_the_new_hand_alone_in_as_many_queries_as_an_early_one(match):
    result_services.match_hands_import(match=match, records=long_hands(1), recorded_by=None)
    with CaptureQueriesContext(connection) as early:
        result_services.hand_record(match=match, record=long_hands(2)[1], recorded_by=None)
    result_services.match_hands_import(match=match, records=long_hands(80)[2:79], recorded_by=None)
    games = list(Game.objects.filter(match=match).values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as late:
        result_services.hand_record(match=match, record=long_hands(80)[79], recorded_by=None)

    assert len(late.captured_queries) == len(early.captured_queries)
    # One INSERT of the new hand; no earlier hand rewritten, no game recreated.
    hand_writes = writes(late, "tournaments_hand")
    assert len(hand_writes) == 1 and hand_writes[0].lstrip().startswith("INSERT")
    assert not [q for q in writes(late, "tournaments_game") if not q.lstrip().startswith("UPDATE")]
    assert list(Game.objects.filter(match=match).values_list("pk", flat=True)) == games
    match.refresh_from_db()
    assert match.state == replayed_state(match)
    assert_stored_as_the_engine_says(match)


def test_a_correction_rewrites_from_the_corrected_hand_on(match):
    result_services.match_hands_import(match=match, records=long_hands(20), recorded_by=None)
    hands = list(match.hands.order_by("number"))
    corrected = hands[9]  # a void hand becomes a point to B: the scores after it change
    with CaptureQueriesContext(connection) as queries:
        result_services.hand_correct(
            hand=corrected, record=point("B"), corrected_by=None, reason="Mal anotada"
        )
    (update,) = [q for q in writes(queries, "tournaments_hand") if "CASE" in q]
    rewritten = {int(pk) for pk in re.findall(r"\d+", update.rsplit(" IN (", 1)[1])}
    assert rewritten == {h.pk for h in hands[9:]}
    match.refresh_from_db()
    assert match.state == replayed_state(match)
    assert_stored_as_the_engine_says(match)


def test_a_match_stored_before_states_is_replayed_once_and_gets_its_state(match):
    result_services.match_hands_import(match=match, records=long_hands(12), recorded_by=None)
    Match.objects.filter(pk=match.pk).update(state=None)
    result_services.hand_record(match=match, record=long_hands(13)[12], recorded_by=None)
    match.refresh_from_db()
    assert match.state == replayed_state(match)
    assert match.state["hands"] == 13
    assert_stored_as_the_engine_says(match)


def test_a_state_out_of_step_with_the_hands_is_not_trusted(match):
    """Hands written around the services (a script, the shell): the save replays."""
    result_services.match_hands_import(match=match, records=long_hands(6), recorded_by=None)
    Hand.objects.filter(match=match, number=6).delete()
    hand = result_services.hand_record(match=match, record=point("A"), recorded_by=None)
    assert hand.number == 6
    match.refresh_from_db()
    assert match.state == replayed_state(match)
    assert_stored_as_the_engine_says(match)


def test_undo_back_to_no_hand_and_a_walkover_keep_the_state_and_games_true(match):
    result_services.match_hands_import(match=match, records=long_hands(3), recorded_by=None)
    for _ in range(3):
        result_services.hand_delete_last(match=match)
    match.refresh_from_db()
    assert match.state == replayed_state(match) and match.state["hands"] == 0
    assert not match.games.exists() and match.status == Match.Status.SCHEDULED
    result_services.hand_record(match=match, record=point("B"), recorded_by=None)
    match = result_services.match_walkover(
        match=match, winner=match.team_a, reason="Abandono", forfeit=True
    )
    assert match.state == replayed_state(match)
    assert (match.chicos_a, match.chicos_b) == (2, 0)


@pytest.mark.django_db(transaction=True)
def test_tablets_racing_on_one_match_leave_the_state_in_step():
    """Each save reads the state under the match's row lock: none scores a stale one."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory(rules={"preset": "argentine", "target": 30})
    TeamFactory(championship=championship, seed=1)
    TeamFactory(championship=championship, seed=2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    match = result_services.match_start(match=match)
    barrier = threading.Barrier(4)
    errors: list[Exception] = []

    def tablet(side: str) -> None:
        try:
            barrier.wait()
            for _ in range(3):
                result_services.hand_record(match=match, record=point(side), recorded_by=None)
        except Exception as error:  # reported by the assertion below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(side,)) for side in "ABAB"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert list(Hand.objects.order_by("number").values_list("number", flat=True)) == list(
        range(1, 13)
    )
    match.refresh_from_db()
    assert match.state == replayed_state(match)
    assert match.state["score"]["A"] + match.state["score"]["B"] == 12
    assert_stored_as_the_engine_says(match)
