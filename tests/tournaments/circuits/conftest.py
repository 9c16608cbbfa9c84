"""Fixtures of the organiser's side of circuits: an organiser, his circuit, qualifiers."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tournaments.circuits import services
from tournaments.entries import services as entry_services
from tournaments.models import Championship, Circuit, CircuitEvent


def make_circuit(by: Any, slug: str = "open-truc-mallorca", **kwargs: Any) -> Circuit:
    values = {
        "name": "Open Truc Mallorca",
        "slug": slug,
        "family": "argentine",
        "start_date": datetime.date(2026, 3, 1),
        "end_date": datetime.date(2026, 10, 31),
        "points": [100, 70, 50, 40],
        "best_of": 3,
        "qualify_per_event": 1,
        "qualify_by_points": 0,
        "by": by,
    }
    return services.circuit_create(**{**values, **kwargs})


def make_qualifier(by: Any, slug: str, *, capacity: int | None = 16, **kwargs: Any) -> Championship:
    """A championship of ``by`` in registration, its entry form open."""
    championship = ChampionshipFactory(
        slug=slug,
        name=kwargs.pop("name", slug.title()),
        status=Championship.Status.REGISTRATION,
        start_date=kwargs.pop("start_date", datetime.date(2026, 5, 9)),
        **kwargs,
    )
    championship.organisers.add(by)
    entry_services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=capacity,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    return championship


@pytest.fixture
def organiser(db) -> Any:
    return UserFactory(username="organiser")


@pytest.fixture
def circuit(organiser) -> Circuit:
    return make_circuit(organiser)


@pytest.fixture
def qualifiers(organiser, circuit) -> dict[str, CircuitEvent]:
    """Two qualifiers, Inca's (towns Inca) and Palma's (towns Palma), and a final."""
    events = {}
    for town in ("Inca", "Palma"):
        championship = make_qualifier(organiser, f"fase-{town.lower()}", name=f"Fase {town}")
        events[town] = services.circuit_event_add(
            circuit=circuit,
            championship=championship,
            kind=CircuitEvent.Kind.QUALIFIER,
            place=town,
            towns=[town],
            by=organiser,
        )
    final = make_qualifier(
        organiser, "final-mallorca", name="Final", start_date=datetime.date(2026, 10, 3)
    )
    events["final"] = services.circuit_event_add(
        circuit=circuit, championship=final, kind=CircuitEvent.Kind.FINAL, by=organiser
    )
    return events
