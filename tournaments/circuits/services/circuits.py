"""A circuit and its rules, its events: created, changed, removed."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.formats import date_format
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from tournaments.circuits.access import can_manage_championship
from tournaments.circuits.qualification import (
    circuit_announce,
    circuit_event_refresh,
    qualification_sync,
)
from tournaments.circuits.services._checks import check_may_manage, refuse
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    CircuitQualification,
    RatingFamily,
    name_key,
)
from tournaments.signals import announce
from tournaments.text import line_problem, paragraph

lazy_date = lazy(date_format, str)


def _check_rules(
    *,
    name: str,
    family: str,
    start_date: datetime.date,
    end_date: datetime.date,
    points: Sequence[Any],
    best_of: int | None,
    qualify_per_event: int,
    qualify_by_points: int,
) -> tuple[str, list[int]]:
    """The name and the points table as whole numbers, or the first thing wrong with the
    name or the rules."""
    if (problem := line_problem(name, field="name", what=_("The circuit's name"))) is not None:
        raise problem
    name = name.strip()
    if not name:
        raise refuse(_("Give the circuit a name."), "circuit_name_missing", "name")
    if family not in RatingFamily.values:
        raise refuse(
            _("Choose the circuit's rules family: Argentine truco or Catalan truc."),
            "circuit_family",
            "family",
        )
    if end_date < start_date:
        raise refuse(_("A circuit cannot end before it starts."), "dates_reversed", "end_date")
    table: list[int] = []
    for value in points:
        try:
            number = int(value)
        except (TypeError, ValueError):
            number = None
        if number is None or str(value).strip() != str(number):
            raise refuse(
                _("%(value)s is not a number of points: give whole numbers, as 100, 70, 50."),
                "points_not_number",
                "points",
                value=value,
            )
        table.append(number)
    if not table:
        raise refuse(
            _("Give the points of at least the first place, as 100, 70, 50, 40."),
            "points_empty",
            "points",
        )
    if any(value < 0 for value in table):
        raise refuse(
            _("Points cannot be negative: a place past the table's end scores nothing."),
            "points_negative",
            "points",
        )
    for place, (above, below) in enumerate(itertools.pairwise(table), start=2):
        if below > above:
            raise refuse(
                _(
                    "Place %(place)s scores more than the place above it (%(below)s after"
                    " %(above)s): a place never scores more than a better one."
                ),
                "points_rising",
                "points",
                place=place,
                above=above,
                below=below,
            )
    if best_of is not None and best_of < 1:
        raise refuse(
            _("At least one result counts: leave it empty for every result."),
            "best_of_zero",
            "best_of",
        )
    if qualify_per_event < 0 or qualify_by_points < 0:
        raise refuse(
            _("The number of qualified teams cannot be negative."),
            "qualify_negative",
            "qualify_per_event" if qualify_per_event < 0 else "qualify_by_points",
        )
    return name, table


@transaction.atomic
def circuit_create(
    *,
    name: str,
    slug: str,
    family: str,
    start_date: datetime.date,
    end_date: datetime.date,
    points: Sequence[Any],
    best_of: int | None,
    qualify_per_event: int,
    qualify_by_points: int,
    description: str = "",
    by: Any,
) -> Circuit:
    """Create a circuit organised by ``by`` (any signed-in user may start one)."""
    if not getattr(by, "is_authenticated", False) or not by.is_active:
        raise refuse(_("Sign in to create a circuit."), "circuit_not_yours")
    name, table = _check_rules(
        name=name,
        family=family,
        start_date=start_date,
        end_date=end_date,
        points=points,
        best_of=best_of,
        qualify_per_event=qualify_per_event,
        qualify_by_points=qualify_by_points,
    )
    slug = slug.strip()
    taken = refuse(
        _("Another circuit already uses the short name %(slug)s."), "slug_taken", "slug", slug=slug
    )
    if Circuit.objects.filter(slug=slug).exists():
        raise taken
    circuit = Circuit(
        name=name,
        slug=slug,
        family=family,
        start_date=start_date,
        end_date=end_date,
        points=table,
        best_of=best_of,
        qualify_per_event=qualify_per_event,
        qualify_by_points=qualify_by_points,
        description=paragraph(description).strip(),
    )
    try:
        circuit.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        raise refuse(" ".join(messages), "circuit_invalid", field) from None
    try:
        with transaction.atomic():
            circuit.save()
    except IntegrityError:
        # Two organisers creating the same short name at once: one is told.
        raise taken from None
    circuit.organisers.add(by)
    return circuit


@transaction.atomic
def circuit_update(
    *,
    circuit: Circuit,
    name: str,
    family: str,
    start_date: datetime.date,
    end_date: datetime.date,
    points: Sequence[Any],
    best_of: int | None,
    qualify_per_event: int,
    qualify_by_points: int,
    description: str = "",
    by: Any,
) -> Circuit:
    """Change a circuit's name, dates and rules. Its short name, the public address,
    stays. The family and the dates must still fit every event it holds."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    check_may_manage(by, circuit)
    name, table = _check_rules(
        name=name,
        family=family,
        start_date=start_date,
        end_date=end_date,
        points=points,
        best_of=best_of,
        qualify_per_event=qualify_per_event,
        qualify_by_points=qualify_by_points,
    )
    for event in circuit.events.select_related("championship"):
        _check_fits(event.championship, circuit, family, start_date, end_date)
    circuit.name = name
    circuit.family = family
    circuit.start_date = start_date
    circuit.end_date = end_date
    circuit.points = table
    circuit.best_of = best_of
    circuit.qualify_per_event = qualify_per_event
    circuit.qualify_by_points = qualify_by_points
    circuit.description = paragraph(description).strip()
    circuit.save()
    # New rules may qualify other teams (more per qualifier, more by points).
    qualification_sync(circuit=circuit)
    _announce(circuit)
    return circuit


def _announce(circuit: Circuit) -> None:
    """The circuit's pages, and every event's championship page (it says it is part of
    the circuit): refresh them."""
    circuit_announce(circuit=circuit)
    events = circuit.events.values_list("championship_id", "championship__slug")
    for championship_id, slug in events:
        announce(championship_id=championship_id, what="championship", slug=slug)


def _check_fits(
    championship: Championship,
    circuit: Circuit,
    family: str,
    start_date: datetime.date,
    end_date: datetime.date,
) -> None:
    """The championship plays the circuit's rules family within its dates."""
    own = RatingFamily.CATALAN if championship.is_catalan else RatingFamily.ARGENTINE
    if own != family:
        raise refuse(
            _(
                "%(championship)s plays %(own)s and the circuit %(family)s: one ranking"
                " compares like with like."
            ),
            "event_family",
            "championship",
            championship=championship.name,
            own=RatingFamily(own).label,
            family=RatingFamily(family).label,
        )
    last = championship.end_date or championship.start_date
    if championship.start_date < start_date or last > end_date:
        raise refuse(
            _("%(championship)s is played outside the circuit's dates (%(start)s to %(end)s)."),
            "event_dates",
            "championship",
            championship=championship.name,
            # Written in the reader's language when the sentence is shown.
            start=lazy_date(start_date, "DATE_FORMAT"),
            end=lazy_date(end_date, "DATE_FORMAT"),
        )


def _clean_event(kind: str, weight: Any, towns: Iterable[str]) -> tuple[Decimal, list[str]]:
    if kind not in CircuitEvent.Kind.values:
        raise refuse(
            _("Choose the event's kind: qualifier, final or ranking event."), "event_kind", "kind"
        )
    try:
        weight = Decimal(str(weight))
    except (InvalidOperation, ValueError):
        weight = Decimal(0)
    if not weight.is_finite() or weight <= 0 or weight >= 1000:
        raise refuse(
            _("An event's weight is a number above zero, as 1, 2 or 0.5."), "event_weight", "weight"
        )
    kept: dict[str, str] = {}
    for town in towns:
        town = " ".join(str(town).split())
        if town and name_key(town) not in kept:
            kept[name_key(town)] = town
    return weight, list(kept.values())


def _check_one_final(circuit: Circuit, kind: str, event: CircuitEvent | None = None) -> None:
    if kind != CircuitEvent.Kind.FINAL:
        return
    final = circuit.events.filter(kind=CircuitEvent.Kind.FINAL).select_related("championship")
    if event is not None:
        final = final.exclude(pk=event.pk)
    if (other := final.first()) is not None:
        raise refuse(
            _("This circuit already has a final: %(championship)s."),
            "second_final",
            "kind",
            championship=other.championship.name,
        )


def _check_may_manage_championship(by: Any, championship: Championship) -> None:
    if not can_manage_championship(by, championship):
        raise refuse(
            _("You do not organise %(championship)s: only its organisers may add it."),
            "championship_not_yours",
            "championship",
            championship=championship.name,
        )


def _entered_in_final(event: CircuitEvent) -> bool:
    """Whether teams qualified through ``event`` (or, for the final, any team) are
    already entered in the final."""
    rows = CircuitQualification.objects.filter(
        circuit_id=event.circuit_id,
        status=CircuitQualification.Status.ENTERED,
        final_team__isnull=False,
    )
    if event.kind != CircuitEvent.Kind.FINAL:
        rows = rows.filter(event=event)
    return rows.exists()


@transaction.atomic
def circuit_event_add(
    *,
    circuit: Circuit,
    championship: Championship,
    kind: str,
    weight: Any = 1,
    place: str = "",
    towns: Iterable[str] = (),
    by: Any,
) -> CircuitEvent:
    """Add ``championship`` to ``circuit`` as a qualifier, its final or a ranking event.

    ``towns`` (not empty) restrict a qualifier's entry form to players of those towns;
    ``place`` is the town or region the public reads."""
    circuit = Circuit.objects.select_for_update().get(pk=circuit.pk)
    check_may_manage(by, circuit)
    _check_may_manage_championship(by, championship)
    weight, towns = _clean_event(kind, weight, towns)
    existing = CircuitEvent.objects.filter(championship=championship).select_related("circuit")
    if (event := existing.first()) is not None:
        raise refuse(
            _("%(championship)s is already part of the circuit %(circuit)s."),
            "championship_in_circuit",
            "championship",
            championship=championship.name,
            circuit=event.circuit.name,
        )
    _check_fits(championship, circuit, circuit.family, circuit.start_date, circuit.end_date)
    _check_one_final(circuit, kind)
    event = CircuitEvent.objects.create(
        circuit=circuit,
        championship=championship,
        kind=kind,
        weight=weight,
        place=" ".join(paragraph(place).split()),
        towns=towns,
    )
    # A championship already played scores at once: its placements, the final's teams.
    circuit_event_refresh(event=event)
    circuit_announce(circuit=circuit, championship_id=championship.pk)
    announce(championship_id=championship.pk, what="championship", slug=championship.slug)
    return event


@transaction.atomic
def circuit_event_update(
    *,
    event: CircuitEvent,
    kind: str,
    weight: Any = 1,
    place: str = "",
    towns: Iterable[str] = (),
    by: Any,
) -> CircuitEvent:
    """Change an event's kind, weight, place and towns. A qualifier or final whose
    qualified teams are already entered in the final keeps its kind."""
    circuit = Circuit.objects.select_for_update().get(pk=event.circuit_id)
    event = CircuitEvent.objects.select_related("championship").get(pk=event.pk)
    check_may_manage(by, circuit)
    weight, towns = _clean_event(kind, weight, towns)
    _check_one_final(circuit, kind, event)
    if kind != event.kind and _entered_in_final(event):
        raise refuse(
            _("Teams qualified through %(championship)s are already in the final: its kind stays."),
            "event_has_qualified",
            "kind",
            championship=event.championship.name,
        )
    event.kind = kind
    event.weight = weight
    event.place = " ".join(place.split())
    event.towns = towns
    event.save()
    # Its weight or kind changes the ranking and who qualifies.
    qualification_sync(circuit=circuit)
    circuit_announce(circuit=circuit, championship_id=event.championship_id)
    announce(
        championship_id=event.championship_id, what="championship", slug=event.championship.slug
    )
    return event


@transaction.atomic
def circuit_event_remove(*, event: CircuitEvent, by: Any) -> None:
    """Take a championship out of its circuit (the championship itself stays). Refused
    once teams qualified through it (or, for the final, any team) are in the final."""
    circuit = Circuit.objects.select_for_update().get(pk=event.circuit_id)
    event = CircuitEvent.objects.select_related("championship").get(pk=event.pk)
    check_may_manage(by, circuit)
    if _entered_in_final(event):
        raise refuse(
            _(
                "Teams qualified through %(championship)s are already entered in the final:"
                " withdraw them there first."
            ),
            "event_has_qualified",
            championship=event.championship.name,
        )
    championship = event.championship
    event.delete()
    qualification_sync(circuit=circuit)
    circuit_announce(circuit=circuit, championship_id=championship.pk)
    announce(championship_id=championship.pk, what="championship", slug=championship.slug)
