"""CSV exports against formula injection: a cell a spreadsheet would run as a formula is
written as text (a leading single quote), in every export; numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from tests.tournaments.conftest import play
from tests.tournaments.factories import RefereeFactory, TeamFactory
from tournaments.io import exports
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

# The OWASP list: what Excel, LibreOffice and Google Sheets start a formula with.
FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


def read(chunks) -> list[dict]:
    text = "".join(chunks).removeprefix("\ufeff")
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.fixture
def hostile(championship):
    teams = [
        TeamFactory(championship=championship, name=name, club=name, seed=n)
        for n, name in enumerate(FORMULAS[:4], start=1)
    ]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)
    play(
        first[0],
        first[0].team_a,
        referee=RefereeFactory(username="-referee", championships=[championship]),
    )
    result_services.match_walkover(match=first[1], winner=first[1].team_b, reason="=1+1")
    return teams


def assert_neutralised(cell: str) -> None:
    assert not cell.startswith(exports.FORMULA_STARTS), cell


@pytest.mark.parametrize("kind", ["standings", "matches", "hands"])
def test_no_exported_cell_starts_a_formula(championship, hostile, kind):
    rows = read(exports.export_csv(championship, kind))
    assert rows
    for row in rows:
        for value in row.values():
            assert_neutralised(value)


def test_the_quoted_cells_still_read_as_the_names(championship, hostile):
    names = {t.name for t in hostile}
    standings = read(exports.export_standings(championship))
    assert {row["team"].removeprefix("'") for row in standings} == names
    assert {row["club"] for row in standings} == {"'" + name for name in names}
    matches = read(exports.export_matches(championship))
    assert "'=1+1" in {row["reason"] for row in matches}
    hands = read(exports.export_hands(championship))
    assert {row["recorded_by"] for row in hands} == {"'-referee"}
    # Numbers are not text: they are written as they are, and read back as numbers.
    for row in hands:
        assert int(row["points_a"]) + int(row["points_b"]) >= 0
    for row in standings:
        assert float(row["points"]) >= 0 and not row["points"].startswith("'")


def test_tab_and_carriage_return_starts_are_quoted(championship):
    for n, name in enumerate(FORMULAS[4:], start=1):
        TeamFactory(championship=championship, name=name, seed=n)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    stage_services.round_generate(stage=stage)
    rows = read(exports.export_matches(championship))
    assert {rows[0]["team_a"], rows[0]["team_b"]} == {"'\tTab", "'\rCR"}


def test_only_text_is_quoted():
    assert exports.cell(-3) == -3
    assert exports.cell(-1.5) == -1.5
    assert exports.cell("-3") == "'-3"  # a text that looks like a number is still text
    assert exports.cell("Los Anchos") == "Los Anchos"
    assert exports.cell("") == ""
    assert exports.cell(None) is None
