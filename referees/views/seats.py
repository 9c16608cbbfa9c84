"""Between hands on the sheet: the players seated, the last hand deleted. For whoever keeps
the score (``referees.scorers``), as the sheet itself."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from referees import selectors
from referees.forms import SeatingForm
from referees.scorers import Referee, Scorer
from referees.views.sheet import _players, _render
from tournaments.errors import TournamentError
from tournaments.results.story import hand_status


@login_required
def seats(request: HttpRequest, match_id: int) -> HttpResponse:
    return seats_page(request, Referee(user=request.user), match_id)


def seats_page(request: HttpRequest, scorer: Scorer, match_id: int) -> HttpResponse:
    """POST: seat the players (``tournaments.results.services.match_start``)."""
    match = scorer.match(match_id)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    match_sheet = selectors.match_sheet(match=match)
    form = SeatingForm(request.POST, players=_players(match_sheet), initial_seats=match_sheet.seats)
    if not form.is_valid():
        return _render(request, scorer, match_sheet, None, forms={"seating": form})
    try:
        scorer.start(match, form.cleaned_data["seats"])
    except TournamentError as exc:
        messages.error(request, exc.text)
        return redirect(scorer.url("sheet", match))
    messages.success(request, _("The players are seated: record the first hand."))
    return redirect(scorer.url("sheet", match))


@login_required
def undo(request: HttpRequest, match_id: int) -> HttpResponse:
    return undo_page(request, Referee(user=request.user), match_id)


def undo_page(request: HttpRequest, scorer: Scorer, match_id: int) -> HttpResponse:
    """GET: confirm; POST: delete the last hand."""
    match = scorer.match(match_id)
    hands = list(match.hands.all())
    sheet_url = scorer.url("sheet", match)
    if not hands:
        messages.error(request, _("This match has no hand to delete."))
        return redirect(sheet_url)
    last = hands[-1]
    if request.method == "POST":
        try:
            number = int(request.POST.get("number", ""))
        except ValueError:
            number = 0
        try:
            scorer.undo(match, number)
        except TournamentError as exc:
            messages.error(request, exc.text)
            return redirect(sheet_url)
        messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
        return redirect(sheet_url)
    return render(
        request,
        "referees/undo.html",
        {
            "match": match,
            "championship": match.stage.championship,
            "hand": last,
            "status": hand_status(last.status, match.stage.championship),
            "urls": {"sheet": sheet_url, "undo": scorer.url("undo", match)},
        },
    )
