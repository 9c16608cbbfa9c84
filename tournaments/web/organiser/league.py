"""The organiser's side of a league: its matchdays with their dates, each match's date,
time and venue, and a match postponed with its reason (``tournaments.stages.league``).

Like every organiser page: a login, and the championship found through
``championship_for_organiser`` (a stranger gets a 404). A refusal of a service is shown
on its form, with what was typed, and changes nothing (the services are atomic).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.championships import selectors as championship_selectors
from tournaments.models import Championship, Match, Stage
from tournaments.results import selectors as result_selectors
from tournaments.stages import fixtures as fixture_selectors
from tournaments.stages import league
from tournaments.stages import selectors as stage_selectors
from tournaments.web.organiser.forms import (
    MatchdayDateForm,
    MatchPostponeForm,
    MatchScheduleForm,
    add_service_error,
)


def _league(request: HttpRequest, slug: str, stage_id: int) -> tuple[Championship, Stage]:
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    if stage.format != "league":
        raise Http404("Not a league.")
    return championship, stage


def _date_form(day: fixture_selectors.Matchday, data: Any = None) -> MatchdayDateForm:
    number = day.round.number
    return MatchdayDateForm(data, initial={"date": day.date}, auto_id=f"id_day{number}_%s")


def _matchdays_page(
    request: HttpRequest,
    championship: Championship,
    stage: Stage,
    bound: MatchdayDateForm | None = None,
    number: int | None = None,
) -> HttpResponse:
    days = fixture_selectors.with_history(fixture_selectors.matchdays(stage=stage))
    for day in days:
        day.form = bound if day.round.number == number else _date_form(day)
    context = {"championship": championship, "stage": stage, "matchdays": days}
    return render(request, "organiser/league_matchdays.html", context)


@login_required
def matchdays(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """A league's matchdays: each date (editable), its matches with date, time, venue and
    status, postponed ones marked with their history; per match, edit or postpone."""
    championship, stage = _league(request, slug, stage_id)
    return _matchdays_page(request, championship, stage)


@login_required
def matchday_date(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """Move a matchday to another date (``league.matchday_set_date``)."""
    championship, stage = _league(request, slug, stage_id)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    form = MatchdayDateForm(request.POST, auto_id=f"id_day{number}_%s")
    if form.is_valid():
        try:
            round_ = league.matchday_set_date(stage=stage, number=number, **form.service_kwargs())
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(
                request,
                _("%(matchday)s moved: its matches still to be played follow.")
                % {"matchday": round_.name_in(stage)},
            )
            url = reverse("organiser:league_matchdays", args=[slug, stage_id])
            return redirect(f"{url}#matchday-{number}")
    return _matchdays_page(request, championship, stage, bound=form, number=number)


def _match(request: HttpRequest, slug: str, match_id: int) -> tuple[Championship, Match]:
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    match = result_selectors.match_of(championship=championship, match_id=match_id)
    if match.team_b_id is None:
        raise Http404("A bye has no date.")
    return championship, match


def _back(match: Match) -> str:
    championship = match.stage.championship
    url = reverse("organiser:league_matchdays", args=[championship.slug, match.stage_id])
    return f"{url}#match-{match.pk}"


@login_required
def match_schedule(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Edit one match's date, time and venue (``league.match_schedule``)."""
    championship, match = _match(request, slug, match_id)
    form = MatchScheduleForm(request.POST or None, match=match, championship=championship)
    if request.method == "POST" and form.is_valid():
        try:
            league.match_schedule(match=match, **form.service_kwargs())
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Date, time and venue saved."))
            return redirect(_back(match))
    context = {"championship": championship, "match": match, "form": form, "back": _back(match)}
    return render(request, "organiser/league_match_schedule.html", context)


@login_required
def match_postpone(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Postpone a match with its reason (``league.match_postpone``); its history shown."""
    championship, match = _match(request, slug, match_id)
    form = MatchPostponeForm(request.POST or None, match=match, championship=championship)
    if request.method == "POST" and form.is_valid():
        try:
            league.match_postpone(match=match, by=request.user, **form.service_kwargs())
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Match postponed."))
            return redirect(_back(match))
    context = {
        "championship": championship,
        "match": match,
        "form": form,
        "back": _back(match),
        "history": match.postponements.select_related("by").order_by("at", "pk"),
    }
    return render(request, "organiser/league_match_postpone.html", context)
