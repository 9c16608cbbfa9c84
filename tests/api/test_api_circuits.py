"""The circuits' API: the list, a circuit with its events and rules, its ranking."""

from __future__ import annotations

import datetime

import pytest

from tests.api.conftest import V1, client_for
from tests.tournaments.circuits.circuit_data import circuit_played
from tournaments.models import Circuit


@pytest.fixture
def played(db):
    return circuit_played()


def test_the_list_of_circuits(played):
    Circuit.objects.create(
        name="Lliga Catalana",
        slug="lliga",
        family="catalan",
        start_date=datetime.date(2025, 9, 1),
        end_date=datetime.date(2026, 6, 1),
    )
    body = client_for().get(f"{V1}/circuits/").json()
    assert body["count"] == 2
    first, second = body["results"]
    assert first == {
        "slug": "open-truc",
        "name": "Open Truc Mallorca",
        "family": "argentine",
        "family_display": first["family_display"],
        "start_date": "2026-04-01",
        "end_date": "2026-07-01",
        "event_count": 4,
        "page": "http://testserver/circuits/open-truc/",
    }
    assert (second["slug"], second["event_count"]) == ("lliga", 0)
    filtered = client_for().get(f"{V1}/circuits/?family=catalan").json()
    assert [c["slug"] for c in filtered["results"]] == ["lliga"]
    assert client_for().get(f"{V1}/circuits/?family=chess").status_code == 400


def test_a_circuit_with_its_events_and_rules(played):
    body = client_for().get(f"{V1}/circuits/open-truc/").json()
    assert body["rules"] == {
        "points": [100, 70, 50, 40],
        "best_of": 2,
        "qualify_per_event": 1,
        "qualify_by_points": 1,
    }
    assert [(e["championship"], e["kind"], e["weight"], e["place"]) for e in body["events"]] == [
        ("truc-inca", "qualifier", 1, "Inca"),
        ("truc-palma", "ranking", 2, "Palma"),
        ("truc-manacor", "qualifier", 1, "Manacor"),
        ("truc-final", "final", 2, "Mallorca"),
    ]
    inca = body["events"][0]
    assert (inca["name"], inca["start_date"], inca["status"]) == (
        "Truc Inca 2026",
        "2026-05-01",
        "finished",
    )
    assert body["event_count"] == 4
    assert body["ranking"] == "http://testserver/api/v1/circuits/open-truc/ranking/"
    assert body["csv"] == "http://testserver/circuits/open-truc/ranking.csv"
    assert client_for().get(f"{V1}/circuits/nope/").status_code == 404


def test_the_ranking_as_the_page_shows_it(played):
    body = client_for().get(f"{V1}/circuits/open-truc/ranking/").json()
    assert body["circuit"] == "open-truc"
    assert [
        (t["rank"], t["tied"], t["name"], t["points"], t["qualified"]) for t in body["teams"]
    ] == [
        (1, False, "Ana Ruiz Soler / Bruno Pons", 300, True),
        (2, False, "Carme Vidal / Dani Mas", 200, True),
        (3, False, "Eva Font / Ferran Coll", 190, True),
        (4, False, "Gina Rosselló / Hugo Sastre", 150, False),
    ]
    ana = played.persons["Ana Ruiz Soler"]
    first = body["persons"][0]
    assert (first["rank"], first["tied"], first["key"], first["persons"]) == (
        1,
        True,
        str(ana.pk),
        [ana.pk],
    )
    assert first["results"] == [
        {
            "championship": "truc-inca",
            "place": 1,
            "tied": False,
            "points": 100,
            "counted": True,
        },
        {
            "championship": "truc-palma",
            "place": 1,
            "tied": False,
            "points": 200,
            "counted": True,
        },
        {
            "championship": "truc-manacor",
            "place": 2,
            "tied": False,
            "points": 70,
            "counted": False,
        },
    ]
    assert body["tiebreaks"][0] == "The better results, compared one by one from the best."
    assert client_for().get(f"{V1}/circuits/nope/ranking/").status_code == 404


def test_the_circuits_are_in_the_schema(client, db):
    schema = client.get("/api/schema/?format=json").json()
    for path in (
        "/api/v1/circuits/",
        "/api/v1/circuits/{slug}/",
        "/api/v1/circuits/{slug}/ranking/",
    ):
        assert set(schema["paths"][path]) == {"get"}, path
    line = schema["components"]["schemas"]["RankingLine"]["properties"]
    assert {"rank", "tied", "name", "points", "results", "qualified"} <= set(line)
    # Points and weights are numbers, in the schema as in the answers.
    assert line["points"]["type"] == "number"
    assert schema["components"]["schemas"]["EventResult"]["properties"]["points"]["type"] == (
        "number"
    )
    assert schema["components"]["schemas"]["CircuitEvent"]["properties"]["weight"]["type"] == (
        "number"
    )
    detail = schema["components"]["schemas"]["CircuitDetail"]["properties"]
    assert detail["events"]["type"] == "array"
    assert "$ref" in str(detail["rules"])


def test_the_circuits_are_read_only(played):
    assert client_for().post(f"{V1}/circuits/", {"name": "x"}, format="json").status_code in (
        401,
        405,
    )
