"""Public pages of the circuits: every circuit (``/circuits/``) and one circuit
(``/circuits/<slug>/``): its events, its rules in words, the ranking of its players and of
its teams with each event's result (counted or not), and who has qualified for its final;
the ranking as CSV.

No login, no contact data: names are the people's public names (``Person.public_name``).
Cached and live like the other public pages (``tournaments.live``): the list follows
``site``, a circuit's page ``site`` (its events' names and status) and its own topic
``k.<slug>``, which ``tournaments.circuits`` bumps once an event's placements or the
final's qualified teams change, and any change of the circuit itself does.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import live
from tournaments.circuits import export
from tournaments.circuits import selectors as circuit_selectors
from tournaments.live import public_page
from tournaments.models import Championship, Circuit, CircuitEvent, CircuitQualification


def _circuit(slug: str) -> Circuit:
    try:
        return circuit_selectors.circuit_by_slug(slug=slug)
    except Circuit.DoesNotExist:
        raise Http404("No such circuit.") from None


def points_text(points: Decimal) -> str:
    """Points (or a weight) as the pages show them: whole when whole, else with their
    decimals, written as the reader's language writes a decimal ("1,5" in Spanish and
    Catalan, "1.5" in English).

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     points_text(Decimal("70.00")), points_text(Decimal("35.50"))
    ('70', '35.5')
    >>> with translation.override("es"):
    ...     points_text(Decimal("12.25")), points_text(Decimal("1.50"))
    ('12,25', '1,5')
    """
    if points == points.to_integral_value():
        return str(points.quantize(Decimal(1)))
    return number_format(points.normalize())


def rules_in_words(circuit: Circuit, events: list[CircuitEvent]) -> list[str]:
    """The circuit's rules as sentences: how results count, the weights that are not 1,
    and who enters the final."""
    lines = []
    if circuit.best_of:
        lines.append(
            ngettext(
                "The best result of each player and each team counts.",
                "The best %(count)d results of each player and each team count.",
                circuit.best_of,
            )
            % {"count": circuit.best_of}
        )
    else:
        lines.append(_("Every result counts."))
    for event in events:
        if event.weight != 1:
            lines.append(
                _("%(event)s counts ×%(weight)s.")
                % {"event": event_label(event), "weight": points_text(event.weight)}
            )
    has_final = any(event.kind == CircuitEvent.Kind.FINAL for event in events)
    if has_final:
        if circuit.qualify_per_event:
            lines.append(
                ngettext(
                    "The winner of each qualifier enters the final.",
                    "The first %(count)d teams of each qualifier enter the final.",
                    circuit.qualify_per_event,
                )
                % {"count": circuit.qualify_per_event}
            )
        if circuit.qualify_by_points:
            lines.append(
                ngettext(
                    "The best other team by circuit points enters the final too.",
                    "The best %(count)d other teams by circuit points enter the final too.",
                    circuit.qualify_by_points,
                )
                % {"count": circuit.qualify_by_points}
            )
    return lines


def event_label(event: CircuitEvent) -> str:
    """An event as a column or a sentence names it: its town or region, else its
    championship's name."""
    return event.place or event.championship.name


@dataclass(frozen=True)
class Qualified:
    """A line of the list of the final's teams: who, how, and where it stands."""

    name: str
    person_ids: list[tuple[int, str]]
    how: str
    qualification: CircuitQualification
    replaces: str
    replaced_by: str


@dataclass(frozen=True)
class Row:
    """A ranking line as the table draws it: a cell per event of the circuit (its result
    there, or None), and the people it names, each linking to his page."""

    line: circuit_selectors.RankingLine
    cells: list[circuit_selectors.EventResult | None]
    people: list[tuple[int, str]]


def ranking_rows(
    lines: list[circuit_selectors.RankingLine],
    events: list[CircuitEvent],
    names: dict[int, str],
) -> list[Row]:
    rows = []
    for line in lines:
        found = {result.event.pk: result for result in line.results}
        rows.append(
            Row(
                line=line,
                cells=[found.get(event.pk) for event in events],
                people=[(pk, names.get(pk, "")) for pk in line.person_ids],
            )
        )
    return rows


def _team_names(ranking: circuit_selectors.Ranking) -> dict[str, str]:
    return {line.key: line.name for line in ranking.teams}


def _person_names(ranking: circuit_selectors.Ranking) -> dict[int, str]:
    # Every player of a ranked team has a line of his own: his public name is there.
    return {line.person_ids[0]: line.name for line in ranking.persons if line.person_ids}


def _how(qualification: CircuitQualification) -> str:
    if qualification.event_id is None:
        return _("by circuit points")
    return _("%(place)s at %(event)s") % {
        "place": place_text(qualification.place),
        "event": event_label(qualification.event),
    }


def place_text(place: int) -> str:
    """A placement as an ordinal in the reader's language ("1st", "1º", "1r")."""
    return ordinal(place)


def qualified_lines(
    qualifications: list[CircuitQualification], ranking: circuit_selectors.Ranking
) -> list[Qualified]:
    """The final's teams as the page lists them, each named as the ranking names it (or
    as its team in the final, or the qualifying team, when it has no line yet)."""
    names = _team_names(ranking)
    people = _person_names(ranking)

    def name_of(qualification: CircuitQualification) -> str:
        if qualification.people_key in names:
            return names[qualification.people_key]
        team = qualification.final_team or qualification.source_team
        return team.name if team is not None else qualification.people_key

    lines = []
    by_pk = {qualification.pk: qualification for qualification in qualifications}
    replaced_by = {
        qualification.replaces_id: qualification
        for qualification in qualifications
        if qualification.replaces_id is not None
    }
    for qualification in qualifications:
        ids = [int(pk) for pk in qualification.people_key.split("-") if pk.isdigit()]
        replaces = by_pk.get(qualification.replaces_id) if qualification.replaces_id else None
        successor = replaced_by.get(qualification.pk)
        lines.append(
            Qualified(
                name=name_of(qualification),
                person_ids=[(pk, people[pk]) for pk in ids if pk in people],
                how=_how(qualification),
                qualification=qualification,
                replaces=name_of(replaces) if replaces is not None else "",
                replaced_by=name_of(successor) if successor is not None else "",
            )
        )
    return lines


@public_page(lambda: live.page_topics())
def circuit_list(request: HttpRequest) -> HttpResponse:
    """Every circuit: its name, dates, rules family and number of events."""
    return render(
        request,
        "tournaments/circuits/list.html",
        # How many events each has, in the same query (the selector gives the circuits).
        {"circuits": circuit_selectors.public_circuits().annotate(event_count=Count("events"))},
    )


# Its events' names and status follow ``site``; its ranking and qualified teams ``k.<slug>``.
@public_page(lambda slug: [live.SITE, live.circuit_topic(slug)])
def circuit(request: HttpRequest, slug: str) -> HttpResponse:
    """A circuit: events, rules, the rankings of players and teams, the final's teams."""
    found = _circuit(slug)
    events = circuit_selectors.circuit_events(circuit=found)
    ranking = circuit_selectors.circuit_ranking(circuit=found)
    qualifications = circuit_selectors.circuit_qualifications(circuit=found)
    names = _person_names(ranking)
    points = [(place_text(number), value) for number, value in enumerate(found.points, start=1)]
    return render(
        request,
        "tournaments/circuits/circuit.html",
        {
            "circuit": found,
            "events": events,
            "labels": [event_label(event) for event in events],
            "draft": Championship.Status.DRAFT,
            "running": Championship.Status.RUNNING,
            "in_play": any(
                event.championship.status == Championship.Status.RUNNING for event in events
            ),
            "has_final": any(event.kind == CircuitEvent.Kind.FINAL for event in events),
            "points_table": points,
            "rules": rules_in_words(found, events),
            "ranking": ranking,
            "persons": ranking_rows(ranking.persons, events, names),
            "teams": ranking_rows(ranking.teams, events, names),
            "qualified": qualified_lines(qualifications, ranking),
        },
    )


def ranking_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The circuit's ranking as CSV: a row per player, then a row per team
    (docs/csv.md)."""
    found = _circuit(slug)
    response = StreamingHttpResponse(
        export.export_ranking(found), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{export.filename(found)}"'
    return response
