"""The match sheet: the hand entered tap by tap, saved; the device that holds the match.

One sheet for whoever keeps the score (``referees.scorers``): the match's referee, or a
team of the match through its personal link on a player's phone. Each page takes the
scorer from its entry point (``sheet`` here, ``team_sheet`` in ``views.team``)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from referees import selectors, services
from referees.entry import Entry, damaged
from referees.forms import (
    CardsForm,
    PairsForm,
    PenaltyForm,
    PointsForm,
    SeatingForm,
    VoidForm,
    posted_json,
)
from referees.scorers import Referee, Scorer
from referees.views.context import _confirm_context, _tablet_context
from referees.views.device import _device, _with_device
from tournaments.championships.words import words
from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results.story import hand_status


def _players(sheet: selectors.Sheet) -> list[tuple[str, str]]:
    return [(seat["key"], seat["name"]) for seat in sheet.seat_names()]


def _sides(sheet: selectors.Sheet) -> list[tuple[str, str]]:
    # At a table of three with a fixed gallo the pair is the engine's one side B.
    return list(records.side_names(sheet.match).items())


def _since(draft: result_selectors.DraftView) -> str:
    moment = draft.held_since or draft.updated_at
    return formats.time_format(timezone.localtime(moment), "H:i") if moment else ""


def _event_json(event: Any) -> str:
    return json.dumps(event, separators=(",", ":"))


def _kept(record: dict[str, Any]) -> dict[str, Any]:
    """What of a hand so far must be on the server: a hand with nothing entered yet (no
    events) is the same as no draft, and the restart's ``undo`` is the page's own."""
    return {k: v for k, v in record.items() if k != "undo" and v not in ([], {}, None)}


def _render(
    request: HttpRequest,
    scorer: Scorer,
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
        "words": words(match.stage.championship),
        "entry": entry if not held_elsewhere else None,
        "errors": errors or [],
        # Said before the referee taps a whole hand that the save would refuse.
        "write_problem": _problem_text(match, scorer),
        "hand_rows": [
            {"hand": h, "status": hand_status(h.status, match.stage.championship)}
            for h in sheet.hands
        ],
        # Offered only when it would be done: a decided result confirmed at the table is
        # the organiser's to correct (asked only then: a tap during play costs nothing).
        "may_delete_hand": bool(sheet.hands) and scorer.may_delete_hand(match),
        "draft": draft,
        "held_elsewhere": held_elsewhere,
        "since": _since(draft),
        "sync": "saved" if synced or in_step or entry is None else "pending",
        "confirm_reset": confirm_reset,
        "undo_json": _event_json(undo) if undo else "",
        "tablet_context": _tablet_context(request, scorer, sheet, entry, draft),
        "form_action": scorer.url("sheet", match) + "#entry",
        "scorer": scorer,
        "urls": {name: scorer.url(name, match) for name in ("sheet", "seats", "undo")},
        "back": scorer.back,
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
        entry_context(context, sheet, entry, forms)
    # The sides answer on the referee's tablet; a team keeping the score confirmed by
    # saving the last hand, and the other side answers from its own link.
    if scorer.team is None:
        context["confirm"] = _confirm_context(match, request.user, forms)
    response = render(request, "referees/sheet.html", context, status=status)
    return _with_device(request, response)


def entry_context(
    context: dict[str, Any], sheet: selectors.Sheet, entry: Entry, forms: dict[str, Any]
) -> None:
    if entry.choosing_pairs:
        context["pairs_form"] = forms.get("pairs") or PairsForm(
            players=_players(sheet), initial_pairs=entry.default_pairs()
        )
    else:
        state = entry.current.state
        context["groups"] = entry.buttons()
        context["sides_calls"] = _sides_calls(sheet, entry)
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


def _sides_calls(sheet: selectors.Sheet, entry: Entry) -> list[dict[str, Any]]:
    """The hand's sides as the engine plays them, a column each. At a table of three the
    hand is the gallo against the pair (por turno both change every hand): the columns
    are the engine's two sides, named after their players' teams, the gallo marked."""
    state = entry.current.state
    match = sheet.match
    teams = {"A": match.team_a, "B": match.team_b, "C": match.team_c}
    lineup = records.lineup(match) if match.team_c_id is not None else {}
    team_of = {key: teams[side] for side in sheet.sides for key in lineup.get(side, ())}
    columns = []
    for side in state.sides:
        calls = entry.side_calls(side)
        named = [team_of[key] for key, _buttons in calls if key in team_of]
        team = teams.get(side) if not named else named[0]
        title = get_text_list([t.name for t in named], _("and")) if named else team.name
        columns.append(
            {
                "side": side,
                "team": team,
                "title": title,
                "gallo": bool(state.gallo) and any(key == state.gallo for key, _b in calls),
                "players": [
                    {
                        "key": key,
                        "name": sheet.names.get(key, key),
                        "mano": key == state.order[0],
                        "gallo": key == state.gallo,
                        "folded": key in state.folded,
                        "buttons": buttons,
                    }
                    for key, buttons in calls
                ],
                "mazo": _event_json(entry.team_mazo(side)) if entry.team_mazo(side) else "",
            }
        )
    return columns


def _card_players(sheet: selectors.Sheet, entry: Entry) -> list[tuple[str, str]]:
    """The players of the part being entered, in team order, with their names."""
    order = entry.current.state.order if entry.parts else ()
    return [(p, sheet.names.get(p, p)) for p in entry.team_order() if p in order]


def _problem_text(match: Any, scorer: Scorer) -> str:
    if match.is_decided:
        return ""
    problem = scorer.write_problem(match)
    return problem.text if problem is not None else ""


def _stored_entry(
    sheet: selectors.Sheet, draft: result_selectors.DraftView
) -> tuple[Entry, TournamentError | None]:
    """The entry of the next hand resumed from the match's stored draft."""
    cards = sheet.match.entry == Match.Entry.CARDS
    return Entry.load(sheet.info, sheet.record, sheet.names, draft.record, cards=cards)


@login_required
def sheet(request: HttpRequest, match_id: int) -> HttpResponse:
    return sheet_page(request, Referee(user=request.user), match_id)


def sheet_page(request: HttpRequest, scorer: Scorer, match_id: int) -> HttpResponse:
    """GET: the match sheet, resuming the hand in progress; POST: one step of it."""
    match = scorer.match(match_id)
    match_sheet = selectors.match_sheet(match=match)
    if request.method == "POST":
        return _hand_post(request, scorer, match_sheet)
    entry = None
    errors: list[str] = []
    draft = result_selectors.match_draft(match=match, hands=len(match_sheet.hands))
    if match_sheet.playable and match_sheet.started:
        # Reopened from "my matches", a bookmark or another device: the hand goes on
        # from where the draft stands.
        entry, error = _stored_entry(match_sheet, draft)
        if error is not None:
            errors.append(error.text)
    return _render(request, scorer, match_sheet, entry, errors=errors, draft=draft)


def _posted_revision(request: HttpRequest) -> int:
    try:
        return max(0, int(request.POST.get("revision", "0")))
    except ValueError:
        return 0


def _hand_post(request: HttpRequest, scorer: Scorer, sheet: selectors.Sheet) -> HttpResponse:
    """One step of the hand entry: apply the posted action to the posted hand, then keep
    the hand so far on the server as the match's draft."""
    match = sheet.match
    if not sheet.playable or not sheet.started:
        messages.error(request, _("There is no hand to record in this match."))
        return redirect(scorer.url("sheet", match))
    if request.POST.get("number") != str(sheet.number):
        messages.error(request, services.stale(sheet.number).text)
        return redirect(scorer.url("sheet", match))
    op = request.POST.get("op", "")
    if op == "takeover":
        return _take_over(request, scorer, sheet)
    cards = match.entry == Match.Entry.CARDS
    raw = request.POST.get("hand", "")
    try:
        # Held to the page's bounds before the engine replays it (referees.forms).
        if raw:
            posted_json(raw, rules=sheet.rules)
    except TournamentError as exc:
        entry, _error = Entry.load(sheet.info, sheet.record, sheet.names, "", cards=cards)
        return _render(request, scorer, sheet, entry, errors=[exc.text], status=400)
    entry, error = Entry.load(sheet.info, sheet.record, sheet.names, raw, cards=cards)
    if error is not None:
        return _render(request, scorer, sheet, entry, errors=[error.text], status=400)
    forms: dict[str, Any] = {}
    undo: dict[str, Any] | None = None
    try:
        if "action" in request.POST or op not in ("reset", "reset_confirm", "reset_undo", "save"):
            forms = apply_step(request, sheet, entry, op)
        elif op == "reset":
            # Asked first: a tap by mistake must not wipe the hand.
            return _render(request, scorer, sheet, entry, confirm_reset=True)
        elif op == "reset_confirm":
            undo = entry.to_draft()
            entry.reset()
        elif op == "reset_undo":
            kept = request.POST.get("undo", "")
            posted_json(kept or "{}", rules=sheet.rules)
            entry, error = Entry.load(sheet.info, sheet.record, sheet.names, kept, cards=cards)
            if error is not None:
                raise error
        else:
            if entry.choosing_pairs:
                raise damaged()
            return _save(request, scorer, sheet, entry)
    except TournamentError as exc:
        return _render(request, scorer, sheet, entry, errors=[exc.text], status=400)
    return _store(request, scorer, sheet, entry, forms=forms, undo=undo)


def apply_step(
    request: HttpRequest, sheet: selectors.Sheet, entry: Entry, op: str
) -> dict[str, Any]:
    """Apply one posted step to ``entry``: a tapped event (or a team's mazo, a list), a
    form's event (penalty, void, declared points), the cards dealt, the pica-pica pairs,
    undo, the next pair. Returns the forms to show again with their errors; raises the
    step's error, translated. The referee's sheet and the organiser's hand editor alike."""
    forms: dict[str, Any] = {}
    if entry.choosing_pairs and op != "pairs":
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
        form = CardsForm(request.POST, players=_card_players(sheet, entry), initial={})
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
    elif op == "next_pair":
        entry.next_pair()
    else:
        raise damaged()
    return forms


def _store(
    request: HttpRequest,
    scorer: Scorer,
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
        scorer.save_draft(
            sheet.match, sheet.number, record, _device(request), _posted_revision(request), False
        )
    except TournamentError as exc:
        if exc.code == "draft_other_device":
            return _render(request, scorer, sheet, entry, errors=[exc.text], status=409)
        if exc.code == "draft_stale":
            messages.error(request, exc.text)
            return redirect(scorer.url("sheet", sheet.match))
        # Not kept on the server (the championship is not in play...): the page still
        # carries the hand, and says it is not saved.
        return _render(request, scorer, sheet, entry, forms=forms, undo=undo)
    return _render(request, scorer, sheet, entry, forms=forms, synced=True, undo=undo)


def _take_over(request: HttpRequest, scorer: Scorer, sheet: selectors.Sheet) -> HttpResponse:
    """This device takes the match over, from the draft as the page showed it."""
    draft = result_selectors.match_draft(match=sheet.match, hands=len(sheet.hands))
    back = scorer.url("sheet", sheet.match)
    try:
        scorer.save_draft(
            sheet.match,
            sheet.number,
            draft.record,
            _device(request),
            _posted_revision(request),
            True,
        )
    except TournamentError as exc:
        messages.error(request, exc.text)
        return _with_device(request, redirect(back))
    messages.success(request, _("This device now enters the match: go on from here."))
    return _with_device(request, redirect(back))


def _event_form(op: str, request: HttpRequest, sheet: selectors.Sheet, entry: Entry) -> Any:
    if op == "penalty":
        return PenaltyForm(request.POST, sides=_sides(sheet), rules=sheet.rules)
    if op == "void":
        return VoidForm(request.POST)
    return _points_form(request.POST, op, sheet, entry)


def _points_form(data: Any, what: str, sheet: selectors.Sheet, entry: Entry) -> PointsForm:
    players = [(p, sheet.names.get(p, p)) for p in entry.declarers(what)]
    return PointsForm(data, what=what, players=players)


def _save(
    request: HttpRequest, scorer: Scorer, sheet: selectors.Sheet, entry: Entry
) -> HttpResponse:
    if not entry.ready:
        return _render(
            request,
            scorer,
            sheet,
            entry,
            errors=[_("The hand is not decided yet: record how it ends before saving it.")],
            status=400,
        )
    try:
        hand = scorer.save_hand(sheet.match, sheet.number, entry.to_record(), _device(request))
    except TournamentError as exc:
        if exc.code == "stale_hand":
            messages.error(request, exc.text)
            return redirect(scorer.url("sheet", sheet.match))
        status = 409 if exc.code == "draft_other_device" else 400
        return _render(request, scorer, sheet, entry, errors=[exc.text], status=status)
    if sheet.match.team_c_id is not None:
        text = _("Hand %(number)s saved: %(team_a)s %(a)s, %(team_b)s %(b)s, %(team_c)s %(c)s.") % {
            "number": hand.number,
            "team_a": sheet.match.team_a.name,
            "a": hand.points_a,
            "team_b": sheet.match.team_b.name,
            "b": hand.points_b,
            "team_c": sheet.match.team_c.name,
            "c": hand.points_c,
        }
        messages.success(request, text)
    else:
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

    return _with_device(request, redirect(scorer.url("sheet", sheet.match)))
