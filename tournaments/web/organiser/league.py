"""The organiser's side of a league: its matchdays with their dates, each match's date,
time and venue, and a match postponed with its reason (``tournaments.stages.league``).

A matchday moved says which of its matches stayed where they were, and why; the page then
offers to move those too, each to a date and time of its own (``?left=`` names them).

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
    MatchdayMatchesForm,
    MatchPostponeForm,
    MatchScheduleForm,
    add_service_error,
)


def _league(request: HttpRequest, slug: str, stage_id: int) -> tuple[Championship, Stage]:
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    if not stage.is_league:
        raise Http404("Not a league.")
    return championship, stage


def _date_form(day: fixture_selectors.Matchday, data: Any = None) -> MatchdayDateForm:
    number = day.round.number
    return MatchdayDateForm(data, initial={"date": day.date}, auto_id=f"id_day{number}_%s")


def _left_ids(text: str) -> set[int]:
    return {int(part) for part in text.split(",") if part.strip().isdigit()}


def _left_form(
    day: fixture_selectors.Matchday, ids: set[int], data: Any = None
) -> MatchdayMatchesForm | None:
    """The form moving the matches of ``day`` named in ``ids`` still to be played."""
    left = [f.match for f in day.fixtures if f.match.pk in ids and not f.decided]
    if not left:
        return None
    return MatchdayMatchesForm(
        data,
        matches=left,
        stage=day.stage,
        date=day.date,
        auto_id=f"id_left{day.round.number}_%s",
    )


def _matchdays_page(
    request: HttpRequest,
    championship: Championship,
    stage: Stage,
    bound: MatchdayDateForm | None = None,
    number: int | None = None,
    left: MatchdayMatchesForm | None = None,
) -> HttpResponse:
    days = fixture_selectors.with_history(fixture_selectors.matchdays(stage=stage))
    ids = _left_ids(request.GET.get("left", ""))
    for day in days:
        day.form = bound if day.round.number == number and bound else _date_form(day)
        day.left_form = left if day.round.number == number else _left_form(day, ids)
    context = {"championship": championship, "stage": stage, "matchdays": days}
    return render(request, "organiser/league_matchdays.html", context)


@login_required
def matchdays(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """A league's matchdays: each date (editable), its matches with date, time, venue and
    status, postponed ones marked with their history; per match, edit or postpone; the
    matches a move left behind (``?left=``), with a form to move them too."""
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
            move = league.matchday_set_date(stage=stage, number=number, **form.service_kwargs())
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(
                request,
                _("%(matchday)s moved: its matches still to be played follow.")
                % {"matchday": move.round.name_in(stage)},
            )
            for stayed in move.stayed:
                messages.warning(request, stayed.sentence())
            url = reverse("organiser:league_matchdays", args=[slug, stage_id])
            left = ",".join(str(s.match.pk) for s in move.stayed if s.movable)
            query = f"?left={left}" if left else ""
            return redirect(f"{url}{query}#matchday-{number}")
    return _matchdays_page(request, championship, stage, bound=form, number=number)


@login_required
def matchday_matches(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """Move the matches a matchday's move left behind, each to its own date and time
    (``league.matchday_matches_schedule``: all of them, or none)."""
    championship, stage = _league(request, slug, stage_id)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    day = next(iter(fixture_selectors.matchdays(stage=stage, number=number)), None)
    if day is None:
        raise Http404("No such matchday.")
    form = _left_form(day, _left_ids(request.POST.get("matches", "")), request.POST)
    if form is None:
        return redirect("organiser:league_matchdays", slug=slug, stage_id=stage_id)
    if form.is_valid():
        try:
            league.matchday_matches_schedule(stage=stage, number=number, **form.service_kwargs())
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Dates and times saved."))
            url = reverse("organiser:league_matchdays", args=[slug, stage_id])
            return redirect(f"{url}#matchday-{number}")
    return _matchdays_page(request, championship, stage, number=number, left=form)


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
