"""The circuit's ranking as CSV (docs/csv.md): a row per player, then a row per team, as
the circuit's page shows them.

Written with ``tournaments.io``'s CSV writer (the byte-order mark, and every text cell
guarded against formulas: a name like ``=HYPERLINK(...)`` stays text). Public: names as
the public sees them ("Ana R."), person ids (their public pages), never an email, a phone
or a licence number. Headers are stable keys, not translated; each event of the circuit
is a column named by its championship's slug, in date order, after the fixed ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from tournaments.circuits import selectors as circuit_selectors
from tournaments.io.exports import csv_lines
from tournaments.models import Circuit, CircuitEvent

RANKING_COLUMNS = [
    "kind",
    "rank",
    "tied",
    "name",
    "persons",
    "points",
    "counted",
    "qualified",
    "not_counted",
]


def number(points: Decimal) -> int | Decimal:
    """Points as a spreadsheet reads them: whole when whole.

    >>> number(Decimal("70.00")), number(Decimal("35.50"))
    (70, Decimal('35.5'))
    """
    if points == points.to_integral_value():
        return int(points)
    return points.normalize()


def _row(kind: str, line: circuit_selectors.RankingLine, events: list[CircuitEvent]) -> list[Any]:
    found = {result.event.pk: result for result in line.results}
    return [
        kind,
        line.rank,
        int(line.tied),
        line.name,
        "-".join(str(pk) for pk in line.person_ids),
        number(line.points),
        sum(1 for result in line.results if result.counted),
        int(line.qualified),
        " ".join(result.event.championship.slug for result in line.results if not result.counted),
        *(number(found[event.pk].points) if event.pk in found else "" for event in events),
    ]


def export_ranking(circuit: Circuit) -> Iterator[str]:
    """The ranking of ``circuit``: ``kind`` person rows, best first, then ``kind`` team
    rows; each event's points in its own column (empty: no result there)."""
    events = circuit_selectors.circuit_events(circuit=circuit)
    ranking = circuit_selectors.circuit_ranking(circuit=circuit)
    header = RANKING_COLUMNS + [event.championship.slug for event in events]

    def rows() -> Iterator[list[Any]]:
        for line in ranking.persons:
            yield _row("person", line, events)
        for line in ranking.teams:
            yield _row("team", line, events)

    return csv_lines(header, rows())


def filename(circuit: Circuit) -> str:
    return f"{circuit.slug}-ranking.csv"
