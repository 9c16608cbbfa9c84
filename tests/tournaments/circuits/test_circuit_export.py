"""The circuit's ranking as CSV (tournaments/circuits/export.py, docs/csv.md)."""

from __future__ import annotations

import csv
import io

import pytest

from tests.tournaments.circuits.circuit_data import circuit_played
from tournaments.circuits import export
from tournaments.models import Person


@pytest.fixture
def played(db):
    return circuit_played()


def _rows(text: str) -> list[dict]:
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def test_the_ranking_csv_has_persons_then_teams_with_each_events_points(played):
    rows = _rows("".join(export.export_ranking(played.circuit)))
    assert list(rows[0]) == [
        *export.RANKING_COLUMNS,
        "truc-inca",
        "truc-palma",
        "truc-manacor",
        "truc-final",
    ]
    assert [row["kind"] for row in rows] == ["person"] * 8 + ["team"] * 4
    ana = played.persons["Ana Ruiz Soler"]
    assert rows[0] == {
        "kind": "person",
        "rank": "1",
        "tied": "1",
        "name": "Ana Ruiz Soler",
        "persons": str(ana.pk),
        "points": "300",
        "counted": "2",
        "qualified": "1",
        "not_counted": "truc-manacor",
        "truc-inca": "100",
        "truc-palma": "200",
        "truc-manacor": "70",
        "truc-final": "",
    }
    teams = rows[8:]
    assert [(r["rank"], r["tied"], r["name"], r["points"], r["qualified"]) for r in teams] == [
        ("1", "0", "Ana Ruiz Soler / Bruno Pons", "300", "1"),
        ("2", "0", "Carme Vidal / Dani Mas", "200", "1"),
        ("3", "0", "Eva Font / Ferran Coll", "190", "1"),
        ("4", "0", "Gina Rosselló / Hugo Sastre", "150", "0"),
    ]
    assert teams[2]["truc-palma"] == "140"  # 2nd (70) at an event worth double


def test_public_names_and_no_formula(played):
    Person.objects.filter(pk=played.persons["Ana Ruiz Soler"].pk).update(initial_only=True)
    Person.objects.filter(pk=played.persons["Bruno Pons"].pk).update(
        name='=HYPERLINK("http://evil.example","x")'
    )
    text = "".join(export.export_ranking(played.circuit))
    assert "Ana Ruiz Soler" not in text and "Ruiz" not in text
    rows = _rows(text)
    assert {row["name"] for row in rows if row["kind"] == "person"} >= {
        "Ana S.",
        '\'=HYPERLINK("http://evil.example","x")',
    }
    # A team's name is its players' public names: the formula guard on the whole cell.
    assert rows[8]["name"] == 'Ana S. / =HYPERLINK("http://evil.example","x")'
    assert [r["name"] for r in rows if r["name"].startswith("'=")]


def test_the_csv_is_linked_from_the_page_and_served_as_a_file(client, played):
    assert (
        'href="/circuits/open-truc/ranking.csv"'
        in client.get("/circuits/open-truc/").content.decode()
    )
    response = client.get("/circuits/open-truc/ranking.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="open-truc-ranking.csv"' in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode()
    assert "Ana Ruiz Soler / Bruno Pons" in text
