"""The organiser's circuit services: the circuit and its rules, its events, refusals."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import translation

from tests.tournaments.circuits.conftest import create_circuit, make_qualifier
from tests.tournaments.factories import ChampionshipFactory, StaffFactory, TeamFactory, UserFactory
from tournaments.circuits import services
from tournaments.circuits.access import can_manage_circuit, circuits_managed_by
from tournaments.errors import TournamentError
from tournaments.models import Circuit, CircuitEvent, CircuitQualification

pytestmark = pytest.mark.django_db


def refused(call, **kwargs) -> TournamentError:
    with translation.override("en"), pytest.raises(TournamentError) as caught:
        call(**kwargs)
    with translation.override("en"):
        caught.value.english = caught.value.text
    return caught.value


def test_circuit_created_with_its_rules_and_organiser(organiser):
    circuit = create_circuit(organiser, points=["100", 70, "50"], description=" Mallorca ")
    assert circuit.points == [100, 70, 50]
    assert circuit.description == "Mallorca"
    assert list(circuit.organisers.all()) == [organiser]
    assert can_manage_circuit(organiser, circuit)
    assert not can_manage_circuit(UserFactory(), circuit)
    assert list(circuits_managed_by(StaffFactory())) == [circuit]


@pytest.mark.parametrize(
    ("changes", "code", "sentence"),
    [
        ({"points": [100, 70, 80]}, "points_rising", "Place 3 scores more than the place above"),
        ({"points": [100, -5]}, "points_negative", "Points cannot be negative"),
        ({"points": []}, "points_empty", "Give the points of at least the first place"),
        ({"points": ["100", "lots"]}, "points_not_number", "lots is not a number of points"),
        (
            {"end_date": datetime.date(2026, 2, 1)},
            "dates_reversed",
            "A circuit cannot end before it starts.",
        ),
        ({"best_of": 0}, "best_of_zero", "At least one result counts"),
        ({"family": "chinchon"}, "circuit_family", "Choose the circuit's rules family"),
        ({"name": "  "}, "circuit_name_missing", "Give the circuit a name."),
    ],
)
def test_circuit_rules_refused_with_a_sentence(organiser, changes, code, sentence):
    error = refused(create_circuit, by=organiser, **changes)
    assert error.code == code
    assert sentence in error.english
    assert not Circuit.objects.exists()


def test_a_taken_short_name_is_refused(organiser, circuit):
    error = refused(create_circuit, by=UserFactory(), slug=circuit.slug)
    assert error.code == "slug_taken"
    assert error.english == "Another circuit already uses the short name open-truc-mallorca."
    assert error.params["field"] == "slug"


def test_anonymous_cannot_create_a_circuit(db):
    from django.contrib.auth.models import AnonymousUser

    assert refused(create_circuit, by=AnonymousUser()).code == "circuit_not_yours"


def update_kwargs(circuit, **changes):
    values = {
        "circuit": circuit,
        "name": circuit.name,
        "family": circuit.family,
        "start_date": circuit.start_date,
        "end_date": circuit.end_date,
        "points": circuit.points,
        "best_of": circuit.best_of,
        "qualify_per_event": circuit.qualify_per_event,
        "qualify_by_points": circuit.qualify_by_points,
    }
    return {**values, **changes}


def test_circuit_updated_and_refused(organiser, circuit):
    services.circuit_update(
        **update_kwargs(circuit, name="Open 2026", points=[50, 30], best_of=None), by=organiser
    )
    circuit.refresh_from_db()
    assert (circuit.name, circuit.points, circuit.best_of) == ("Open 2026", [50, 30], None)
    error = refused(
        services.circuit_update, **update_kwargs(circuit, points=[10, 20]), by=organiser
    )
    assert error.code == "points_rising"
    other = UserFactory(username="other")
    error = refused(services.circuit_update, **update_kwargs(circuit, name="Mine"), by=other)
    assert error.english == "Only the organisers of Open 2026 may change it."
    circuit.refresh_from_db()
    assert circuit.name == "Open 2026"
    # Staff who manage every championship manage every circuit.
    services.circuit_update(**update_kwargs(circuit, name="Staff"), by=StaffFactory())


def test_circuit_dates_and_family_must_still_fit_its_events(organiser, circuit, qualifiers):
    error = refused(
        services.circuit_update,
        **update_kwargs(circuit, end_date=datetime.date(2026, 6, 1)),
        by=organiser,
    )
    assert error.code == "event_dates"
    assert "Final is played outside the circuit's dates" in error.english
    error = refused(
        services.circuit_update, **update_kwargs(circuit, family="catalan"), by=organiser
    )
    assert error.code == "event_family"


def test_events_added_updated_removed(organiser, circuit, qualifiers):
    inca = qualifiers["Inca"]
    assert (inca.kind, inca.place, inca.towns, inca.weight) == ("qualifier", "Inca", ["Inca"], 1)
    ranking = make_qualifier(organiser, "open-soller", name="Open Sóller")
    event = services.circuit_event_add(
        circuit=circuit,
        championship=ranking,
        kind="ranking",
        weight="0.5",
        towns=[" Sóller ", "soller", "", "Fornalutx"],
        by=organiser,
    )
    assert event.weight == Decimal("0.5")
    assert event.towns == ["Sóller", "Fornalutx"]  # the same town once, blanks dropped
    services.circuit_event_update(
        event=event, kind="qualifier", weight=2, place="Tramuntana", towns=[], by=organiser
    )
    event.refresh_from_db()
    assert (event.kind, event.weight, event.place, event.towns) == (
        "qualifier",
        2,
        "Tramuntana",
        [],
    )
    services.circuit_event_remove(event=event, by=organiser)
    assert not CircuitEvent.objects.filter(championship=ranking).exists()


def test_event_refusals(organiser, circuit, qualifiers):
    other_circuit = create_circuit(organiser, slug="liga-balear", name="Liga Balear")
    error = refused(
        services.circuit_event_add,
        circuit=other_circuit,
        championship=qualifiers["Inca"].championship,
        kind="qualifier",
        by=organiser,
    )
    assert error.english == "Fase Inca is already part of the circuit Open Truc Mallorca."

    second = make_qualifier(organiser, "otra-final", name="Otra final")
    error = refused(
        services.circuit_event_add, circuit=circuit, championship=second, kind="final", by=organiser
    )
    assert error.english == "This circuit already has a final: Final."
    error = refused(
        services.circuit_event_update,
        event=qualifiers["Inca"],
        kind="final",
        by=organiser,
    )
    assert error.code == "second_final"

    catalan = make_qualifier(organiser, "truc-manacor", rules={"preset": "catalan"}, name="Truc")
    error = refused(
        services.circuit_event_add,
        circuit=circuit,
        championship=catalan,
        kind="qualifier",
        by=organiser,
    )
    assert error.english == (
        "Truc plays Catalan truc and the circuit Argentine truco: one ranking compares like"
        " with like."
    )

    late = make_qualifier(organiser, "tardia", name="Tardía", start_date=datetime.date(2027, 1, 2))
    error = refused(
        services.circuit_event_add,
        circuit=circuit,
        championship=late,
        kind="qualifier",
        by=organiser,
    )
    assert error.english == (
        "Tardía is played outside the circuit's dates (March 1, 2026 to Oct. 31, 2026)."
    )
    # The dates as the reader's language writes them, never ISO inside a sentence.
    with translation.override("es"):
        assert "(del 1 de marzo de 2026 al 31 de octubre de 2026)" in error.text

    for weight in (0, -1, "abc"):
        error = refused(
            services.circuit_event_add,
            circuit=circuit,
            championship=second,
            kind="qualifier",
            weight=weight,
            by=organiser,
        )
        assert error.english == "An event's weight is a number above zero, as 1, 2 or 0.5."
    assert not CircuitEvent.objects.filter(championship=second).exists()


def test_only_who_manages_both_circuit_and_championship_adds_it(organiser, circuit):
    other = UserFactory(username="other")
    his = make_qualifier(other, "fase-de-otro", name="Fase de otro")
    # Another organiser cannot add his championship to someone else's circuit...
    error = refused(
        services.circuit_event_add, circuit=circuit, championship=his, kind="qualifier", by=other
    )
    assert error.english == "Only the organisers of Open Truc Mallorca may change it."
    # ...nor the circuit's organiser a championship he does not organise.
    error = refused(
        services.circuit_event_add,
        circuit=circuit,
        championship=his,
        kind="qualifier",
        by=organiser,
    )
    assert error.english == "You do not organise Fase de otro: only its organisers may add it."
    assert not CircuitEvent.objects.exists()
    # Staff managing every championship may.
    services.circuit_event_add(
        circuit=circuit, championship=his, kind="qualifier", by=StaffFactory()
    )


def test_another_organiser_cannot_change_or_remove_events(organiser, circuit, qualifiers):
    other = UserFactory(username="other")
    for call, kwargs in (
        (services.circuit_event_update, {"kind": "qualifier", "weight": 3}),
        (services.circuit_event_remove, {}),
    ):
        error = refused(call, event=qualifiers["Inca"], by=other, **kwargs)
        assert error.code == "circuit_not_yours"
    qualifiers["Inca"].refresh_from_db()
    assert qualifiers["Inca"].weight == 1


def test_an_event_whose_teams_entered_the_final_stays(organiser, circuit, qualifiers):
    inca = qualifiers["Inca"]
    winner = TeamFactory(championship=inca.championship, name="Los de Inca")
    in_final = TeamFactory(championship=qualifiers["final"].championship, name="Los de Inca")
    CircuitQualification.objects.create(
        circuit=circuit,
        people_key="1-2",
        event=inca,
        place=1,
        source_team=winner,
        final_team=in_final,
    )
    error = refused(services.circuit_event_remove, event=inca, by=organiser)
    assert error.english == (
        "Teams qualified through Fase Inca are already entered in the final: withdraw them"
        " there first."
    )
    error = refused(services.circuit_event_remove, event=qualifiers["final"], by=organiser)
    assert error.code == "event_has_qualified"
    error = refused(services.circuit_event_update, event=inca, kind="ranking", by=organiser)
    assert error.code == "event_has_qualified"
    # Palma's teams are not in the final: Palma's qualifier may go.
    services.circuit_event_remove(event=qualifiers["Palma"], by=organiser)
    assert CircuitEvent.objects.filter(pk=inca.pk).exists()


def test_a_championship_without_end_date_within_the_dates(organiser, circuit):
    championship = ChampionshipFactory(slug="sin-fin", start_date=datetime.date(2026, 4, 1))
    championship.organisers.add(organiser)
    event = services.circuit_event_add(
        circuit=circuit, championship=championship, kind="ranking", by=organiser
    )
    assert event.circuit == circuit
