"""The organiser's circuit pages (under ``/organiser/circuits/``): his circuits, a circuit
and its rules, its events (qualifiers, the final, ranking events) with their places,
towns and weights, a qualifier's teams and moving one to another qualifier.

Every page needs a login and finds its circuit through
``circuits.access.circuit_for_organiser``: anyone who does not manage it gets a 404, as
if it did not exist. Writes go through ``circuits.services``; a refusal is shown beside
its field and changes nothing. The qualified teams entered in the final wait on the
final's own entries page (``organiser:entries``), where he accepts or refuses them.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.circuits import access
from tournaments.circuits import services as circuit_services
from tournaments.entries.mail import entry_link_mail
from tournaments.models import Circuit, CircuitEvent, Entry, Team
from tournaments.web.organiser.forms.circuits import CircuitForm, EventForm, MoveForm, add_errors
from tournaments.web.shared import shown_once
from tournaments.web.shared.links import team_link

MOVED_COOKIE = "tanteo_moved_link"
MOVED_COOKIE_SALT = "tanteo.moved-team-link"


def _circuit(request: HttpRequest, slug: str) -> Circuit:
    try:
        return access.circuit_for_organiser(user=request.user, slug=slug)
    except Circuit.DoesNotExist:
        raise Http404("No such circuit.") from None


def _event(circuit: Circuit, event_id: int) -> CircuitEvent:
    event = circuit.events.select_related("championship").filter(pk=event_id).first()
    if event is None:
        raise Http404("No such event.")
    return event


@login_required
def circuits(request: HttpRequest) -> HttpResponse:
    """My circuits."""
    mine = access.circuits_managed_by(request.user).order_by("-start_date", "name")
    return render(request, "organiser/circuits/list.html", {"circuits": mine})


@login_required
def circuit_create(request: HttpRequest) -> HttpResponse:
    """A new circuit and its rules; its creator organises it."""
    form = CircuitForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            circuit = circuit_services.circuit_create(**form.service_kwargs(), by=request.user)
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Circuit %(name)s created.") % {"name": circuit.name})
            return redirect("organiser:circuit", circuit=circuit.slug)
    return render(request, "organiser/circuits/form.html", {"form": form, "circuit": None})


@login_required
def circuit_edit(request: HttpRequest, circuit: str) -> HttpResponse:
    """A circuit's name, dates and rules."""
    found = _circuit(request, circuit)
    form = CircuitForm(request.POST or None, circuit=found)
    if request.method == "POST" and form.is_valid():
        try:
            circuit_services.circuit_update(circuit=found, **form.service_kwargs(), by=request.user)
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Circuit saved."))
            return redirect("organiser:circuit", circuit=found.slug)
    return render(request, "organiser/circuits/form.html", {"form": form, "circuit": found})


@login_required
def circuit_detail(request: HttpRequest, circuit: str) -> HttpResponse:
    """A circuit: its rules, its events, and a form adding one of my championships."""
    found = _circuit(request, circuit)
    championships = access.championships_to_add(user=request.user)
    form = EventForm(request.POST or None, championships=championships)
    if request.method == "POST" and form.is_valid():
        try:
            event = circuit_services.circuit_event_add(
                circuit=found, **form.service_kwargs(), by=request.user
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(
                request,
                _("%(championship)s added to the circuit.")
                % {"championship": event.championship.name},
            )
            return redirect("organiser:circuit", circuit=found.slug)
    events = access.organiser_events(circuit=found)
    final = next((e for e in events if e.kind == CircuitEvent.Kind.FINAL), None)
    context = {
        "circuit": found,
        "events": events,
        "final": final,
        "form": form,
        "can_add": form.is_bound or championships.exists(),
    }
    return render(request, "organiser/circuits/detail.html", context)


@login_required
def event_detail(request: HttpRequest, circuit: str, event_id: int) -> HttpResponse:
    """An event's kind, weight, place and towns, and its teams (each may move)."""
    found = _circuit(request, circuit)
    event = _event(found, event_id)
    form = EventForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            circuit_services.circuit_event_update(
                event=event, **form.service_kwargs(), by=request.user
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Event saved."))
            return redirect("organiser:circuit", circuit=found.slug)
    moved = shown_once.read(request, cookie=MOVED_COOKIE, salt=MOVED_COOKIE_SALT)
    context = {
        "circuit": found,
        "event": event,
        "form": form,
        "teams": access.event_teams(event=event),
        "can_move": event.kind == CircuitEvent.Kind.QUALIFIER
        and found.events.filter(kind=CircuitEvent.Kind.QUALIFIER).count() > 1,
        "moved": moved,
    }
    response = render(request, "organiser/circuits/event.html", context)
    shown_once.forget(request, response, cookie=MOVED_COOKIE)
    return response


@login_required
def event_remove(request: HttpRequest, circuit: str, event_id: int) -> HttpResponse:
    """Take a championship out of the circuit, after a confirmation (GET asks)."""
    found = _circuit(request, circuit)
    event = _event(found, event_id)
    error = None
    if request.method == "POST":
        try:
            circuit_services.circuit_event_remove(event=event, by=request.user)
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(
                request,
                _("%(championship)s is no longer part of the circuit.")
                % {"championship": event.championship.name},
            )
            return redirect("organiser:circuit", circuit=found.slug)
    context = {"circuit": found, "event": event, "error": error}
    return render(request, "organiser/circuits/event_remove.html", context)


@login_required
def team_move(request: HttpRequest, circuit: str, event_id: int, team_id: int) -> HttpResponse:
    """Move a qualifier's team to another qualifier: choose it, confirm, done (its new
    personal link shown once on the other qualifier's page, and mailed to the team)."""
    found = _circuit(request, circuit)
    event = _event(found, event_id)
    team = Team.objects.filter(pk=team_id, championship_id=event.championship_id).first()
    if team is None:
        raise Http404("No such team.")
    others = (
        found.events.filter(kind=CircuitEvent.Kind.QUALIFIER)
        .exclude(pk=event.pk)
        .select_related("championship")
        .order_by("championship__start_date", "pk")
    )
    form = MoveForm(request.POST or None, events=others)
    if request.method == "POST" and form.is_valid():
        target = form.cleaned_data["event"]
        try:
            moved, token = circuit_services.team_move_to_event(
                team=team, event=target, by=request.user
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            return _moved(request, found, target, moved, token)
    context = {"circuit": found, "event": event, "team": team, "form": form}
    return render(request, "organiser/circuits/team_move.html", context)


def _moved(
    request: HttpRequest, circuit: Circuit, target: CircuitEvent, team: Team, token: str
) -> HttpResponse:
    messages.success(
        request,
        _("%(team)s moved to %(championship)s.")
        % {"team": team.name, "championship": target.championship.name},
    )
    page = reverse(
        "organiser:circuit_event", kwargs={"circuit": circuit.slug, "event_id": target.pk}
    )
    if not token:
        return redirect(page)
    link = team_link(request, target.championship, token)
    entry = Entry.objects.filter(team=team).first()
    mailed = bool(entry and entry.email and entry_link_mail(entry=entry, link=link))
    value = {"team": team.name, "link": link, "mailed": mailed}
    return shown_once.redirect_showing(
        page, cookie=MOVED_COOKIE, salt=MOVED_COOKIE_SALT, value=value
    )
