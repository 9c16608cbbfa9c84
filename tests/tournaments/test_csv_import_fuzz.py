"""Fuzzing the teams import: any bytes or any table of text give the teams or the per-row
report, never another exception, and a refused file stores nothing."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.io.imports import ImportRowsError, teams_import
from tournaments.models import Membership, Player, Team

CELLS = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["", "1", "0", "-1", "99999999999", "x", "sí", "=1+1", "A" * 201, "\x00", "\r", '"']
)
HEADERS = st.lists(
    st.sampled_from(["team", "player", "seed", "club", "captain", "equipo", "goles", ""]),
    min_size=1,
    max_size=5,
)


class Rollback(Exception):
    """Leaves the database as it was after a file imported."""


def check(championship, data) -> None:
    before = (Team.objects.count(), Player.objects.count(), Membership.objects.count())
    try:
        with transaction.atomic():
            teams_import(championship=championship, file=data)
            assert Team.objects.count() > before[0]
            raise Rollback
    except ImportRowsError as error:
        assert error.rows
        assert (Team.objects.count(), Player.objects.count(), Membership.objects.count()) == (
            before
        )
    except Rollback:
        pass


FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=st.binary(max_size=300))
@example(data=b"team,player\r\x00\r")
@example(data=b"team;player\n\xff\xfe")
def test_any_bytes(championship, data):
    check(championship, data)


@FUZZ
@given(
    header=HEADERS,
    rows=st.lists(st.lists(CELLS, max_size=6), max_size=8),
    sep=st.sampled_from(",;\t"),
    end=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_any_table(championship, header, rows, sep, end):
    out = io.StringIO()
    csv.writer(out, delimiter=sep, lineterminator=end).writerows([header, *rows])
    check(championship, out.getvalue().encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"team,player\n", b"\n\n\n"])
def test_empty_files(championship, data):
    check(championship, data)
