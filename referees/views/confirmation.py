"""The sides' confirmation of a played result on the referee's tablet."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from referees import selectors
from referees.scorers import Referee
from referees.views.sheet import _render
from tournaments.errors import TournamentError
from tournaments.results import services as result_services
from tournaments.web.shared.answer import AnswerForm


@login_required
def confirm(request: HttpRequest, match_id: int) -> HttpResponse:
    """A side answers the result on the tablet: its player confirms it, or disputes it with
    a comment (then it goes to the organiser's queue)."""
    match = selectors.match_for_referee(user=request.user, pk=match_id)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    side = request.POST.get("side", "")
    if side not in ("A", "B", *("C" if match.team_c_id else ())) or match.is_bye:
        messages.error(request, _("Choose the side that answers."))
        return redirect("referees:sheet", match.pk)
    form = AnswerForm(request.POST, match=match, side=side)
    dispute = request.POST.get("op") == "dispute"
    if form.is_valid():
        try:
            if dispute:
                result_services.match_dispute(
                    match=match,
                    side=side,
                    comment=form.cleaned_data["comment"],
                    by=request.user,
                    player=form.chosen(),
                )
            else:
                result_services.match_confirm(
                    match=match, side=side, by=request.user, player=form.chosen()
                )
        except TournamentError as exc:
            messages.error(request, exc.text)
        else:
            done = (
                _("%(team)s disputes the result: the organiser has been told.")
                if dispute
                else _("%(team)s confirms the result.")
            )
            messages.success(request, done % {"team": form.team.name})
            return redirect("referees:sheet", match.pk)
    match_sheet = selectors.match_sheet(match=match)
    return _render(
        request,
        Referee(user=request.user),
        match_sheet,
        None,
        forms={f"answer{side}": form},
        status=400,
    )
