"""The referee's pages: my matches, the match sheet with the hand entry, undo.

Every view needs a login and finds its match through ``selectors.match_for_referee`` (the
match's referee, whoever manages its championship; 404 for anyone else). The hand
being entered lives in the page (``referees.entry``); writes go through
``referees.services`` to ``tournaments.results.services``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referees import selectors, services
from referees.entry import Entry, damaged
from referees.forms import (
    PairsForm,
    PenaltyForm,
    PointsForm,
    SeatingForm,
    VoidForm,
    posted_json,
)
from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.web.results_forms import AnswerForm

HAND_STATUS = {
    "complete": gettext_lazy("Played"),
    "game_over": gettext_lazy("Game over"),
    "void": gettext_lazy("Void"),
    "redeal": gettext_lazy("Dealt again"),
}


def _list_rows(matches: Any) -> list[dict[str, Any]]:
    rows = []
    for match in matches:
        running = next((g for g in match.games.all() if g.winner_id is None), None)
        rows.append({"match": match, "game": running})
    return rows


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    matches = selectors.matches_for_referee(user=request.user)
    return render(
        request,
        "referees/matches.html",
        {
            "rows": _list_rows(matches),
            "organised": False,
            "organiser": selectors.organises_any(user=request.user),
        },
    )


@login_required
def organised_matches(request: HttpRequest) -> HttpResponse:
    matches = selectors.matches_for_organiser(user=request.user)
    return render(
        request,
        "referees/matches.html",
        {"rows": _list_rows(matches), "organised": True, "organiser": True},
    )


def _players(sheet: selectors.Sheet) -> list[tuple[str, str]]:
    return [(seat["key"], seat["name"]) for seat in sheet.seat_names()]


def _sides(sheet: selectors.Sheet) -> list[tuple[str, str]]:
    return [("A", sheet.match.team_a.name), ("B", sheet.match.team_b.name)]


def _render(
    request: HttpRequest,
    sheet: selectors.Sheet,
    entry: Entry | None,
    *,
    errors: list[str] | None = None,
    forms: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    forms = dict(forms or {})
    match = sheet.match
    context: dict[str, Any] = {
        "sheet": sheet,
        "match": match,
        "championship": match.stage.championship,
        "entry": entry,
        "errors": errors or [],
        # Said before the referee taps a whole hand that the save would refuse.
        "write_problem": _problem_text(match, request.user),
        "hand_rows": [
            {"hand": h, "status": HAND_STATUS.get(h.status, h.status)} for h in sheet.hands
        ],
    }
    if sheet.playable and (not sheet.started or not sheet.hands):
        context["seating"] = forms.get("seating") or SeatingForm(
            players=_players(sheet), initial_seats=sheet.seats
        )
    if entry is not None:
        if entry.choosing_pairs:
            context["pairs_form"] = forms.get("pairs") or PairsForm(
                players=_players(sheet), initial_pairs=entry.default_pairs()
            )
        else:
            state = entry.current.state
            context["groups"] = entry.buttons()
            context["calls_by_player"] = entry.calls_by_player()
            context["penalty_form"] = forms.get("penalty") or PenaltyForm(
                sides=_sides(sheet), rules=sheet.rules
            )
            context["void_form"] = forms.get("void") or VoidForm()
            settlement = entry.settlement
            if settlement:
                context["points_form"] = forms.get(settlement) or _points_form(
                    None, settlement, sheet, entry
                )
            context["can_void"] = state.decided is None
        context["summary"] = entry.summary()
        context["hand_json"] = entry.to_json()
    context["confirm"] = _confirm_context(match, request.user, forms)
    return render(request, "referees/sheet.html", context, status=status)


def _confirm_context(match: Any, user: Any, forms: dict[str, Any]) -> dict[str, Any] | None:
    """The sides' answers to a finished result, and a form for each side still to answer:
    the referee hands the tablet to the side, whose player confirms or disputes."""
    if match.is_bye or match.status != Match.Status.FINISHED:
        return None
    answers = result_selectors.match_confirmations(match=match)
    sides = []
    for side, team in (("A", match.team_a), ("B", match.team_b)):
        answer = answers.get(side)
        form = None
        if answer is None:
            form = forms.get(f"answer{side}") or AnswerForm(match=match, side=side)
        sides.append({"side": side, "team": team, "answer": answer, "form": form})
    return {"sides": sides, "confirmed": match.confirmed_at is not None}


@login_required
def confirm(request: HttpRequest, match_id: int) -> HttpResponse:
    """A side answers the result on the tablet: its player confirms it, or disputes it with
    a comment (then it goes to the organiser's queue)."""
    match = selectors.match_for_referee(user=request.user, pk=match_id)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    side = request.POST.get("side", "")
    if side not in ("A", "B") or match.is_bye:
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
    return _render(request, match_sheet, None, forms={f"answer{side}": form}, status=400)


def _problem_text(match: Any, user: Any) -> str:
    if match.is_decided:
        return ""
    problem = result_selectors.hand_write_problem(match=match, user=user)
    return problem.text if problem is not None else ""


@login_required
def sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_for_referee(user=request.user, pk=match_id)
    match_sheet = selectors.match_sheet(match=match)
    if request.method == "POST":
        return _hand_post(request, match_sheet)
    entry = None
    if match_sheet.playable and match_sheet.started:
        entry = Entry(match_sheet.info, match_sheet.record, match_sheet.names)
    return _render(request, match_sheet, entry)


def _hand_post(request: HttpRequest, sheet: selectors.Sheet) -> HttpResponse:
    """One step of the hand entry: apply the posted action to the posted hand."""
    match = sheet.match
    if not sheet.playable or not sheet.started:
        messages.error(request, _("There is no hand to record in this match."))
        return redirect("referees:sheet", match.pk)
    if request.POST.get("number") != str(sheet.number):
        messages.error(request, services.stale(sheet.number).text)
        return redirect("referees:sheet", match.pk)
    raw = request.POST.get("hand", "")
    try:
        # Held to the page's bounds before the engine replays it (referees.forms).
        if raw:
            posted_json(raw, rules=sheet.rules)
    except TournamentError as exc:
        entry, _error = Entry.load(sheet.info, sheet.record, sheet.names, "")
        return _render(request, sheet, entry, errors=[exc.text], status=400)
    entry, error = Entry.load(sheet.info, sheet.record, sheet.names, raw)
    if error is not None:
        return _render(request, sheet, entry, errors=[error.text], status=400)
    forms: dict[str, Any] = {}
    op = request.POST.get("op", "")
    try:
        if entry.choosing_pairs and op not in ("pairs", "reset"):
            raise damaged()
        if "action" in request.POST:
            entry.add(posted_json(request.POST["action"], rules=sheet.rules))
        elif op in ("penalty", "void", "envido", "flor"):
            form = _event_form(op, request, sheet, entry)
            if form.is_valid():
                entry.add(form.event())
            else:
                forms[op] = form
        elif op == "pairs":
            form = PairsForm(request.POST, players=_players(sheet), initial_pairs=[])
            if form.is_valid():
                entry.set_pairs(form.pairs())
            else:
                forms["pairs"] = form
        elif op == "undo":
            entry.undo()
        elif op == "reset":
            entry.reset()
        elif op == "next_pair":
            entry.next_pair()
        elif op == "save":
            return _save(request, sheet, entry)
        else:
            raise damaged()
    except TournamentError as exc:
        return _render(request, sheet, entry, errors=[exc.text], status=400)
    return _render(request, sheet, entry, forms=forms)


def _event_form(op: str, request: HttpRequest, sheet: selectors.Sheet, entry: Entry) -> Any:
    if op == "penalty":
        return PenaltyForm(request.POST, sides=_sides(sheet), rules=sheet.rules)
    if op == "void":
        return VoidForm(request.POST)
    return _points_form(request.POST, op, sheet, entry)


def _points_form(data: Any, what: str, sheet: selectors.Sheet, entry: Entry) -> PointsForm:
    players = [(p, sheet.names.get(p, p)) for p in entry.declarers(what)]
    return PointsForm(data, what=what, players=players)


def _save(request: HttpRequest, sheet: selectors.Sheet, entry: Entry) -> HttpResponse:
    if not entry.ready:
        return _render(
            request,
            sheet,
            entry,
            errors=[_("The hand is not decided yet: record how it ends before saving it.")],
            status=400,
        )
    try:
        hand = services.hand_save(
            match=sheet.match,
            number=sheet.number,
            record=entry.to_record(),
            recorded_by=request.user,
        )
    except TournamentError as exc:
        if exc.code == "stale_hand":
            messages.error(request, exc.text)
            return redirect("referees:sheet", sheet.match.pk)
        return _render(request, sheet, entry, errors=[exc.text], status=400)
    messages.success(
        request,
        _("Hand %(number)s saved: %(team_a)s %(a)s – %(b)s %(team_b)s.")
        % {
            "number": hand.number,
            "team_a": sheet.match.team_a.name,
            "a": hand.points_a,
            "b": hand.points_b,
            "team_b": sheet.match.team_b.name,
        },
    )
    return redirect("referees:sheet", sheet.match.pk)


@login_required
def seats(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_for_referee(user=request.user, pk=match_id)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    match_sheet = selectors.match_sheet(match=match)
    form = SeatingForm(request.POST, players=_players(match_sheet), initial_seats=match_sheet.seats)
    if not form.is_valid():
        return _render(request, match_sheet, None, forms={"seating": form})
    try:
        result_services.match_start(match=match, seats=form.cleaned_data["seats"], by=request.user)
    except TournamentError as exc:
        messages.error(request, exc.text)
        return redirect("referees:sheet", match.pk)
    messages.success(request, _("The players are seated: record the first hand."))
    return redirect("referees:sheet", match.pk)


@login_required
def undo(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_for_referee(user=request.user, pk=match_id)
    hands = list(match.hands.all())
    if not hands:
        messages.error(request, _("This match has no hand to delete."))
        return redirect("referees:sheet", match.pk)
    last = hands[-1]
    if request.method == "POST":
        try:
            number = int(request.POST.get("number", ""))
        except ValueError:
            number = 0
        try:
            services.hand_undo(match=match, number=number, by=request.user)
        except TournamentError as exc:
            messages.error(request, exc.text)
            return redirect("referees:sheet", match.pk)
        messages.success(request, _("Hand %(number)s deleted.") % {"number": number})
        return redirect("referees:sheet", match.pk)
    return render(
        request,
        "referees/undo.html",
        {
            "match": match,
            "championship": match.stage.championship,
            "hand": last,
            "status": HAND_STATUS.get(last.status, last.status),
        },
    )
