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
@pytest.mark.parametrize(
    ("second", "outcome"),
    [
        # The same hand from both (a double tap, a tablet retrying): stored once, and
        # both tablets are told it is saved.
        ({"events": [{"trick": "A"}, {"trick": "A"}]}, ["stored", "stored"]),
        # Another hand for the same number: the later tablet is stale, nothing merged.
        ({"events": [{"trick": "B"}, {"trick": "B"}]}, ["stale_hand", "stored"]),
    ],
    ids=["same-hand", "other-hand"],
)
def test_two_tablets_saving_hand_one_store_it_once(second, outcome):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    referee = RefereeFactory()
    match = result_services.match_start(match=make_match(referee=referee))
    first = {"events": [{"trick": "A"}, {"trick": "A"}]}
    barrier = threading.Barrier(2)
    outcomes: list[str] = []
    stored: list[dict] = []

    def tablet(record: dict) -> None:
        try:
            barrier.wait()
            services.hand_save(match=match, number=1, record=record, recorded_by=referee)
            outcomes.append("stored")
            stored.append(record)
        except TournamentError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(r,)) for r in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # Without the hand number check both would be stored, as hands 1 and 2.
    assert sorted(outcomes) == outcome
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    hand = Hand.objects.get()
    assert hand.record == stored[0]
    match.refresh_from_db()
    assert (match.tantos_a, match.tantos_b) == ((1, 0) if hand.record == first else (0, 1))
