"""The referee's pages: my matches, the match sheet with the hand entry, undo.

Every view needs a login and finds its match through ``selectors.match_for_referee`` (the
match's referee, whoever manages its championship; 404 for anyone else). The hand
being entered travels with the page (``referees.entry``) and, after every step, is kept
on the server as the match's draft (``tournaments.results.drafts``): reopening the sheet
on any device resumes it. The device is told apart by a cookie (``tanteo_device``); one
device holds a match, another must take it over. Hand writes go through
``referees.services`` to ``tournaments.results.services``.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from csp.constants import SELF, WASM_UNSAFE_EVAL
from csp.decorators import csp_replace
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from referees import selectors, services, tablet
from referees.entry import ANSWER_NAMES, CALL_NAMES, SUIT_NAMES, Entry, damaged
from referees.forms import (
    CardsForm,
    PairsForm,
    PenaltyForm,
    PointsForm,
    SeatingForm,
    VoidForm,
    posted_json,
)
from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.results import drafts
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.web.results_forms import AnswerForm

DEVICE_COOKIE = "tanteo_device"
_DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
DEVICE_COOKIE_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie

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


def _device(request: HttpRequest) -> str:
    """This browser's device id: its cookie, or a new random one (set on the response)."""
    known = request.COOKIES.get(DEVICE_COOKIE, "")
    if _DEVICE_ID.fullmatch(known):
        return known
    if not hasattr(request, "_tanteo_device"):
        request._tanteo_device = secrets.token_urlsafe(18)  # type: ignore[attr-defined]
    return request._tanteo_device  # type: ignore[attr-defined]


def _with_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    device = _device(request)
    if request.COOKIES.get(DEVICE_COOKIE) != device:
        # Readable by the page's script (tabjs syncs through the API with the same id);
        # it names a browser, it grants nothing.
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=DEVICE_COOKIE_AGE,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response


def _since(draft: result_selectors.DraftView) -> str:
    moment = draft.held_since or draft.updated_at
    return formats.time_format(timezone.localtime(moment), "H:i") if moment else ""


def _event_json(event: Any) -> str:
    return json.dumps(event, separators=(",", ":"))


def _labels() -> dict[str, Any]:
    """The translated words the tablet's script renders its buttons with."""
    return {
        "calls": {key: str(value) for key, value in CALL_NAMES.items()},
        "answers": {key: str(value) for key, value in ANSWER_NAMES.items()},
        "suits": {key: str(value) for key, value in SUIT_NAMES.items()},
        "trick_to": _("Trick to %(players)s"),
        "parda": _("Parda (tied trick)"),
        "mazo": _("%(player)s goes to the mazo"),
        "team_mazo": _("%(team)s go to the mazo"),
        "save": _("Save hand"),
        "undo": _("Undo the last event"),
        "reset": _("Start the hand again"),
        "reset_confirm": _("Yes, start the hand again"),
        "reset_question": _("Start hand %(number)s again? What was entered is wiped."),
        "reset_undo": _("Undo the restart"),
        "keep": _("No, keep the hand"),
        "mano": _("mano"),
        "to_play": _("%(player)s plays"),
        "sync": {
            "saved": _("Saved on the server"),
            "pending": _("Not yet on the server"),
            "offline": _("Offline: kept on this tablet"),
        },
        "other_device": _("Another device is entering this match (since %(since)s)."),
        "take_over": _("Take over on this device"),
    }


def _tablet_context(
    request: HttpRequest,
    sheet: selectors.Sheet,
    entry: Entry | None,
    draft: result_selectors.DraftView,
) -> dict[str, Any]:
    """What the tablet's script needs (docs/api.md, "The tablet page"), as JSON data: the
    offline-first client's context (``referees.tablet``) with this device, the draft as the
    server keeps it and the hand so far as the page shows it."""
    match = sheet.match
    shown = draft.to_dict()
    if entry is not None:
        shown["record"] = entry.to_draft()
    context = tablet.tablet_context(sheet, shown, plays=match.entry == Match.Entry.CARDS)
    context["urls"].update(
        sheet=reverse("referees:sheet", args=[match.pk]),
        matches=reverse("referees:matches"),
    )
    context.update(
        entry=match.entry,
        # The page and its script speak to the server as one device.
        device=_device(request),
        next_hand=sheet.info,
        pairs=entry.default_pairs() if entry is not None and entry.choosing_pairs else None,
        players={key: name for key, name in sheet.names.items() if key not in ("A", "B")},
        sides={
            "A": list(sheet.record.get("teams", {}).get("A", [])),
            "B": list(sheet.record.get("teams", {}).get("B", [])),
        },
        # The script's own words win where both name one.
        labels={**_labels(), **context["labels"]},
    )
    return context


def _kept(record: dict[str, Any]) -> dict[str, Any]:
    """What of a hand so far must be on the server: a hand with nothing entered yet (no
    events) is the same as no draft, and the restart's ``undo`` is the page's own."""
    return {k: v for k, v in record.items() if k != "undo" and v not in ([], {}, None)}


def _render(
    request: HttpRequest,
    sheet: selectors.Sheet,
    entry: Entry | None,
    *,
    errors: list[str] | None = None,
    forms: dict[str, Any] | None = None,
    status: int = 200,
    draft: result_selectors.DraftView | None = None,
    synced: bool = False,
    confirm_reset: bool = False,
    undo: dict[str, Any] | None = None,
) -> HttpResponse:
    forms = dict(forms or {})
    match = sheet.match
    if draft is None:
        draft = result_selectors.match_draft(match=match, hands=len(sheet.hands))
    device = _device(request)
    held_elsewhere = bool(draft.device) and draft.device != device
    if undo is None and not held_elsewhere and isinstance(draft.record.get("undo"), dict):
        undo = draft.record["undo"]
    # Saved: what the page shows is the draft stored on the server (or nothing to keep).
    in_step = entry is not None and _kept(entry.to_draft()) == _kept(draft.record)
    context: dict[str, Any] = {
        "sheet": sheet,
        "match": match,
        "championship": match.stage.championship,
        "entry": entry if not held_elsewhere else None,
        "errors": errors or [],
        # Said before the referee taps a whole hand that the save would refuse.
        "write_problem": _problem_text(match, request.user),
        "hand_rows": [
            {"hand": h, "status": HAND_STATUS.get(h.status, h.status)} for h in sheet.hands
        ],
        "draft": draft,
        "held_elsewhere": held_elsewhere,
        "since": _since(draft),
        "sync": "saved" if synced or in_step or entry is None else "pending",
        "confirm_reset": confirm_reset,
        "undo_json": _event_json(undo) if undo else "",
        "tablet_context": _tablet_context(request, sheet, entry, draft),
    }
    if sheet.playable and (not sheet.started or not sheet.hands):
        context["seating"] = forms.get("seating") or SeatingForm(
            players=_players(sheet), initial_seats=sheet.seats
        )
    if held_elsewhere and sheet.playable and sheet.started:
        # What the holding device entered so far, read-only until this one takes over.
        held, _error = _stored_entry(sheet, draft)
        context["held_summary"] = held.summary() if not held.choosing_pairs else []
    if entry is not None and not held_elsewhere:
        _entry_context(context, sheet, entry, forms)
    context["confirm"] = _confirm_context(match, request.user, forms)
    response = render(request, "referees/sheet.html", context, status=status)
    return _with_device(request, response)


def _entry_context(
    context: dict[str, Any], sheet: selectors.Sheet, entry: Entry, forms: dict[str, Any]
) -> None:
    if entry.choosing_pairs:
        context["pairs_form"] = forms.get("pairs") or PairsForm(
            players=_players(sheet), initial_pairs=entry.default_pairs()
        )
    else:
        state = entry.current.state
        context["groups"] = entry.buttons()
        context["sides_calls"] = [
            {
                "side": side,
                "team": sheet.match.team_a if side == "A" else sheet.match.team_b,
                "players": [
                    {
                        "key": key,
                        "name": sheet.names.get(key, key),
                        "mano": key == state.order[0],
                        "folded": key in state.folded,
                        "buttons": buttons,
                    }
                    for key, buttons in entry.side_calls(side)
                ],
                "mazo": _event_json(entry.team_mazo(side)) if entry.team_mazo(side) else "",
            }
            for side in ("A", "B")
        ]
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
        if entry.cards_mode:
            context["play_grid"] = entry.play_grid()
            context["to_play"] = sheet.names.get(entry.to_play or "", "")
            context["cards_form"] = forms.get("cards") or CardsForm(
                players=_card_players(sheet, entry), initial=entry.given_cards
            )
    context["summary"] = entry.summary()
    context["hand_json"] = entry.to_json()


def _card_players(sheet: selectors.Sheet, entry: Entry) -> list[tuple[str, str]]:
    """The players of the part being entered, in team order, with their names."""
    order = entry.current.state.order if entry.parts else ()
    return [(p, sheet.names.get(p, p)) for p in entry.team_order() if p in order]


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


def _stored_entry(
    sheet: selectors.Sheet, draft: result_selectors.DraftView
) -> tuple[Entry, TournamentError | None]:
    """The entry of the next hand resumed from the match's stored draft."""
    cards = sheet.match.entry == Match.Entry.CARDS
    return Entry.load(sheet.info, sheet.record, sheet.names, draft.record, cards=cards)


@login_required
def sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_for_referee(user=request.user, pk=match_id)
    match_sheet = selectors.match_sheet(match=match)
    if request.method == "POST":
        return _hand_post(request, match_sheet)
    entry = None
    errors: list[str] = []
    draft = result_selectors.match_draft(match=match, hands=len(match_sheet.hands))
    if match_sheet.playable and match_sheet.started:
        # Reopened from "my matches", a bookmark or another device: the hand goes on
        # from where the draft stands.
        entry, error = _stored_entry(match_sheet, draft)
        if error is not None:
            errors.append(error.text)
    return _render(request, match_sheet, entry, errors=errors, draft=draft)


def _posted_revision(request: HttpRequest) -> int:
    try:
        return max(0, int(request.POST.get("revision", "0")))
    except ValueError:
        return 0


def _hand_post(request: HttpRequest, sheet: selectors.Sheet) -> HttpResponse:
    """One step of the hand entry: apply the posted action to the posted hand, then keep
    the hand so far on the server as the match's draft."""
    match = sheet.match
    if not sheet.playable or not sheet.started:
        messages.error(request, _("There is no hand to record in this match."))
        return redirect("referees:sheet", match.pk)
    if request.POST.get("number") != str(sheet.number):
        messages.error(request, services.stale(sheet.number).text)
        return redirect("referees:sheet", match.pk)
    op = request.POST.get("op", "")
    if op == "takeover":
        return _take_over(request, sheet)
    cards = match.entry == Match.Entry.CARDS
    raw = request.POST.get("hand", "")
    try:
        # Held to the page's bounds before the engine replays it (referees.forms).
        if raw:
            posted_json(raw, rules=sheet.rules)
    except TournamentError as exc:
        entry, _error = Entry.load(sheet.info, sheet.record, sheet.names, "", cards=cards)
        return _render(request, sheet, entry, errors=[exc.text], status=400)
    entry, error = Entry.load(sheet.info, sheet.record, sheet.names, raw, cards=cards)
    if error is not None:
        return _render(request, sheet, entry, errors=[error.text], status=400)
    forms: dict[str, Any] = {}
    undo: dict[str, Any] | None = None
    try:
        if entry.choosing_pairs and op not in ("pairs", "reset", "reset_confirm", "reset_undo"):
            raise damaged()
        if "action" in request.POST:
            posted = posted_json(request.POST["action"], rules=sheet.rules)
            # One event, or a list of them: the team going to the mazo in one tap.
            for event in posted if isinstance(posted, list) and posted else [posted]:
                entry.add(event)
        elif op in ("penalty", "void", "envido", "flor"):
            form = _event_form(op, request, sheet, entry)
            if form.is_valid():
                entry.add(form.event())
            else:
                forms[op] = form
        elif op == "cards":
            form = CardsForm(
                request.POST,
                players=_card_players(sheet, entry),
                initial={},
            )
            if form.is_valid():
                entry.set_cards(form.cards())
            else:
                forms["cards"] = form
        elif op == "pairs":
            form = PairsForm(request.POST, players=_players(sheet), initial_pairs=[])
            if form.is_valid():
                entry.set_pairs(form.pairs())
            else:
                forms["pairs"] = form
        elif op == "undo":
            entry.undo()
        elif op == "reset":
            # Asked first: a tap by mistake must not wipe the hand.
            return _render(request, sheet, entry, confirm_reset=True)
        elif op == "reset_confirm":
            undo = entry.to_draft()
            entry.reset()
        elif op == "reset_undo":
            kept = request.POST.get("undo", "")
            posted_json(kept or "{}", rules=sheet.rules)
            entry, error = Entry.load(sheet.info, sheet.record, sheet.names, kept, cards=cards)
            if error is not None:
                raise error
        elif op == "next_pair":
            entry.next_pair()
        elif op == "save":
            return _save(request, sheet, entry)
        else:
            raise damaged()
    except TournamentError as exc:
        return _render(request, sheet, entry, errors=[exc.text], status=400)
    return _store(request, sheet, entry, forms=forms, undo=undo)


def _store(
    request: HttpRequest,
    sheet: selectors.Sheet,
    entry: Entry,
    *,
    forms: dict[str, Any],
    undo: dict[str, Any] | None,
) -> HttpResponse:
    """Keep the hand so far as the match's draft, then show the next step."""
    record = entry.to_draft()
    if undo:
        record = {**record, "undo": undo}
    try:
        drafts.draft_save(
            match=sheet.match,
            number=sheet.number,
            record=record,
            device=_device(request),
            revision=_posted_revision(request),
            by=request.user,
        )
    except TournamentError as exc:
        if exc.code == "draft_other_device":
            return _render(request, sheet, entry, errors=[exc.text], status=409)
        if exc.code == "draft_stale":
            messages.error(request, exc.text)
            return redirect("referees:sheet", sheet.match.pk)
        # Not kept on the server (the championship is not in play...): the page still
        # carries the hand, and says it is not saved.
        return _render(request, sheet, entry, forms=forms, undo=undo)
    return _render(request, sheet, entry, forms=forms, synced=True, undo=undo)


def _take_over(request: HttpRequest, sheet: selectors.Sheet) -> HttpResponse:
    """This device takes the match over, from the draft as the page showed it."""
    draft = result_selectors.match_draft(match=sheet.match, hands=len(sheet.hands))
    try:
        drafts.draft_save(
            match=sheet.match,
            number=sheet.number,
            record=draft.record,
            device=_device(request),
            revision=_posted_revision(request),
            takeover=True,
            by=request.user,
        )
    except TournamentError as exc:
        messages.error(request, exc.text)
        return _with_device(request, redirect("referees:sheet", sheet.match.pk))
    messages.success(request, _("This device now enters the match: go on from here."))
    return _with_device(request, redirect("referees:sheet", sheet.match.pk))


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
            device=_device(request),
        )
    except TournamentError as exc:
        if exc.code == "stale_hand":
            messages.error(request, exc.text)
            return redirect("referees:sheet", sheet.match.pk)
        status = 409 if exc.code == "draft_other_device" else 400
        return _render(request, sheet, entry, errors=[exc.text], status=status)
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
    return _with_device(request, redirect("referees:sheet", sheet.match.pk))


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


# -- the offline-first tablet's files (referees.tablet) ---------------------------------
# Public: they hold no data, only code, and the service worker fetches them on install.
# Under /referee/ so the service worker's scope covers the pages and the engine's worker.

# The engine's worker compiles WebAssembly (Pyodide): only its own policy allows that.
WORKER_POLICY = {"script-src": [SELF, WASM_UNSAFE_EVAL], "connect-src": [SELF]}


@require_GET
def engine(request: HttpRequest, digest: str) -> HttpResponse:
    """The ``scoring`` package as a zip, named by its content hash (cached for good)."""
    current, data = tablet.engine_zip()
    if digest != current:
        raise Http404("Not the current engine.")
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_GET
@csp_replace(WORKER_POLICY)
def worker(request: HttpRequest) -> HttpResponse:
    """The Web Worker that runs the engine with Pyodide (templates/referees/worker.js)."""
    response = render(
        request,
        "referees/worker.js",
        {"pyodide": tablet.pyodide_base(), "engine": tablet.engine_url()},
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: keeps the tablet's pages, Pyodide and the engine offline."""
    response = render(
        request,
        "referees/sw.js",
        {
            "cache": tablet.cache_name(),
            "precache_json": json.dumps(tablet.cached_urls()),
            "scope": reverse("referees:matches"),
        },
        content_type="text/javascript",
    )
    # Checked on every visit, so a new engine or Pyodide reaches the tablets.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the tablet page installs as an app on the home screen."""
    icons = [
        {"src": static("tablet/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("tablet/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("tablet/icon-512.png"), "sizes": "512x512", "type": "image/png"},
    ]
    data = {
        "name": _("Tanteo – referee's tablet"),
        "short_name": "Tanteo",
        "description": _("Record the hands of your matches, even without network."),
        "start_url": reverse("referees:matches"),
        "scope": reverse("referees:matches"),
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f7f5ef",
        "theme_color": "#1f5f4a",
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json")
