"""The organiser's stages and rounds: a stage created, its page (rounds, matches, check-in),
a round generated and assigned (tables, times, referees), a match decided by walkover."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.championships import selectors as championship_selectors
from tournaments.models import Match
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import registry, share
from tournaments.stages import selectors as stage_selectors
from tournaments.stages import services as stage_services
from tournaments.web.organiser.championships import _championship, _post_only
from tournaments.web.organiser.forms import (
    MatchAssignFormSet,
    RoundRefereeForm,
    StageForm,
    WalkoverForm,
    add_service_error,
)


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
            "share": share.shared(share.round_share_text(round_=round_)),
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
