"""CSV exports of a championship: standings, matches, hands and the audit log, streamed.

Each export is a generator of CSV text chunks: UTF-8 with a byte-order mark (so
spreadsheet programs read accents right), one header row, then the rows, written through
``csv.writer`` into a one-line buffer while the database is read with
``.iterator(chunk_size=...)``, so exporting 100,000 hands keeps memory flat. Columns are
documented in docs/csv.md; headers are stable keys, not translated, so scripts can rely on
them. Views wrap a generator in a ``StreamingHttpResponse``; ``manage.py export`` writes
it to a file.

Every text cell goes through :func:`cell`: a text starting with ``=``, ``+``, ``-``, ``@``
(or their full-width and small forms, ``＝``, ``﹢``..., which some spreadsheet programs
read as the same), a tab or a carriage return is a formula to a spreadsheet program (a
team called ``=HYPERLINK(...)`` would run when the file is opened), so it gets a leading
single quote (the OWASP rule for CSV injection). Numbers stay numbers.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import json
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from django.db.models import Prefetch

from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.models import Championship, Hand, Match
from tournaments.ratings import statistics_selectors
from tournaments.results import records
from tournaments.stages import registry
from tournaments.standings import selectors as standing_selectors
from tournaments.standings import tiebreaks

BOM = "\ufeff"
CHUNK_SIZE = 2000

STANDINGS_COLUMNS = [
    "stage",
    "group",
    "rank",
    "position",
    "team",
    "club",
    "played",
    "wins",
    "draws",
    "losses",
    "byes",
    "points",
    "chicos_for",
    "chicos_against",
    "tantos_for",
    "tantos_against",
    "tiebreaks",
]
MATCH_COLUMNS = [
    "match",
    "stage",
    "round",
    "group",
    "bracket",
    "table",
    "time",
    "team_a",
    "team_b",
    "status",
    "outcome",
    "winner",
    "chicos_a",
    "chicos_b",
    "tantos_a",
    "tantos_b",
    "referee",
    "reason",
    # Added columns go last: a script reading columns by position keeps working.
    "round_name",
    "provisional",
    "confirmed_at",
]
HAND_COLUMNS = [
    "match",
    "team_a",
    "team_b",
    "game",
    "hand",
    "points_a",
    "points_b",
    "score_a",
    "score_b",
    "status",
    "recorded_by",
    "recorded_at",
    "record",
    # Added columns go last: a script reading columns by position keeps working.
    "mano",
    "corrected_at",
]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """``value`` safe to open in a spreadsheet: a text that would start a formula is quoted,
    its first character read as compatibility folding reads it (``＝`` is ``=``).

    >>> cell("=1+2"), cell("-ve"), cell("Los Anchos"), cell(-3)
    ("'=1+2", "'-ve", 'Los Anchos', -3)
    >>> cell("＝1+1"), cell("＋1"), cell("－2"), cell("＠SUM(A1)")
    ("'＝1+1", "'＋1", "'－2", "'＠SUM(A1)")
    """
    if isinstance(value, str) and unicodedata.normalize("NFKC", value[:1]).startswith(
        FORMULA_STARTS
    ):
        return "'" + value
    return value


class _Line:
    """A write-only buffer holding the last line ``csv.writer`` wrote."""

    def write(self, text: str) -> str:
        return text


def csv_lines(header: list[str], rows: Iterable[Iterable[Any]]) -> Iterator[str]:
    """The CSV text of ``header`` then ``rows``, a line at a time: the byte-order mark
    first, every cell through :func:`cell`. Other packages' exports write with it too
    (the circuits' ranking)."""
    writer = csv.writer(_Line())
    yield BOM + writer.writerow(header)
    for row in rows:
        yield writer.writerow([cell(value) for value in row])


def _number(value: float) -> float:
    return int(value) if float(value).is_integer() else value


def tiebreaks_text(metrics: dict[str, float | None]) -> str:
    """A standing line's tie-breaks as a spreadsheet reads them, in the chain's order:
    ``key=value`` pairs, those not needed (a head-to-head among no tie) and the drawing of
    lots (a random number, never meant to be read) left out.

    >>> tiebreaks_text({"points": 2.0, "head_to_head": None, "buchholz": 3.5, "lots": 0.41})
    'points=2; buchholz=3.5'
    """
    return "; ".join(
        f"{key}={_number(value)}"
        for key, value in metrics.items()
        if value is not None and key != tiebreaks.DrawingOfLots.key
    )


def export_standings(championship: Championship) -> Iterator[str]:
    """Standings of every stage (and group), best first (:func:`tiebreaks_text`)."""

    def rows() -> Iterator[list[Any]]:
        for stage in championship.stages.select_related("championship").prefetch_related("groups"):
            targets = list(stage.groups.all()) or [None]
            for group in targets:
                for line in standing_selectors.stage_standings(stage=stage, group=group):
                    yield [
                        registry.stage_name(stage),
                        group.name if group else "",
                        line.rank,
                        line.position,
                        line.team.name,
                        line.team.club,
                        line.played,
                        line.wins,
                        line.draws,
                        line.losses,
                        line.byes,
                        _number(line.points),
                        line.chicos_for,
                        line.chicos_against,
                        line.tantos_for,
                        line.tantos_against,
                        tiebreaks_text(line.metrics),
                    ]

    return csv_lines(STANDINGS_COLUMNS, rows())


def export_matches(championship: Championship) -> Iterator[str]:
    """Every match with its result (derived from the hands, reported as a result, or the
    walkover) and how it was recorded (``recorded``: ``hands`` or ``result``)."""
    matches = (
        Match.objects.filter(stage__championship=championship)
        .select_related(
            "stage", "round", "group", "team_a", "team_b", "team_c", "winner", "referee"
        )
        .order_by("stage__order", "round__number", "pk")
    )

    zone = championship.zone
    # A gallo championship's tables of three: their third player at the end of the row
    # (the columns of every other championship stay as they are).
    three = championship.plays_gallo

    def rows() -> Iterator[list[Any]]:
        for m in matches.iterator(chunk_size=CHUNK_SIZE):
            third = third_cells(m, m.chicos_c, m.tantos_c) if three else []
            yield [
                m.pk,
                registry.stage_name(m.stage),
                m.round.label or m.round.number,
                m.group.name if m.group else "",
                m.bracket_id,
                m.table,
                local_moment(m.scheduled_at, zone),
                m.team_a.name,
                m.team_b.name if m.team_b else "",
                m.status,
                m.outcome,
                m.winner.name if m.winner else "",
                m.chicos_a,
                m.chicos_b,
                m.tantos_a,
                m.tantos_b,
                m.referee.get_username() if m.referee else "",
                m.reason_text,
                m.round.name_in(m.stage),
                1 if m.is_provisional else 0,
                local_moment(m.confirmed_at, zone),
                *third,
                m.recorded,
            ]

    # How each match was recorded, last of all: after a gallo championship's columns too,
    # so neither export's columns move.
    header = [*MATCH_COLUMNS, *(("team_c", "chicos_c", "tantos_c") if three else ()), "recorded"]
    return csv_lines(header, rows())


def third_cells(match: Match, *figures: Any) -> list[Any]:
    """A gallo championship's last cells: the third player and his ``figures``, or blanks."""
    if match.team_c_id is None:
        return [""] * (1 + len(figures))
    return [match.team_c.name, *figures]


def match_contexts(championship: Championship) -> dict[int, Match]:
    """Every played match with its teams' players: one entry per match, not per hand."""
    members = MEMBERS_IN_ORDER
    matches = (
        Match.objects.filter(stage__championship=championship, team_b__isnull=False)
        .select_related("stage__championship", "team_a", "team_b", "team_c")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=members),
            Prefetch("team_b__memberships", queryset=members),
            Prefetch("team_c__memberships", queryset=members),
        )
    )
    return {m.pk: m for m in matches}


def local_moment(moment: datetime.datetime | None, zone: datetime.tzinfo) -> str:
    """A stored time as ISO 8601 in the championship's time zone (with its offset)."""
    return moment.astimezone(zone).isoformat() if moment is not None else ""


RESERVED_NAMES = frozenset({"A", "B", "parda"})


def record_names(match: Match) -> dict[str, str]:
    """Each player's record key (``p<id>``) -> the name the export's records use: the
    player's name, with the key added where two players of the match share a name or a
    name could be read as a side ("A", "B") or a tied trick ("parda")."""
    # Who played the match (a player substituted out since is still named).
    players = records.lineup(match)
    keys = [k for side in ("A", "B", "C") for k in players.get(side, ())]
    names = records.names(match)
    counts: dict[str, int] = {}
    for key in keys:
        counts[names[key]] = counts.get(names[key], 0) + 1
    return {
        key: names[key]
        if counts[names[key]] == 1 and names[key] not in RESERVED_NAMES
        else f"{names[key]} ({key})"
        for key in keys
    }


# Fields whose text is the referee's own words, never a player: left as written.
_FREE_TEXT = frozenset({"reason", "void"})


def with_names(value: Any, names: Mapping[str, str]) -> Any:
    """A hand record with every player key replaced by his name (keys and values alike);
    a referee's free text (a penalty's or a void's reason) is left as it is.

    >>> with_names({"order": ["p1", "p2"], "events": [{"by": "p1", "call": "truco"},
    ...     {"void": "p1"}]}, {"p1": "Ana", "p2": "Beto"})
    {'order': ['Ana', 'Beto'], 'events': [{'by': 'Ana', 'call': 'truco'}, {'void': 'p1'}]}
    """
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [with_names(item, names) for item in value]
    if isinstance(value, dict):
        return {
            names.get(key, key): item if key in _FREE_TEXT else with_names(item, names)
            for key, item in value.items()
        }
    return value


def export_hands(championship: Championship) -> Iterator[str]:
    """Every hand: its match, game, number, points, its mano, who recorded it and when,
    and its record as a standalone hand record (docs/hand-record.md) naming the players
    by name, which ``python -m scoring hand`` scores (a gallo's: the third player's too)."""
    zone, three = championship.zone, championship.plays_gallo

    def rows() -> Iterator[list[Any]]:
        contexts = match_contexts(championship)
        renames: dict[int, dict[str, str]] = {}
        hands = (
            Hand.objects.filter(match__stage__championship=championship)
            .select_related("game", "recorded_by")
            .order_by("match_id", "number")
        )
        for hand in hands.iterator(chunk_size=CHUNK_SIZE):
            match = contexts[hand.match_id]
            if match.pk not in renames:
                renames[match.pk] = record_names(match)
            names = renames[match.pk]
            record = with_names(records.standalone_record(match, hand), names)
            mano = hand.order[0] if hand.order else ""
            yield [
                match.pk,
                match.team_a.name,
                match.team_b.name,
                hand.game.number if hand.game else "",
                hand.number,
                hand.points_a,
                hand.points_b,
                hand.score_a,
                hand.score_b,
                hand.status,
                hand.recorded_by.get_username() if hand.recorded_by else "",
                local_moment(hand.recorded_at, zone),
                json.dumps(record, ensure_ascii=False, separators=(",", ":")),
                names.get(mano, mano),
                local_moment(hand.corrected_at, zone),
                *(third_cells(match, hand.points_c, hand.score_c) if three else ()),
            ]

    header = [*HAND_COLUMNS, *(("team_c", "points_c", "score_c") if three else ())]
    return csv_lines(header, rows())


STATISTICS_SUMS = [field.name for field in dataclasses.fields(statistics_selectors.Totals)]
STATISTICS_COLUMNS = ["kind", "team", "player", "person", *STATISTICS_SUMS]


def export_statistics(championship: Championship) -> Iterator[str]:
    """The championship's statistics from the hands: a row per team (``kind`` team), then
    a row per player (``kind`` player: his name as the public sees it, his person's id,
    his side's points and his own calls). Public: no contact data, no licence."""

    def rows() -> Iterator[list[Any]]:
        for team_row in statistics_selectors.championship_teams(championship=championship):
            totals = team_row.totals
            yield ["team", team_row.team.name, "", "", *_sums(totals)]
        for person in statistics_selectors.championship_people(championship=championship):
            team = person.team.name if person.team else ""
            yield ["player", team, person.name, person.person_id or "", *_sums(person.totals)]

    return csv_lines(STATISTICS_COLUMNS, rows())


def _sums(totals: statistics_selectors.Totals) -> list[int]:
    return [getattr(totals, name) for name in STATISTICS_SUMS]


TABLE_COLUMNS = [
    "stage",
    "round",
    "round_name",
    "match",
    "table",
    "player",
    "side",
    "status",
    "place",
    "placement_points",
    "chicos",
    "tantos",
]


def export_tables(championship: Championship) -> Iterator[str]:
    """The stages of tables of three, one row per player and table (a bye: one row): his
    side (A, B, C), the table's status, his place (decided tables), the placement points
    it is worth in the standings (``standings.selectors.placement_points``), his chicos
    and tantos (a fijo pair: the pair's)."""
    matches = (
        Match.objects.filter(
            stage__championship=championship, stage__format__in=standing_selectors.TABLE_FORMATS
        )
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .order_by("stage__order", "round__number", "pk")
    )

    def rows() -> Iterator[list[Any]]:
        for m in matches.iterator(chunk_size=CHUNK_SIZE):
            scheme = standing_selectors.placement_points(m.stage)
            head = [registry.stage_name(m.stage), m.round.number, m.round.name_in(m.stage)]
            head += [m.pk, m.table]
            if m.team_b_id is None:
                bye = m.outcome == Match.Outcome.BYE
                points = _number(scheme.bye) if bye else ""
                yield [*head, m.team_a.name, "A", m.status, "", points, 0, 0]
                continue
            seated = {"A": m.team_a, "B": m.team_b, "C": m.team_c}
            decided = m.status in Match.DECIDED
            if m.team_c_id is not None:
                places = {int(team): place for team, place in m.places.items()}
            else:
                places = {m.team_a_id: 1 if m.winner_id == m.team_a_id else 2}
                places[m.team_b_id] = 1 if m.winner_id == m.team_b_id else 2
            worth = scheme.for_places(places) if decided and places else {}
            for side, team in seated.items():
                if team is None:
                    continue
                column = side.lower()
                yield [
                    *head,
                    team.name,
                    side,
                    m.status,
                    places.get(team.pk, "") if decided else "",
                    _number(worth[team.pk]) if team.pk in worth else "",
                    getattr(m, f"chicos_{column}"),
                    getattr(m, f"tantos_{column}"),
                ]

    return csv_lines(TABLE_COLUMNS, rows())


EXPORTS: dict[str, Callable[[Championship], Iterator[str]]] = {
    "standings": export_standings,
    "matches": export_matches,
    "tables": export_tables,
    "hands": export_hands,
    "statistics": export_statistics,
}


def export_csv(championship: Championship, kind: str) -> Iterator[str]:
    """The export ``kind`` (standings, matches, hands or statistics); ``KeyError`` for
    another kind."""
    return EXPORTS[kind](championship)


def filename(championship: Championship, kind: str) -> str:
    return f"{championship.slug}-{kind}.csv"
