"""Two qualifiers finishing at the same moment, a team qualified in both: every qualified
team is entered in the final exactly once (the circuit's row lock; the unique constraint
on ``(circuit, people_key)`` is the last guard)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.tournaments.circuits.conftest import enter, make_circuit, make_event, play_knockout
from tournaments.circuits import tasks
from tournaments.circuits.qualification import team_people_keys
from tournaments.circuits.ranking import people_key
from tournaments.models import Championship, CircuitEvent, CircuitQualification, Team


@pytest.mark.django_db(transaction=True)
def test_two_qualifiers_finishing_at_once_enter_each_team_once(people):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    p = people
    circuit = make_circuit(qualify_per_event=2, qualify_by_points=1)
    inca = make_event(circuit, day=1, place="Inca")
    manacor = make_event(circuit, day=2, place="Manacor")
    final = make_event(
        circuit, day=20, kind=CircuitEvent.Kind.FINAL, status=Championship.Status.REGISTRATION
    )
    # Ana & Bea and Cai & Dan reach the final of both qualifiers.
    enter(inca, [(p["a"], p["b"]), (p["c"], p["d"]), (p["e"], p["f"]), (p["g"], p["h"])])
    enter(manacor, [(p["a"], p["b"]), (p["c"], p["d"]), (p["i"], p["j"]), (p["k"], p["l"])])
    play_knockout(inca)
    play_knockout(manacor)
    # Both finish at once (as the daily task closing ended championships would): the
    # announcements' refreshes then run side by side.
    Championship.objects.filter(pk__in=[inca.championship_id, manacor.championship_id]).update(
        status=Championship.Status.FINISHED
    )
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def refresh(championship_id: int) -> None:
        try:
            barrier.wait()
            tasks.refresh_circuit_event(championship_id)
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=refresh, args=(event.championship_id,)) for event in (inca, manacor)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    teams = Team.objects.filter(championship=final.championship)
    keys = sorted(team_people_keys(t.pk for t in teams).values())
    # Inca: Ana & Bea, Cai & Dan; Manacor: both skipped, its two 3rds; one by points (none
    # left with points above nothing but Inca's 3rds: one of them).
    assert len(keys) == len(set(keys)) == 5
    assert people_key([p["a"].pk, p["b"].pk]) in keys
    assert CircuitQualification.objects.filter(circuit=circuit).count() == 5
    assert CircuitQualification.objects.filter(event=inca).count() == 2
    assert CircuitQualification.objects.filter(event=manacor).count() == 2
