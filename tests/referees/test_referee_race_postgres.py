"""Two tablets saving the same hand at once: the first stores it, the second is stale."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from referees import services
from tests.referees.conftest import make_match
from tests.tournaments.factories import RefereeFactory
from tournaments.errors import TournamentError
from tournaments.models import Hand
from tournaments.results import services as result_services


@pytest.mark.django_db(transaction=True)
def test_two_tablets_saving_hand_one_store_it_once():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    referee = RefereeFactory()
    match = result_services.match_start(match=make_match(referee=referee))
    record = {"events": [{"trick": "A"}, {"trick": "A"}]}
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def tablet() -> None:
        try:
            barrier.wait()
            services.hand_save(match=match, number=1, record=record, recorded_by=referee)
            outcomes.append("stored")
        except TournamentError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # Without the hand number check both would be stored, as hands 1 and 2.
    assert sorted(outcomes) == ["stale_hand", "stored"]
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    match.refresh_from_db()
    assert match.tantos_a == 1
