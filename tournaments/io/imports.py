"""CSV import of teams: one row per player, all rows or none (docs/csv.md).

Columns (header row required, any order, case-insensitive; Spanish and Catalan names
accepted): ``team``, ``player`` (required), ``seed``, ``club``, ``captain``. A team's rows
follow each other or not; its ``seed`` and ``club`` may be given on any of its rows but
must not disagree. ``captain`` marks the cap de colla with any of ``x``, ``yes``, ``sí``,
``1``... The file is UTF-8 (a byte-order mark is fine) or, failing that, Windows-1252;
commas or semicolons separate the columns.

Every row is checked before anything is written; any error and nothing is imported, and
:class:`ImportRowsError` lists each error with its row number, column and a translated
sentence.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.championships import services as championship_services
from tournaments.models import Championship, Team

HEADERS = {
    "team": ("team", "equipo", "equip", "nombre del equipo"),
    "player": ("player", "jugador", "jugadora"),
    "seed": ("seed", "cabeza de serie", "cap de sèrie", "cap de serie", "siembra"),
    "club": ("club", "city", "ciudad", "ciutat", "club o ciudad", "club o ciutat"),
    "captain": ("captain", "capitán", "capitan", "capità", "cap de colla"),
}
REQUIRED = ("team", "player")
YES = {"x", "1", "yes", "y", "sí", "si", "s", "true", "cap", "capità", "capitán", "capitan"}
MAX_BYTES = 2_000_000


@dataclass(frozen=True)
class RowError:
    """One problem of the file: ``row`` is the line number (the header is row 1)."""

    row: int
    column: str
    message: Any

    def __str__(self) -> str:
        return f"{self.row} {self.column}: {self.message}"


class ImportRowsError(ValidationError):
    """The file has errors; ``rows`` lists them (``RowError``). Nothing was imported."""

    def __init__(self, rows: list[RowError]) -> None:
        super().__init__([str(r) for r in rows], code="import_rows")
        self.rows = rows


@dataclass
class _TeamRows:
    name: str
    first_row: int
    seed: int | None = None
    club: str = ""
    players: list[str] = field(default_factory=list)
    captains: list[str] = field(default_factory=list)


def _normalise(header: str) -> str:
    return " ".join(header.strip().lower().replace("_", " ").split())


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_rows(data: bytes | str) -> tuple[dict[str, int], list[tuple[int, list[str]]]]:
    """The column positions and the non-empty rows (with their row numbers) of a file."""
    text = _decode(data)
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise ImportRowsError([RowError(1, "", _("The file is empty."))]) from None
    columns: dict[str, int] = {}
    errors = []
    aliases = {alias: key for key, names in HEADERS.items() for alias in names}
    for index, name in enumerate(header):
        key = aliases.get(_normalise(name))
        if key is None:
            if name.strip():
                errors.append(RowError(1, name, _("Unknown column.")))
            continue
        columns[key] = index
    for key in REQUIRED:
        if key not in columns:
            errors.append(RowError(1, key, _("This column is missing.")))
    if errors:
        raise ImportRowsError(errors)
    rows = [
        (number, row)
        for number, row in enumerate(reader, start=2)
        if any(cell.strip() for cell in row)
    ]
    return columns, rows


def _parse(championship: Championship, data: bytes | str) -> list[_TeamRows]:
    columns, rows = read_rows(data)
    errors: list[RowError] = []
    teams: dict[str, _TeamRows] = {}
    seen_players: dict[str, set[str]] = {}
    existing = set(championship.teams.values_list("name", flat=True))

    def cell(row: list[str], key: str) -> str:
        index = columns.get(key)
        return row[index].strip() if index is not None and index < len(row) else ""

    for number, row in rows:
        name, player = cell(row, "team"), cell(row, "player")
        if not name:
            errors.append(RowError(number, "team", _("The team name is missing.")))
            continue
        if name in existing:
            errors.append(
                RowError(number, "team", _("This championship already has a team of that name."))
            )
            continue
        team = teams.setdefault(name, _TeamRows(name=name, first_row=number))
        if not player:
            errors.append(RowError(number, "player", _("The player's name is missing.")))
        elif player in seen_players.setdefault(name, set()):
            errors.append(RowError(number, "player", _("This player is already in the team.")))
        else:
            seen_players[name].add(player)
            team.players.append(player)
            if cell(row, "captain").lower() in YES:
                team.captains.append(player)
        seed_text = cell(row, "seed")
        if seed_text:
            try:
                seed = int(seed_text)
                if seed < 1:
                    raise ValueError
            except ValueError:
                errors.append(RowError(number, "seed", _("A seed is a whole number from 1.")))
            else:
                if team.seed not in (None, seed):
                    errors.append(
                        RowError(number, "seed", _("Another row gives this team another seed."))
                    )
                team.seed = seed
        club = cell(row, "club")
        if club:
            if team.club and team.club != club:
                errors.append(
                    RowError(number, "club", _("Another row gives this team another club."))
                )
            team.club = team.club or club

    seeds: dict[int, str] = {}
    for team in teams.values():
        for problem in championship_services.team_entry_problems(
            championship=championship,
            team=team.name,
            players=team.players,
            captains=team.captains,
        ):
            column = "player" if problem.code == "team_too_big" else "captain"
            errors.append(RowError(team.first_row, column, problem.text))
        if team.seed is not None:
            if team.seed in seeds:
                errors.append(
                    RowError(
                        team.first_row,
                        "seed",
                        _("Seed %(seed)s is also given to %(team)s.")
                        % {"seed": team.seed, "team": seeds[team.seed]},
                    )
                )
            seeds[team.seed] = team.name
    if errors:
        raise ImportRowsError(sorted(errors, key=lambda e: e.row))
    return list(teams.values())


def teams_import(
    *, championship: Championship, file: IO[bytes] | IO[str] | bytes | str
) -> list[Team]:
    """Import the teams of a CSV file into ``championship``: every team, or none.

    ``file`` is an open file (binary or text, e.g. an upload) or its content. Raises
    :class:`ImportRowsError` listing each bad row; returns the teams created.
    """
    data = file if isinstance(file, bytes | str) else file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ImportRowsError([RowError(1, "", _("The file is too large (2 MB at most)."))])
    parsed = _parse(championship, data)
    if not parsed:
        raise ImportRowsError([RowError(2, "", _("The file has no team."))])
    created = []
    with transaction.atomic():
        for team in parsed:
            try:
                created.append(
                    championship_services.team_create(
                        championship=championship,
                        name=team.name,
                        seed=team.seed,
                        club=team.club,
                        players=team.players,
                        captain=team.captains[0] if team.captains else None,
                    )
                )
            except ValidationError as error:
                # Checked above already; anything left is reported on the team's row, and
                # the transaction rolls back the teams created before it.
                raise ImportRowsError(
                    [RowError(team.first_row, "team", " ".join(error.messages))]
                ) from None
    return created
