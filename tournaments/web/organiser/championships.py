"""Organiser pages: set up a championship, its teams and stages, and run its rounds.

Every view needs a login and finds its championship through
``championships.selectors.championship_for_organiser``: a user who does not organise it
gets a 404, exactly as if it did not exist. Writes go through the services of each
sub-package; a ``TournamentError`` is shown on the form (or as a message) and changes
nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.championships.words import words
from tournaments.entries.towns import town_rule
from tournaments.io import exports, imports
from tournaments.models import Championship, CircuitEvent
from tournaments.web.organiser import people as people_organiser
from tournaments.web.organiser.forms import (
    PRESET_CHOICES,
    ChampionshipCreateForm,
    ChampionshipDetailsForm,
    ChampionshipRulesForm,
    TeamForm,
    TeamImportForm,
    add_service_error,
)


def _championship(request: HttpRequest, slug: str) -> Championship:
    return championship_selectors.championship_for_organiser(user=request.user, slug=slug)


def _post_only(request: HttpRequest) -> HttpResponse | None:
    # Checked after the access check, so a stranger gets the same 404 for any method.
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    return None


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """My championships."""
    championships = championship_selectors.championships_for_organiser(user=request.user)
    return render(request, "organiser/dashboard.html", {"championships": championships})


@login_required
def championship_create(request: HttpRequest) -> HttpResponse:
    """A new championship from a preset; ``?preset=`` loads that preset's defaults."""
    preset = request.GET.get("preset", "argentine")
    # An unknown ?preset= (a tampered or stale link) shows the default preset, not a 500.
    preset = preset if preset in dict(PRESET_CHOICES) else "argentine"
    if request.method == "POST":
        form = ChampionshipCreateForm(request.POST)
        if form.is_valid():
            try:
                championship = championship_services.championship_create(
                    **form.service_kwargs(), organisers=[request.user]
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(
                    request, _("Championship %(name)s created.") % {"name": championship.name}
                )
                return redirect("organiser:championship", slug=championship.slug)
    else:
        initial = {key: request.GET[key] for key in ("name", "slug", "venue") if key in request.GET}
        form = ChampionshipCreateForm(preset=preset, initial=initial)
    return render(
        request,
        "organiser/championship_form.html",
        {"form": form, "presets": PRESET_CHOICES},
    )


@login_required
def championship_overview(request: HttpRequest, slug: str) -> HttpResponse:
    """One championship: details, status, rules, and links to teams and stages."""
    championship = _championship(request, slug)
    if request.method == "POST":
        form = ChampionshipRulesForm(request.POST, championship=championship)
        if form.is_valid():
            try:
                championship_services.championship_update_rules(
                    championship=championship, **form.service_kwargs()
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Rules saved."))
                return redirect("organiser:championship", slug=slug)
    else:
        form = ChampionshipRulesForm(championship=championship)
    context = {
        "championship": championship,
        "form": form,
        "status_moves": championship_selectors.status_moves(championship),
        "rules_summary": championship_selectors.rules_summary(championship),
        "rules_locked": championship_selectors.rules_locked(championship),
        "stages": championship.stages.all(),
        "team_count": championship.teams.count(),
        # "Part of circuit X": the circuit's page for whoever manages it.
        "circuit_event": CircuitEvent.objects.select_related("circuit")
        .filter(championship=championship)
        .first(),
    }
    return render(request, "organiser/championship.html", context)


@login_required
def championship_details(request: HttpRequest, slug: str) -> HttpResponse:
    """Edit a championship's name, dates and venue."""
    championship = _championship(request, slug)
    form = ChampionshipDetailsForm.for_championship(
        championship, request.POST if request.method == "POST" else None
    )
    if request.method == "POST" and form.is_valid():
        try:
            championship_services.championship_update(
                championship=championship, **form.service_kwargs()
            )
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Details saved."))
            return redirect("organiser:championship", slug=slug)
    return render(
        request, "organiser/championship_details.html", {"championship": championship, "form": form}
    )


@login_required
def championship_status(request: HttpRequest, slug: str) -> HttpResponse:
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    status = request.POST.get("status", "")
    if championship_selectors.status_move_is_back(championship, status) and (
        request.POST.get("confirm") != "yes"
    ):
        # A step back (play reopened for entries, a finished championship resumed) is
        # asked again: one click by mistake would change what everyone may do.
        label = Championship.Status(status).label
        return render(
            request,
            "organiser/status_confirm.html",
            {"championship": championship, "status": status, "label": label},
        )
    try:
        championship = championship_services.championship_set_status(
            championship=championship, status=status
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("The championship is now: %(status)s.")
            % {"status": championship.get_status_display()},
        )
    return redirect("organiser:championship", slug=slug)


# -- teams --------------------------------------------------------------------------------


@login_required
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    """The teams, the form adding one, and the CSV import."""
    championship = _championship(request, slug)
    if request.method == "POST":
        form = TeamForm(request.POST, championship=championship)
        if form.is_valid():
            # A typed player likely already on record is asked about before anything,
            # unless the team is refused anyway (a double submit: its name is taken).
            action = reverse("organiser:teams", args=[slug])
            taken = championship.teams.filter(name=form.cleaned_data["name"].strip()).exists()
            if not taken and (
                asked := people_organiser.ask_people(
                    request, form, championship=championship, action=action, back=action
                )
            ):
                return asked
            known = people_organiser.known_licences(request, form)
            try:
                team = championship_services.team_create(
                    championship=championship, by=request.user, **form.service_kwargs()
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Team %(name)s added.") % {"name": team.name})
                people_organiser.licence_notices(request, form, known, team)
                _town_notice(request, championship, team)
                return redirect("organiser:teams", slug=slug)
    else:
        form = TeamForm(championship=championship)
    return _teams_page(request, championship, form=form, import_form=TeamImportForm())


def _town_notice(request: HttpRequest, championship: Championship, team: Any) -> None:
    """The organiser places a team where he wants, even in a qualifier restricted to
    towns (the entry form's rule is the players'): he is only warned when the team's club
    or city is not one of them."""
    rule = town_rule(championship)
    if rule is None or rule.admits(team.club):
        return
    messages.warning(
        request,
        _(
            "%(championship)s is for teams from %(towns)s and %(team)s gave %(town)s: it is"
            " entered anyway."
        )
        % {
            "championship": championship.name,
            "towns": ", ".join(rule.towns),
            "team": team.name,
            "town": team.club or _("no town"),
        },
    )


def _teams_page(
    request: HttpRequest,
    championship: Championship,
    *,
    form: TeamForm,
    import_form: TeamImportForm,
    import_errors: list[Any] | None = None,
) -> HttpResponse:
    context = {
        "championship": championship,
        "words": words(championship),
        "teams": championship_selectors.team_list(championship=championship),
        "form": form,
        "import_form": import_form,
        "import_errors": import_errors or [],
        "can_remove": championship_selectors.entries_open(championship),
    }
    return render(request, "organiser/teams.html", context)


@login_required
def teams_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Import teams from a CSV upload: all rows or none, with a per-row error report."""
    championship = _championship(request, slug)
    if request.method != "POST":
        return redirect("organiser:teams", slug=slug)
    import_form = TeamImportForm(request.POST, request.FILES)
    import_errors: list[Any] = []
    if import_form.is_valid():
        upload = import_form.cleaned_data["file"]
        try:
            created = imports.teams_import(championship=championship, file=upload, by=request.user)
        except imports.ImportRowsError as error:
            import_errors = list(error.rows)
        except ValidationError as error:
            import_form.add_error("file", error.messages)
        else:
            count = len(created)
            messages.success(
                request,
                ngettext("%(count)s team imported.", "%(count)s teams imported.", count)
                % {"count": count},
            )
            people_organiser.import_notice(request, championship)
            return redirect("organiser:teams", slug=slug)
    return _teams_page(
        request,
        championship,
        form=TeamForm(championship=championship),
        import_form=import_form,
        import_errors=import_errors,
    )


@login_required
def team_remove(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    team = championship.teams.filter(pk=team_id).first()
    if team is None:
        raise Http404("No such team.")
    try:
        championship_services.team_remove(team=team)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Team %(name)s removed.") % {"name": team.name})
    return redirect("organiser:teams", slug=slug)


# -- stages, rounds and matches -------------------------------------------------------------


@login_required
def export_csv(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Download the standings, matches or hands as CSV (UTF-8 with BOM), streamed."""
    championship = _championship(request, slug)
    if kind not in exports.EXPORTS:
        raise Http404("Unknown export.")
    response = StreamingHttpResponse(
        exports.export_csv(championship, kind), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{exports.filename(championship, kind)}"'
    )
    return response
