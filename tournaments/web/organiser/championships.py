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
from django.db import transaction
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
from tournaments.models import Championship, CircuitEvent, Match
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import registry
from tournaments.stages import selectors as stage_selectors
from tournaments.stages import services as stage_services
from tournaments.web.organiser import people as people_organiser
from tournaments.web.organiser.forms import (
    PRESET_CHOICES,
    ChampionshipCreateForm,
    ChampionshipDetailsForm,
    ChampionshipRulesForm,
    MatchAssignFormSet,
    RoundRefereeForm,
    StageForm,
    TeamForm,
    TeamImportForm,
    WalkoverForm,
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
            known = people_organiser.known_licences(form)
            try:
                team = championship_services.team_create(
                    championship=championship, **form.service_kwargs()
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Team %(name)s added.") % {"name": team.name})
                people_organiser.licence_notices(request, form, known)
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
            created = imports.teams_import(championship=championship, file=upload)
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
def stage_create(request: HttpRequest, slug: str) -> HttpResponse:
    """A new stage; a changed tie-break chain is saved on the championship with it."""
    championship = _championship(request, slug)
    if request.method == "POST":
        form = StageForm(request.POST, championship=championship)
        if form.is_valid():
            try:
                stage = stage_services.stage_create(
                    championship=championship, **form.service_kwargs()
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(
                    request, _("Stage %(name)s created.") % {"name": registry.stage_name(stage)}
                )
                return redirect("organiser:stage", slug=slug, stage_id=stage.pk)
    else:
        form = StageForm(championship=championship)
    return render(
        request, "organiser/stage_form.html", {"championship": championship, "form": form}
    )


@login_required
def stage_detail(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The stage's rounds and a table of its matches: teams, table, referee, status, score."""
    championship = _championship(request, slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    rounds = list(stage_selectors.stage_rounds(stage=stage))
    # The generate form carries the number of the round it asks for: a second submit of
    # the same page finds that round generated and is refused (see round_generate).
    next_round = rounds[-1].number + 1 if rounds else 1
    check_in = None
    if stage_services.takes_check_in(stage):
        check_in = stage_selectors.check_in_state(stage=stage, number=next_round)
    context = {
        "championship": championship,
        "stage": stage,
        "rounds": rounds,
        "next_round": next_round,
        "check_in": check_in,
        # Only the last round may be removed, and never a bracket round (round_remove).
        "removable": rounds[-1].number if rounds and not rounds[-1].label else None,
    }
    return render(request, "organiser/stage.html", context)


@login_required
def round_generate(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    number = request.POST.get("number", "")
    try:
        created = stage_services.round_generate(
            stage=stage,
            number=int(number) if number.isdigit() else None,
            confirm=request.POST.get("confirm") == "1",
        )
    except ValidationError as error:
        if getattr(error, "code", "") == "previous_unfinished":
            # Asked again with the same number: a double submit of this page still makes
            # one round (round_exists), confirmed or not.
            context = {
                "championship": championship,
                "stage": stage,
                "number": number,
                "problem": " ".join(error.messages),
            }
            return render(request, "organiser/round_generate_confirm.html", context)
        messages.error(request, " ".join(error.messages))
    else:
        count = len(created)
        messages.success(
            request,
            ngettext("%(count)s match generated.", "%(count)s matches generated.", count)
            % {"count": count},
        )
        walkovers = sum(1 for m in created if m.status == Match.Status.WALKOVER)
        if walkovers:
            messages.info(
                request,
                ngettext(
                    "%(count)s match decided by walkover: a team was absent at check-in.",
                    "%(count)s matches decided by walkover: teams were absent at check-in.",
                    walkovers,
                )
                % {"count": walkovers},
            )
    return redirect("organiser:stage", slug=slug, stage_id=stage.pk)


@login_required
def round_assign(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """Tables, times and referees of a round's matches, in one formset."""
    championship = _championship(request, slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    round_ = stage_selectors.round_of(stage=stage, number=number)
    matches = [m for m in stage_selectors.round_matches(round=round_) if not m.is_bye]
    by_id = {m.pk: m for m in matches}
    referees = championship_selectors.referee_choices(championship)
    round_form = RoundRefereeForm(referees=referees, prefix="round")
    if request.method == "POST" and request.POST.get("action") == "round":
        round_form = RoundRefereeForm(request.POST, referees=referees, prefix="round")
        if round_form.is_valid():
            referee = round_form.cleaned_data["referee"]
            try:
                count = result_services.round_assign_referee(round=round_, referee=referee)
            except ValidationError as error:
                add_service_error(round_form, error)
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(name)s referees %(count)s match of this round.",
                        "%(name)s referees the %(count)s matches of this round.",
                        count,
                    )
                    % {"name": championship_selectors.person_name(referee), "count": count},
                )
                return redirect(
                    "organiser:round_assign", slug=slug, stage_id=stage.pk, number=number
                )
    initial = [
        {
            "match": m.pk,
            "table": m.table,
            "scheduled_at": m.scheduled_at,
            "referee": m.referee,
            "entry": m.entry,
        }
        for m in matches
    ]
    kwargs = {"form_kwargs": {"referees": referees}, "initial": initial}
    if request.method == "POST" and request.POST.get("action") != "round":
        formset = MatchAssignFormSet(request.POST, **kwargs)
        if formset.is_valid() and _assign(formset, by_id):
            messages.success(request, _("Assignments saved."))
            return redirect("organiser:stage", slug=slug, stage_id=stage.pk)
    else:
        formset = MatchAssignFormSet(**kwargs)
    rows = [(form, by_id.get(form.initial.get("match"))) for form in formset]
    return render(
        request,
        "organiser/round_assign.html",
        {
            "championship": championship,
            "stage": stage,
            "round": round_,
            "formset": formset,
            "rows": rows,
            "round_form": round_form,
        },
    )


def _assign(formset: Any, matches: dict[int, Match]) -> bool:
    """Save every changed form through the service; all or nothing."""
    try:
        with transaction.atomic():
            for form in formset:
                if not form.has_changed():
                    continue
                match = matches.get(form.cleaned_data["match"])
                if match is None:
                    form.add_error(None, _("This match is not part of the round."))
                    raise ValidationError("")
                try:
                    result_services.match_assign(
                        match=match,
                        table=form.cleaned_data["table"],
                        scheduled_at=form.cleaned_data["scheduled_at"],
                        referee=form.cleaned_data["referee"],
                        entry=form.cleaned_data["entry"] or None,
                    )
                except ValidationError as error:
                    form.add_error(None, error.messages)
                    raise
    except ValidationError:
        return False
    return True


@login_required
def match_walkover(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Decide a match by walkover or forfeit, with its reason."""
    championship = _championship(request, slug)
    match = result_selectors.match_of(championship=championship, match_id=match_id)
    if request.method == "POST":
        form = WalkoverForm(request.POST, match=match)
        if form.is_valid():
            try:
                result_services.match_walkover(
                    match=match, recorded_by=request.user, **form.service_kwargs()
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Walkover recorded."))
                return redirect("organiser:stage", slug=slug, stage_id=match.stage_id)
    else:
        form = WalkoverForm(match=match)
    return render(
        request,
        "organiser/walkover.html",
        {"championship": championship, "match": match, "form": form},
    )


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
