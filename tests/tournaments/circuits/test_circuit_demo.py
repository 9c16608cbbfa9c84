"""The circuit demo: three qualifiers and a final, the qualified pairs entered by the
automatic entry, the ranking's best two results mattering."""

from tournaments.circuits.qualification import qualification_sync, team_people_keys
from tournaments.circuits.selectors import circuit_qualifications, circuit_ranking
from tournaments.demo import circuit as demo_circuit
from tournaments.demo import load_demo
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    CircuitPlacement,
    CircuitQualification,
    Entry,
    Team,
    TeamAct,
)


def test_the_circuit_demo_loads_with_its_qualified_pairs_in_the_final(demo):
    circuit = Circuit.objects.get(slug=demo_circuit.SLUG)
    assert circuit.name == "Circuit Obert de Truc de Mallorca"
    events = {e.place: e for e in circuit.events.select_related("championship")}
    assert set(events) == {"Inca", "Manacor", "Felanitx", "Palma"}
    status = {town: e.championship.status for town, e in events.items()}
    assert status == {
        "Inca": Championship.Status.FINISHED,
        "Manacor": Championship.Status.FINISHED,
        "Felanitx": Championship.Status.RUNNING,
        "Palma": Championship.Status.REGISTRATION,
    }
    assert events["Palma"].kind == CircuitEvent.Kind.FINAL
    assert all(e.championship.rules["preset"] == "catalan" for e in events.values())
    assert all(e.championship.team_size == 2 for e in events.values())
    # Every finished qualifier's first two pairs are in the final, once each, pending or
    # accepted, with the same people; the points places wait for Felanitx.
    rows = circuit_qualifications(circuit=circuit)
    assert {row.event.place for row in rows} == {"Inca", "Manacor"}
    assert len(rows) == 4 == len({row.people_key for row in rows})
    final_teams = Team.objects.filter(championship=events["Palma"].championship)
    keys = team_people_keys(t.pk for t in final_teams)
    assert sorted(keys.values()) == sorted(row.people_key for row in rows)
    statuses = sorted(final_teams.values_list("entry__status", flat=True))
    assert statuses == [Entry.Status.ACCEPTED] + [Entry.Status.PENDING] * 3
    assert (
        TeamAct.objects.filter(
            championship=events["Palma"].championship, via=TeamAct.Via.CIRCUIT
        ).count()
        == 4
    )
    # Felanitx in play: its provisional placements count already.
    assert CircuitPlacement.objects.filter(event=events["Felanitx"]).count() == 8
    ranking = circuit_ranking(circuit=circuit)
    regulars = {str(p.pk) for p in demo_circuit.regulars(circuit)}
    assert len(regulars) >= 4
    lines = {line.key: line for line in ranking.persons}
    # Those who played three events count their best two.
    three = [lines[k] for k in regulars if len(lines[k].results) == 3]
    assert three and all(sum(r.counted for r in line.results) == 2 for line in three)
    assert sum(line.qualified for line in ranking.teams) == 4
    # Idempotent: loading again, or syncing again, changes nothing.
    before = CircuitQualification.objects.count(), Team.objects.count()
    load_demo()
    assert qualification_sync(circuit=circuit) == []
    assert (CircuitQualification.objects.count(), Team.objects.count()) == before
