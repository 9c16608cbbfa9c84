"""CSV import of teams: one row per player, all rows or none (docs/csv.md).

Columns (header row required, any order, case-insensitive; Spanish and Catalan names
accepted): ``team``, ``player`` (required), ``seed``, ``club``, ``captain``, and the
player's own ``licence``, ``email`` and ``phone`` (private: his person's, never public). A
team's rows follow each other or not; its ``seed`` and ``club`` may be given on any of its
rows but must not disagree. ``captain`` marks the cap de colla with any of ``x``, ``yes``,
``sí``, ``1``... A licence number joins its holder at once when he played in one of the
importing organiser's championships (``people.services.players_create``); a player whose
name is likely another person's is created apart, and the organiser confirms or merges
them on his people's page: the import merges nobody. The file is UTF-8 (a byte-order mark is
fine) or, failing that, Windows-1252; commas or semicolons separate the columns; lines end
in LF, CR LF or CR.

Every row is checked before anything is written; any error and nothing is imported, and
:class:`ImportRowsError` lists each error with its row number, column and a translated
sentence. Whatever the bytes, the answer is the teams or that report: a file is read up to
``MAX_BYTES`` and ``MAX_ROWS`` (a file at both limits imports well within a web request,
bench/README.md), and a cell must fit its model field (length, seed range, no control
characters: ``tournaments.text``) before it reaches the database.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, field
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.championships import services as championship_services
from tournaments.models import SEED_MAX, Championship, Person, Player, Team
from tournaments.people.services import PersonDetails
from tournaments.text import has_control

HEADERS = {
    "team": ("team", "equipo", "equip", "nombre del equipo"),
    "player": ("player", "jugador", "jugadora"),
    "seed": ("seed", "cabeza de serie", "cap de sèrie", "cap de serie", "siembra"),
    "club": ("club", "city", "ciudad", "ciutat", "club o ciudad", "club o ciutat"),
    "captain": ("captain", "capitán", "capitan", "capità", "cap de colla"),
    "licence": (
        "licence",
        "license",
        "licence number",
        "licencia",
        "número de licencia",
        "llicència",
        "llicencia",
        "número de llicència",
    ),
    "email": ("email", "e-mail", "correo", "correo electrónico", "correu", "correu electrònic"),
    "phone": ("phone", "teléfono", "telefono", "móvil", "telèfon", "telefon", "mòbil"),
}
REQUIRED = ("team", "player")
# The header row of the downloadable template in each language (each accepted above).
TEMPLATE_HEADERS = {
    "en": ("team", "player", "seed", "club", "licence", "email", "phone", "captain"),
    "es": (
        "equipo",
        "jugador",
        "cabeza de serie",
        "club",
        "licencia",
        "correo",
        "teléfono",
        "capitán",
    ),
    "ca": (
        "equip",
        "jugador",
        "cap de sèrie",
        "club",
        "llicència",
        "correu",
        "telèfon",
        "cap de colla",
    ),
}
YES = {"x", "1", "yes", "y", "sí", "si", "s", "true", "cap", "capità", "capitán", "capitan"}
# The documented limits (docs/csv.md): a file at both imports in a few seconds (bench/).
MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 4000
# A report longer than this is cut: a binary file would otherwise list every line.
MAX_ERRORS = 50
MAX_LENGTH = {
    "team": Team._meta.get_field("name").max_length,
    "club": Team._meta.get_field("club").max_length,
    "player": Player._meta.get_field("name").max_length,
    "licence": Person._meta.get_field("licence").max_length,
    "email": Person._meta.get_field("email").max_length,
    "phone": Person._meta.get_field("phone").max_length,
}


@dataclass(frozen=True)
class RowError:
    """One problem of the file: ``row`` is the line number (the header is row 1),
    ``column`` the column's header as the file writes it, ``team`` the team concerned."""

    row: int
    column: str
    message: Any
    team: str = ""

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
    # Each player's licence, email and phone, as the file gives them.
    extras: list[dict[str, str]] = field(default_factory=list)


def _normalise(header: str) -> str:
    return " ".join(header.strip().lower().replace("_", " ").split())


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        # Strict: a byte Windows-1252 does not define is a file that is not text.
        return data.decode("cp1252")
    except UnicodeDecodeError:
        raise ImportRowsError(
            [RowError(1, "", _("The file is not text in UTF-8: save it as “CSV UTF-8”."))]
        ) from None


def _csv_problem(error: csv.Error) -> Any:
    if "field limit" in str(error):
        return _("A cell of this row is far too long.")
    return _("This row cannot be read as CSV (is a quote left open?).")


def _rows(reader: Any) -> Any:
    """(row number, row) of ``reader``, with the first unreadable row as a report."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ImportRowsError([RowError(reader.line_num, "", _csv_problem(error))]) from None
        yield reader.line_num, row


def read_rows(data: bytes | str) -> tuple[dict[str, int], list[tuple[int, list[str]]]]:
    """The column positions and the non-empty rows (with their row numbers) of a file."""
    columns, _headers, rows = _read(data)
    return columns, rows


def _missing_name(key: str) -> str:
    """A missing column named as the template of the organiser's language writes it."""
    language = (translation.get_language() or "en")[:2]
    headers = TEMPLATE_HEADERS.get(language, TEMPLATE_HEADERS["en"])
    return headers[TEMPLATE_HEADERS["en"].index(key)]


def _read(
    data: bytes | str,
) -> tuple[dict[str, int], dict[str, str], list[tuple[int, list[str]]]]:
    """The column positions, the file's own header of each column, and the non-empty rows
    (with their row numbers) of a file."""
    text = _decode(data)
    # The header decides the separator; cut it short so a file without line breaks is not
    # sniffed whole.
    first_line = text[:4096].replace("\r", "\n").split("\n", 1)[0]
    try:
        dialect = csv.Sniffer().sniff(first_line, delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    # newline=None: universal newlines, so CR-only files (old Mac spreadsheets) read too.
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter)
    lines = _rows(reader)
    try:
        header = next(lines)[1]
    except StopIteration:
        raise ImportRowsError([RowError(1, "", _("The file is empty."))]) from None
    columns: dict[str, int] = {}
    headers: dict[str, str] = {}
    errors = []
    aliases = {alias: key for key, names in HEADERS.items() for alias in names}
    for index, name in enumerate(header):
        key = aliases.get(_normalise(name))
        if key is None:
            if name.strip():
                shown = "".join("?" if unicodedata.category(c) == "Cc" else c for c in name[:40])
                errors.append(RowError(1, shown, _("Unknown column.")))
            continue
        columns[key] = index
        headers[key] = name.strip()
    for key in REQUIRED:
        if key not in columns:
            errors.append(RowError(1, _missing_name(key), _("This column is missing.")))
    if errors:
        raise ImportRowsError(errors[:MAX_ERRORS])
    rows = []
    for number, row in lines:
        if any(cell.strip() for cell in row):
            if len(rows) == MAX_ROWS:
                raise ImportRowsError(
                    [
                        RowError(
                            number,
                            "",
                            _("The file has more than %(count)s rows of players.")
                            % {"count": MAX_ROWS},
                        )
                    ]
                )
            rows.append((number, row))
    return columns, headers, rows


def _cell_problem(key: str, value: str) -> Any:
    # NUL, line breaks inside a quoted cell, tabs...: no cell of the file is free text.
    if has_control(value):
        return _("This cell holds a control character (such as a NUL or a line break).")
    limit = MAX_LENGTH.get(key)
    if limit is not None and len(value) > limit:
        return _("This cell is too long (%(limit)s characters at most).") % {"limit": limit}
    return None


def _extras_problem(extras: dict[str, str], licences: set[str]) -> tuple[str, Any] | None:
    """What is wrong with a player's licence, email and phone: (column, sentence)."""
    if extras["email"]:
        try:
            validate_email(extras["email"])
        except ValidationError:
            return "email", _("This is not an email address.")
    if extras["licence"] and extras["licence"] in licences:
        # One licence is one person, and a person plays once in a championship.
        return "licence", _("Another row gives this licence number to another player.")
    return None


def _parse(championship: Championship, data: bytes | str) -> list[_TeamRows]:
    columns, headers, rows = _read(data)
    errors: list[RowError] = []
    row_team: dict[int, str] = {}
    teams: dict[str, _TeamRows] = {}
    seen_players: dict[str, set[str]] = {}
    seen_licences: set[str] = set()
    existing = set(championship.teams.values_list("name", flat=True))

    def cell(row: list[str], key: str) -> str:
        index = columns.get(key)
        return row[index].strip() if index is not None and index < len(row) else ""

    for number, row in rows:
        if len(errors) >= MAX_ERRORS:
            break
        bad = [
            RowError(number, key, problem)
            for key in columns
            if (problem := _cell_problem(key, cell(row, key)))
        ]
        if bad:
            errors.extend(bad)
            continue
        name, player = cell(row, "team"), cell(row, "player")
        row_team[number] = name
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
            extras = {key: cell(row, key) for key in ("licence", "email", "phone")}
            if problem := _extras_problem(extras, seen_licences):
                errors.append(RowError(number, *problem))
            seen_licences.add(extras["licence"])
            seen_players[name].add(player)
            team.players.append(player)
            team.extras.append(extras)
            if cell(row, "captain").lower() in YES:
                team.captains.append(player)
        seed_text = cell(row, "seed")
        if seed_text:
            # isdigit first: int() also reads "١٢", "1_000" and 4,300-digit numbers.
            # A length cap first: int() refuses numbers of over 4,300 digits with an error.
            seed = int(seed_text[-20:]) if seed_text.isascii() and seed_text.isdigit() else 0
            seed = SEED_MAX + 1 if len(seed_text.lstrip("0")) > 20 else seed
            if seed < 1:
                errors.append(RowError(number, "seed", _("A seed is a whole number from 1.")))
            elif seed > SEED_MAX:
                errors.append(
                    RowError(number, "seed", _("A seed is at most %(max)s.") % {"max": SEED_MAX})
                )
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
        if team.players and len(team.players) < championship.team_size:
            errors.append(
                RowError(
                    team.first_row,
                    "player",
                    ngettext(
                        "Team %(team)s has %(count)s player; this championship plays with "
                        "%(size)s.",
                        "Team %(team)s has %(count)s players; this championship plays with "
                        "%(size)s.",
                        len(team.players),
                    )
                    % {
                        "team": team.name,
                        "count": len(team.players),
                        "size": championship.team_size,
                    },
                )
            )
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
        # Named as the file names them: its own column headers, and the team of the row.
        named = [
            RowError(e.row, headers.get(e.column, e.column), e.message, row_team.get(e.row, ""))
            for e in errors
        ]
        raise ImportRowsError(sorted(named, key=lambda e: e.row)[:MAX_ERRORS])
    return list(teams.values())


def teams_import(
    *,
    championship: Championship,
    file: IO[bytes] | IO[str] | bytes | str,
    by: Any = None,
) -> list[Team]:
    """Import the teams of a CSV file into ``championship``: every team, or none.

    ``file`` is an open file (binary or text, e.g. an upload) or its content; ``by`` the
    organiser importing it (whose people a licence number may join: ``players_create``;
    ``None``, as for the command: nobody). Raises :class:`ImportRowsError` listing each
    bad row; returns the teams created.
    """
    # An open file is read no further than the limit, whatever its size.
    data = file if isinstance(file, bytes | str) else file.read(MAX_BYTES + 1)
    size = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
    if size > MAX_BYTES:
        raise ImportRowsError(
            [
                RowError(
                    1,
                    "",
                    _("The file is too large (%(size)s MB at most).")
                    % {"size": MAX_BYTES // (1024 * 1024)},
                )
            ]
        )
    parsed = _parse(championship, data)
    if not parsed:
        raise ImportRowsError([RowError(2, "", _("The file has no team."))])
    try:
        return championship_services.teams_create_many(
            championship=championship,
            teams=[
                championship_services.NewTeam(
                    name=team.name,
                    seed=team.seed,
                    club=team.club,
                    players=[
                        PersonDetails(name=name, club=team.club, **extras)
                        for name, extras in zip(team.players, team.extras, strict=True)
                    ],
                    captain=team.captains[0] if team.captains else None,
                )
                for team in parsed
            ],
            by=by,
        )
    except ValidationError as error:
        # Checked above already; anything left (a team entered meanwhile) is reported on
        # the file's first row, and nothing was imported.
        raise ImportRowsError([RowError(2, "team", " ".join(error.messages))]) from None
