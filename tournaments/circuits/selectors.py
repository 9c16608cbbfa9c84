"""Reads of circuits: their events, qualifications and ranking.

The ranking reads the stored placements (``CircuitPlacement``, rewritten for an event
whenever its results change): one query for the placements, one for the names, then the
sums of ``circuits.ranking``. Finished events count, and events in play count too, with
their provisional placements (the pages say so: ``Ranking.tiebreaks`` ends with the
note); events not started yet score nothing.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.circuits import ranking as pure
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    CircuitPlacement,
    CircuitQualification,
    Membership,
    Person,
    public_name,
)

# The championships whose placements count in the ranking (in play: provisionally).
COUNTING = (Championship.Status.RUNNING, Championship.Status.FINISHED)


@dataclass(frozen=True)
class EventResult:
    event: CircuitEvent  # with .championship loaded
    place: int
    tied: bool
    points: Decimal  # table points × the event's weight
    counted: bool  # among the best N

    @property
    def provisional(self) -> bool:
        """The event is still in play: the place may change."""
        return self.event.championship.status != Championship.Status.FINISHED


@dataclass(frozen=True)
class RankingLine:
    rank: int
    tied: bool  # shares its rank after every tie-break
    key: str  # a person: str(person.pk); a team: its people_key "3-17"
    name: str  # public name(s): Person.public_name, joined " / " for a team
    person_ids: tuple[int, ...]
    points: Decimal  # the counted results' sum
    results: tuple[EventResult, ...]  # in event date order
    qualified: bool  # entered in the final (a CircuitQualification ENTERED)


@dataclass(frozen=True)
class Ranking:
    circuit: Circuit
    persons: list[RankingLine]
    teams: list[RankingLine]
    tiebreaks: list[str]  # the tie-breaks in words, translated, in order


def ranking_tiebreaks(circuit: Circuit) -> list[str]:
    """How lines equal on points are ordered, in words (the points themselves come first
    and are no tie-break), then how the events count (for the pages)."""
    words = [
        _("The better results, compared one by one from the best."),
        _("Then more events played."),
        _("Lines still equal share their rank."),
    ]
    if circuit.best_of:
        words.append(
            ngettext(
                "Only the best result of each player and team counts.",
                "Only the best %(count)d results of each player and team count.",
                circuit.best_of,
            )
            % {"count": circuit.best_of}
        )
    words.append(
        _(
            "Tied teams each score the points of the place they share. Events in play "
            "count provisionally; the final counts like any other event, with its weight."
        )
    )
    return words


def circuit_events(*, circuit: Circuit) -> list[CircuitEvent]:
    """The circuit's events, their championships loaded, by date."""
    return list(
        CircuitEvent.objects.filter(circuit=circuit)
        .select_related("championship")
        .order_by("championship__start_date", "pk")
    )


def circuit_qualifications(*, circuit: Circuit) -> list[CircuitQualification]:
    """The circuit's qualifications, oldest first, with their teams and events loaded."""
    return list(
        CircuitQualification.objects.filter(circuit=circuit)
        .select_related("event__championship", "source_team", "final_team__entry", "replaces")
        .order_by("created_at", "pk")
    )


def public_circuits() -> QuerySet[Circuit]:
    """Every circuit, newest first."""
    return Circuit.objects.order_by("-start_date", "name")


def circuit_by_slug(*, slug: str) -> Circuit:
    """The circuit of ``slug``; ``Circuit.DoesNotExist`` when there is none."""
    return Circuit.objects.get(slug=slug)


def counting_events(events: list[CircuitEvent]) -> list[CircuitEvent]:
    return [e for e in events if e.championship.status in COUNTING]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while a ranking is built: its hundred
    thousand small objects (a season of 10,000 placements) hold no cycles, and the
    collector's passes over the whole process as they are made doubled the time
    (bench/README.md, "Circuit ranking")."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def circuit_ranking(*, circuit: Circuit) -> Ranking:
    """The persons' and the teams' ranking of ``circuit`` (five queries)."""
    with _collector_paused():
        return _ranking(circuit)


@dataclass(frozen=True)
class _Ranked:
    """A circuit's ranking before names: its counting events by id, the persons' and the
    teams' lines, the qualified teams' keys and their people's."""

    events: dict[int, CircuitEvent]
    persons: list[pure.Line]
    teams: list[pure.Line]
    qualified: set[str]
    qualified_persons: set[str]


def _ranked(circuit: Circuit, person: Person | None = None) -> _Ranked:
    events = counting_events(circuit_events(circuit=circuit))
    by_id = {e.pk: e for e in events}
    rows = [
        pure.Row(event_id, key, place, tied)
        for event_id, key, place, tied in CircuitPlacement.objects.filter(event_id__in=list(by_id))
        .order_by()
        .values_list("event_id", "people_key", "place", "tied")
    ]
    persons, teams = pure.rank(
        events=[_rule(e, order) for order, e in enumerate(events)],
        rows=rows,
        table=circuit.points,
        best_of=circuit.best_of,
        person=None if person is None else person.pk,
    )
    qualified = set(
        CircuitQualification.objects.filter(
            circuit=circuit, status=CircuitQualification.Status.ENTERED
        ).values_list("people_key", flat=True)
    )
    qualified_persons = {str(pk) for key in qualified for pk in pure.person_ids_of(key)}
    return _Ranked(by_id, persons, teams, qualified, qualified_persons)


def _ranking(circuit: Circuit, person: Person | None = None) -> Ranking:
    ranked = _ranked(circuit, person)
    if person is None:
        names = _names(ranked.events, {pk for line in ranked.persons for pk in line.person_ids})
    else:
        names = {person.pk: person.public_name}
    return Ranking(
        circuit=circuit,
        persons=_present(ranked.persons, ranked.events, names, ranked.qualified_persons),
        teams=_present(ranked.teams, ranked.events, names, ranked.qualified),
        tiebreaks=ranking_tiebreaks(circuit),
    )


def person_lines(*, circuit: Circuit) -> dict[int, tuple[pure.Line, bool]]:
    """Each person's line in ``circuit``'s ranking, and whether he is qualified for its
    final: what his page shows of the circuit (:func:`person_circuit_lines`) but the
    names, which change by announcements of their own. Compared before and after a
    refresh of the placements, it names the persons whose pages changed. Three queries."""
    with _collector_paused():
        ranked = _ranked(circuit)
    return {
        line.person_ids[0]: (line, line.key in ranked.qualified_persons) for line in ranked.persons
    }


def person_circuit_lines(*, person: Person) -> list[tuple[Circuit, RankingLine]]:
    """The person's line in the ranking of each circuit he played an event of, newest
    circuit first."""
    keys = CircuitPlacement.objects.filter(people_key__regex=rf"(^|-){person.pk}(-|$)")
    circuit_ids = set(keys.values_list("event__circuit_id", flat=True))
    found = []
    for circuit in Circuit.objects.filter(pk__in=circuit_ids).order_by("-start_date", "name"):
        with _collector_paused():
            ranking = _ranking(circuit, person=person)
        found += [(circuit, line) for line in ranking.persons]
    return found


def _rule(event: CircuitEvent, order: int) -> pure.EventRule:
    return pure.EventRule(id=event.pk, weight=Decimal(event.weight), order=(order,))


def _names(events: dict[int, CircuitEvent], wanted: set[int]) -> dict[int, str]:
    """The public names of the people placed in ``events``: one query through the teams
    (a subquery, where a list of thousands of ids costs more than the query itself), and
    one more for anyone it missed (a team's line-up changed since its placements)."""
    teams = CircuitPlacement.objects.filter(event_id__in=list(events)).values("team_id")
    people = Membership.objects.filter(team_id__in=teams).values("player__person_id")
    fields = ("pk", "name", "initial_only")
    names = {
        pk: public_name(name, initial_only=initial)
        for pk, name, initial in Person.objects.filter(pk__in=people).values_list(*fields)
    }
    missing = wanted - names.keys()
    if missing:
        for pk, name, initial in Person.objects.filter(pk__in=missing).values_list(*fields):
            names[pk] = public_name(name, initial_only=initial)
    return names


def _present(
    lines: list[pure.Line],
    events: dict[int, CircuitEvent],
    names: dict[int, str],
    qualified: set[str],
) -> list[RankingLine]:
    made: dict[pure.Result, EventResult] = {}

    def present(r: pure.Result) -> EventResult:
        # A team's players share its results: each distinct one is made once.
        found = made.get(r)
        if found is None:
            found = made[r] = EventResult(
                event=events[r.event_id],
                place=r.place,
                tied=r.tied,
                points=r.points,
                counted=r.counted,
            )
        return found

    presented = [
        RankingLine(
            rank=line.rank,
            tied=line.tied,
            key=line.key,
            name=" / ".join(names.get(pk, "?") for pk in line.person_ids),
            person_ids=line.person_ids,
            points=line.points,
            results=tuple(present(r) for r in line.results),
            qualified=line.key in qualified,
        )
        for line in lines
    ]
    # Lines sharing a rank are listed by name.
    presented.sort(key=lambda line: (line.rank, line.name.casefold()))
    return presented
