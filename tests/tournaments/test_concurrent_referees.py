"""Two referees recording the same hand at once: the match row lock serialises them."""

import threading

import pytest
from django.db import IntegrityError, connection, connections

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments import tasks
from tournaments.errors import TournamentError
from tournaments.models import Hand, StandingsSnapshot
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.mark.django_db(transaction=True)
def test_two_referees_cannot_both_record_hand_one():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory()
    TeamFactory(championship=championship, seed=1)
    TeamFactory(championship=championship, seed=2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    match = result_services.match_start(match=match)
    record = chico_hand(match, "A")  # both tablets send the first hand
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def referee() -> None:
        try:
            barrier.wait()
            result_services.hand_record(match=match, record=record, recorded_by=None)
            outcomes.append("stored")
        except (TournamentError, IntegrityError) as error:
            outcomes.append(type(error).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=referee) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # The second waits for the first, then scores its hand after hand 1 (a quick-entry
    # record is legal there too): no lost update, no duplicate number, both counted.
    assert outcomes == ["stored", "stored"]
    assert list(Hand.objects.order_by("number").values_list("number", flat=True)) == [1, 2]
    match.refresh_from_db()
    assert (match.chicos_a, match.winner_id) == (2, match.team_a_id)


def test_the_standings_task_is_idempotent_and_tolerates_a_deleted_stage(championship, make_teams):
    make_teams(championship, 2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_walkover(match=match, winner=match.team_b, reason="No se presentó")
    assert tasks.refresh_standings(stage.pk) == 1
    assert tasks.refresh_standings(stage.pk) == 1
    snapshot = StandingsSnapshot.objects.get(stage=stage)
    assert snapshot.rows[0]["team"] == match.team_b_id
    assert tasks.refresh_standings(stage.pk + 1000) == 0
