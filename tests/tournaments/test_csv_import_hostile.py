"""The teams import against hostile files: every bad file gets the per-row report (never a
server error), nothing is stored, and the limits of docs/csv.md hold."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from tournaments.io import imports
from tournaments.io.imports import ImportRowsError, teams_import
from tournaments.models import Player, Team

HEADER = "team,player,seed,club\n"


def refused(championship, data) -> list[tuple[int, str, str]]:
    players = Player.objects.count()
    with pytest.raises(ImportRowsError) as error, translation.override("en"):
        teams_import(championship=championship, file=data)
    assert championship.teams.count() == 0
    assert Player.objects.count() == players
    with translation.override("en"):
        return [(e.row, e.column, str(e.message)) for e in error.value.rows]


HOSTILE = {
    "nul-in-a-name": (
        (HEADER + "Los\x00Anchos,Ana,,\n").encode(),
        (2, "team", "This cell holds a control character (such as a NUL or a line break)."),
    ),
    "line-break-in-a-quoted-name": (
        (HEADER + '"Los\nAnchos",Ana,,\n').encode(),
        (3, "team", "This cell holds a control character (such as a NUL or a line break)."),
    ),
    "team-name-over-200": (
        (HEADER + "A" * 201 + ",Ana,,\n").encode(),
        (2, "team", "This cell is too long (200 characters at most)."),
    ),
    "player-name-over-200": (
        (HEADER + "Los Anchos," + "B" * 201 + ",,\n").encode(),
        (2, "player", "This cell is too long (200 characters at most)."),
    ),
    "club-over-200": (
        (HEADER + "Los Anchos,Ana,," + "C" * 201 + "\n").encode(),
        (2, "club", "This cell is too long (200 characters at most)."),
    ),
    "seed-99999999999": (
        (HEADER + "Los Anchos,Ana,99999999999,\n").encode(),
        (2, "seed", "A seed is at most 2147483647."),
    ),
    "seed-of-5000-digits": (
        (HEADER + "Los Anchos,Ana," + "9" * 5000 + ",\n").encode(),
        (2, "seed", "A seed is at most 2147483647."),
    ),
    "seed-in-arabic-digits": (
        (HEADER + "Los Anchos,Ana,١٢,\n").encode(),
        (2, "seed", "A seed is a whole number from 1."),
    ),
    "field-over-the-csv-limit": (
        (HEADER + "Los Anchos," + "B" * (128 * 1024 + 1) + ",,\n").encode(),
        (2, "", "A cell of this row is far too long."),
    ),
    "undecodable-bytes": (
        (HEADER + "Los Anchos,Ana,,\n").encode() + b"\x81\x8d\x8f\xff\n",
        (1, "", "The file is not text in UTF-8: save it as “CSV UTF-8”."),
    ),
    "binary-file": (
        b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00",
        (1, "team", "This column is missing."),
    ),
    "too-many-rows": (
        (HEADER + "".join(f"T{n},P{n},,\n" for n in range(imports.MAX_ROWS + 1))).encode(),
        (imports.MAX_ROWS + 2, "", "The file has more than 4000 rows of players."),
    ),
}


@pytest.mark.parametrize("data,first", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_file_gets_the_report_and_nothing_is_imported(championship, data, first):
    assert first in refused(championship, data)


def test_a_file_over_the_size_limit_is_not_read_past_the_limit(championship):
    class Endless(io.RawIOBase):
        """A file that never ends: the import must stop reading at the limit."""

        read_bytes = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:
            chunk = (HEADER + "Los Anchos,Ana,,\n" * 4096).encode()[: len(buffer)]
            buffer[: len(chunk)] = chunk
            self.read_bytes += len(chunk)
            return len(chunk)

    endless = Endless()
    assert refused(championship, io.BufferedReader(endless)) == [
        (1, "", "The file is too large (2 MB at most).")
    ]
    assert endless.read_bytes <= imports.MAX_BYTES + 2 * io.DEFAULT_BUFFER_SIZE


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"], ids=["CR", "CRLF", "LF"])
def test_every_line_end_imports(championship, end):
    lines = [
        "team,player,seed",
        "Los Anchos,Ramón,1",
        "Los Anchos,Begoña,",
        "Las Sotas,Jordi,2",
        "Las Sotas,Núria,",
    ]
    created = teams_import(championship=championship, file=end.join(lines).encode("cp1252"))
    assert [(t.name, t.seed) for t in created] == [("Los Anchos", 1), ("Las Sotas", 2)]
    assert [p.name for p in created[0].players.order_by("memberships__order")] == [
        "Ramón",
        "Begoña",
    ]


def test_a_file_at_the_limits_imports(championship):
    """The documented limits are reachable: MAX_ROWS rows in a file under MAX_BYTES."""
    championship.team_size = 1
    championship.save()
    rows = [
        f"{f'Equipo {n:04d} ':x<200},{f'Jugador {n:04d} ':y<200},{n},{'Club ':z<100}\n"
        for n in range(1, imports.MAX_ROWS + 1)
    ]
    data = (HEADER + "".join(rows)).encode()
    assert len(data) <= imports.MAX_BYTES < len(data) + 100_000
    assert len(teams_import(championship=championship, file=data)) == imports.MAX_ROWS


def test_the_organiser_page_shows_the_report_instead_of_a_server_error(client, championship):
    organiser = get_user_model().objects.create_user("organiser")
    championship.organisers.add(organiser)
    client.force_login(organiser)
    upload = SimpleUploadedFile("teams.csv", (HEADER + "Los\x00Anchos,Ana,99999999999,\n").encode())
    # override: the request activates English, and the language is restored after it.
    with translation.override("en"):
        response = client.post(
            reverse("organiser:teams_import", kwargs={"slug": championship.slug}),
            {"file": upload},
            HTTP_ACCEPT_LANGUAGE="en",
        )
    assert response.status_code == 200
    assert "This cell holds a control character" in response.content.decode()
    assert Team.objects.count() == 0


def test_the_command_reports_a_hostile_file(championship, tmp_path):
    path = tmp_path / "teams.csv"
    path.write_bytes((HEADER + "A" * 201 + ",Ana,,\r").encode())
    err = io.StringIO()
    with translation.override("en"), pytest.raises(CommandError):
        call_command("import_teams", championship.slug, str(path), stderr=err)
    assert "Row 2, column team: This cell is too long" in err.getvalue()
    assert Team.objects.count() == 0
