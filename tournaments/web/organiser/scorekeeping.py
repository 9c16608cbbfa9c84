"""The organiser's side of "No referee at the table": who keeps the score (a championship's,
a stage's), a match's result typed or corrected on its page, and changing how a match is
recorded (docs/tournaments.md, "No referee at the table"). The desk, a round's results
typed as the paper sheets come back, is ``desk``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.championships import services as championship_services
from tournaments.models import Match
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import selectors as stage_selectors
from tournaments.web.organiser.championships import _championship, _post_only
from tournaments.web.organiser.forms.scorekeeping import (
    RecordingForm,
    ScorekeepingForm,
    StageScorekeepingForm,
)
from tournaments.web.shared.forms import add_service_error
from tournaments.web.shared.result_form import ResultForm


@login_required
def championship_scorekeeping(request: HttpRequest, slug: str) -> HttpResponse:
    """Who keeps the score in the championship, and the time a team has to answer."""
    championship = _championship(request, slug)
    form = ScorekeepingForm.for_championship(
        championship, request.POST if request.method == "POST" else None
    )
    if request.method == "POST" and form.is_valid():
        try:
            championship_services.championship_scorekeeping_set(
                championship=championship,
                scorekeeping=form.cleaned_data["scorekeeping"],
                confirm_within=form.cleaned_data["confirm_within"],
            )
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Saved: it applies to the results still to come."))
            return redirect("organiser:championship", slug=slug)
    stages = [(stage, StageScorekeepingForm(stage=stage)) for stage in championship.stages.all()]
    return render(
        request,
        "organiser/scorekeeping.html",
        {"championship": championship, "form": form, "stages": stages},
    )


@login_required
def stage_scorekeeping(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Who keeps the score in one stage (empty: as the championship)."""
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    form = StageScorekeepingForm(request.POST, stage=stage)
    if form.is_valid():
        try:
            championship_services.stage_scorekeeping_set(
                stage=stage, scorekeeping=form.cleaned_data["scorekeeping"]
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Saved: it applies to the results still to come."))
    else:
        messages.error(request, _("Choose who keeps the score."))
    return redirect("organiser:scorekeeping", slug=slug)


def _organiser_match(request: HttpRequest, slug: str, match_id: int) -> Match:
    match, organiser = result_selectors.match_for_results(
        user=request.user, slug=slug, match_id=match_id
    )
    if not organiser:
        raise Http404("No such match.")
    return match


@login_required
def match_result(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Type a match's result (as at the desk: the paper sheet both teams signed), or
    correct the one it has, with the reason."""
    match = _organiser_match(request, slug, match_id)
    correcting = match.recorded == Match.Recorded.RESULT and match.is_decided
    data = request.POST if request.method == "POST" else None
    initial = ResultForm.initial_from(match) if correcting else None
    form = ResultForm(data, match=match, with_reason=correcting, initial=initial)
    if data is not None and form.is_valid():
        games = form.cleaned_data["games"]
        try:
            if correcting:
                result_services.match_result_correct(
                    match=match, games=games, reason=form.cleaned_data["reason"], by=request.user
                )
            else:
                result_services.match_result_record(match=match, games=games, by=request.user)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(
                request,
                _("Result saved: %(result)s.")
                % {"result": result_services.result_text(Match.objects.get(pk=match.pk))},
            )
            return redirect("organiser:match_results", slug=slug, match_id=match.pk)
    return render(
        request,
        "organiser/match_result.html",
        {
            "championship": match.stage.championship,
            "match": match,
            "form": form,
            "correcting": correcting,
            "kept_by_hands": match.recorded == Match.Recorded.HANDS and match.hands.exists(),
        },
    )


@login_required
def match_recording(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Change how a match is recorded (its hands or its result), with the reason."""
    match = _organiser_match(request, slug, match_id)
    if refused := _post_only(request):
        return refused
    form = RecordingForm(request.POST)
    if form.is_valid():
        try:
            result_services.match_recording_change(
                match=match,
                to=form.cleaned_data["to"],
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The match is now recorded another way."))
            if form.cleaned_data["to"] == Match.Recorded.RESULT:
                return redirect("organiser:match_result", slug=slug, match_id=match.pk)
    else:
        messages.error(request, _("Give the reason for the change."))
    return redirect("organiser:match_results", slug=slug, match_id=match.pk)
