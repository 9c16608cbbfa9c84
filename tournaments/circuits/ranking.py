"""The circuit ranking as plain computation: placements in, ranked lines out (no Django).

The rules (docs/tournaments.md, "Circuits"):

- an event's placement scores the circuit's table's points for that place (index 0 is
  1st; a place past the end of the table scores nothing), times the event's weight. The
  final counts like any other event, with its own weight;
- tied teams each score the points of the place they share (two teams 3rd both score
  the 3rd's points, the usual rule), not the average of the places they cover;
- a person scores the placements of his teams (every player of a team scores the team's
  points); a team is its set of people (``people_key``), whatever its name in each event;
- only the best ``best_of`` results count (None: all), the better points first, then the
  earlier event;
- lines are ordered by more points, then the better counted results compared one by one
  (the best first, then the second best...), then more events played; lines equal on all
  of these share their rank (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

ZERO = Decimal(0)


@dataclass(frozen=True)
class EventRule:
    """What the ranking needs of an event: its weight and its order (date, then id)."""

    id: int
    weight: Decimal
    order: tuple


@dataclass(frozen=True)
class Row:
    """One team's placement in one event."""

    event_id: int
    people_key: str
    place: int
    tied: bool


@dataclass(frozen=True)
class Result:
    event_id: int
    place: int
    tied: bool
    points: Decimal
    counted: bool


@dataclass(frozen=True)
class Line:
    rank: int
    tied: bool
    key: str
    person_ids: tuple[int, ...]
    points: Decimal
    results: tuple[Result, ...]  # in event order


def people_key(person_ids: Iterable[int]) -> str:
    """A team across championships: its person ids, sorted, joined by "-".

    >>> people_key([17, 3])
    '3-17'
    """
    return "-".join(str(pk) for pk in sorted(set(person_ids)))


def person_ids_of(key: str) -> tuple[int, ...]:
    """The person ids of a ``people_key``.

    >>> person_ids_of("3-17")
    (3, 17)
    """
    return tuple(int(pk) for pk in key.split("-") if pk)


def table_points(table: Sequence, place: int) -> Decimal:
    """The table's points for ``place`` (1-based); nothing past its end.

    >>> table_points([100, 70, 50], 2), table_points([100, 70, 50], 4)
    (Decimal('70'), Decimal('0'))
    """
    if 1 <= place <= len(table):
        return Decimal(str(table[place - 1]))
    return ZERO


def _clean(value: Decimal) -> Decimal:
    """Points without trailing zeros from the weight's decimals (100.00 → 100)."""
    value = value.quantize(Decimal("0.01"))
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


def rank(
    *,
    events: Sequence[EventRule],
    rows: Iterable[Row],
    table: Sequence,
    best_of: int | None,
) -> tuple[list[Line], list[Line]]:
    """The persons' and the teams' lines, best first. Rows of events not in ``events``
    (those that do not count) are left out."""
    rules = {e.id: e for e in events}
    teams: dict[str, dict[int, Result]] = {}
    persons: dict[int, dict[int, Result]] = {}
    for row in rows:
        event = rules.get(row.event_id)
        if event is None:
            continue
        points = _clean(table_points(table, row.place) * event.weight)
        result = Result(row.event_id, row.place, row.tied, points, False)
        teams.setdefault(row.people_key, {})[row.event_id] = result
        for pk in person_ids_of(row.people_key):
            kept = persons.setdefault(pk, {}).get(row.event_id)
            # A person in two teams of one event (a substitute, say) keeps the better one.
            if kept is None or (result.points, -result.place) > (kept.points, -kept.place):
                persons[pk][row.event_id] = result
    person_lines = _lines(
        ((str(pk), (pk,), results) for pk, results in persons.items()), rules, best_of
    )
    team_lines = _lines(
        ((key, person_ids_of(key), results) for key, results in teams.items()), rules, best_of
    )
    return person_lines, team_lines


def _lines(
    entries: Iterable[tuple[str, tuple[int, ...], dict[int, Result]]],
    rules: dict[int, EventRule],
    best_of: int | None,
) -> list[Line]:
    scored = []
    for key, person_ids, results in entries:
        chosen = sorted(results.values(), key=lambda r: (-r.points, rules[r.event_id].order))
        counted = {r.event_id for r in (chosen if best_of is None else chosen[:best_of])}
        ordered = tuple(
            Result(r.event_id, r.place, r.tied, r.points, r.event_id in counted)
            for r in sorted(results.values(), key=lambda r: rules[r.event_id].order)
        )
        counted_points = sorted((r.points for r in ordered if r.counted), reverse=True)
        total = sum(counted_points, ZERO)
        # The sort key: bigger is better on every part.
        merit = (total, tuple(counted_points), len(ordered))
        scored.append((merit, key, person_ids, total, ordered))
    scored.sort(key=lambda s: (_negated(s[0]), s[1]))
    lines: list[Line] = []
    for index, (merit, key, person_ids, total, ordered) in enumerate(scored):
        before = scored[index - 1][0] if index else None
        after = scored[index + 1][0] if index + 1 < len(scored) else None
        position = lines[-1].rank if before == merit else index + 1
        tied = merit in (before, after)
        lines.append(Line(position, tied, key, person_ids, total, ordered))
    return lines


class _negated:
    """Sorts a merit tuple descending (tuples of Decimals cannot simply be negated)."""

    __slots__ = ("merit",)

    def __init__(self, merit: tuple) -> None:
        self.merit = merit

    def __lt__(self, other: _negated) -> bool:
        return self.merit > other.merit

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _negated) and self.merit == other.merit
