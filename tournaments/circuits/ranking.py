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
  (the best first, then the second best...; a result that scored nothing is no result),
  then more events played; lines equal on all of these share their rank (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

ZERO = Decimal(0)


@dataclass(frozen=True)
class EventRule:
    """What the ranking needs of an event: its weight and its order (date, then id)."""

    id: int
    weight: Decimal
    order: tuple


class Row(NamedTuple):
    """One team's placement in one event."""

    event_id: int
    people_key: str
    place: int
    tied: bool


class Result(NamedTuple):
    event_id: int
    place: int
    tied: bool
    points: Decimal
    counted: bool


class Line(NamedTuple):
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


def _points(cents: int) -> Decimal:
    """Hundredths of a point as points, without trailing zeros (10000 → 100, 12550 →
    125.5).

    >>> _points(10000), _points(12550)
    (Decimal('100'), Decimal('125.5'))
    """
    return (Decimal(cents) / 100).normalize() if cents % 100 else Decimal(cents // 100)


def rank(
    *,
    events: Sequence[EventRule],
    rows: Iterable[Row],
    table: Sequence,
    best_of: int | None,
    person: int | None = None,
) -> tuple[list[Line], list[Line]]:
    """The persons' and the teams' lines, best first. Rows of events not in ``events``
    (those that do not count) are left out.

    With ``person``, only that person's line (ranked among everyone's) and no team's:
    what his page shows, for a fraction of the cost.

    A season of 10,000 placements is summed in well under a second: points are kept in
    hundredths (integers) until the lines are made, and sorted by plain tuples.
    """
    weights = {e.id: Decimal(e.weight) for e in events}
    order = {e.id: e.order for e in events}
    cents: dict[tuple[int, int], int] = {}
    # key → {event id: (cents, place, tied)}
    teams: dict[str, dict[int, tuple[int, int, bool]]] = {}
    persons: dict[int, dict[int, tuple[int, int, bool]]] = {}
    for event_id, key, place, tied in rows:
        weight = weights.get(event_id)
        if weight is None:
            continue
        value = cents.get((event_id, place))
        if value is None:
            exact = table_points(table, place) * weight * 100
            value = cents[(event_id, place)] = int(exact.to_integral_value())
        result = (value, place, tied)
        teams.setdefault(key, {})[event_id] = result
        for pk in person_ids_of(key):
            mine = persons.setdefault(pk, {})
            kept = mine.get(event_id)
            # A person in two teams of one event (a substitute, say) keeps the better one.
            if kept is None or (value, -place) > (kept[0], -kept[1]):
                mine[event_id] = result
    only = None if person is None else str(person)
    person_lines = _lines(
        ((str(pk), (pk,), results) for pk, results in persons.items()), order, best_of, only
    )
    if person is not None:
        return person_lines, []
    team_lines = _lines(
        ((key, person_ids_of(key), results) for key, results in teams.items()), order, best_of
    )
    return person_lines, team_lines


def _lines(
    entries: Iterable[tuple[str, tuple[int, ...], dict[int, tuple[int, int, bool]]]],
    order: dict[int, tuple],
    best_of: int | None,
    only: str | None = None,
) -> list[Line]:
    scored = []
    for key, person_ids, results in entries:
        by_merit = sorted(results, key=lambda e: (-results[e][0], order[e]))
        counted = set(by_merit if best_of is None else by_merit[:best_of])
        # Results that scored nothing compare as no result (then more events decide).
        best = sorted((c for e in counted if (c := results[e][0])), reverse=True)
        # The sort key: smaller is better on every part, then the key (a stable order).
        merit = (-sum(best), tuple(-c for c in best), -len(results))
        scored.append((merit, key, person_ids, results, counted))
    scored.sort(key=lambda s: (s[0], s[1]))
    lines: list[Line] = []
    previous, rank_before = None, 0
    # A team's players share its results: each distinct result is made once.
    made: dict[tuple, Result] = {}
    for index, (merit, key, person_ids, results, counted) in enumerate(scored):
        after = scored[index + 1][0] if index + 1 < len(scored) else None
        position = rank_before if merit == previous else index + 1
        rank_before, previous = position, merit
        if only is not None and key != only:
            continue
        ordered = []
        for e in sorted(results, key=order.__getitem__):
            raw = (e, *results[e], e in counted)
            result = made.get(raw)
            if result is None:
                value, place, tied = results[e]
                result = made[raw] = Result(e, place, tied, _points(value), raw[-1])
            ordered.append(result)
        ordered = tuple(ordered)
        total = _points(-merit[0])
        tied = merit in (scored[index - 1][0] if index else None, after)
        lines.append(Line(position, tied, key, person_ids, total, ordered))
    return lines
