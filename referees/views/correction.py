"""The hand editor: an organiser corrects a recorded hand with the referee's buttons (the
engine's legal actions), starting from the hand as it was recorded, instead of editing its
record as text (which ``organiser:hand_correct`` still offers for what no button says).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from referees import selectors
from referees.entry import Entry
from referees.forms import CorrectionForm, posted_json
from referees.views.sheet import apply_step, entry_context
from tournaments.errors import TournamentError
from tournaments.models import Hand, Match
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services


def _as_draft(record: dict[str, Any]) -> dict[str, Any]:
    """A stored hand record as the entry's draft: a pica-pica hand resumes at its last pair."""
    if "pica_pica" in record:
        return {**record, "current": max(len(record["pica_pica"]) - 1, 0)}
    return record


@login_required
def hand_editor(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    match = selectors.match_for_referee(user=request.user, pk=match_id)
    sheet = selectors.correction_sheet(match=match, number=number)
    hand = next(h for h in sheet.hands if h.number == number)
    cards = match.entry == Match.Entry.CARDS
    recorded = json.dumps(_as_draft(hand.record))
    revision = result_selectors.last_revision(match=match)
    if request.method != "POST":
        entry, error = Entry.load(sheet.info, sheet.record, sheet.names, recorded, cards=cards)
        errors = [error.text] if error is not None else []
        return _page(request, sheet, hand, entry, errors=errors, form=CorrectionForm())
    raw = request.POST.get("hand", "")
    op = request.POST.get("op", "")
    try:
        posted_json(raw or "{}", rules=sheet.rules)
    except TournamentError as exc:
        entry, _error = Entry.load(sheet.info, sheet.record, sheet.names, recorded, cards=cards)
        return _page(request, sheet, hand, entry, errors=[exc.text], status=400)
    entry, error = Entry.load(sheet.info, sheet.record, sheet.names, raw, cards=cards)
    if error is not None:
        return _page(request, sheet, hand, entry, errors=[error.text], status=400)
    form = CorrectionForm(initial={"revision": revision})
    steps: dict[str, Any] = {}
    try:
        if "action" in request.POST or op not in ("recorded", "clear", "save"):
            steps = apply_step(request, sheet, entry, op)
        elif op == "recorded":
            entry, error = Entry.load(sheet.info, sheet.record, sheet.names, recorded, cards=cards)
        elif op == "clear":
            entry.reset()
        else:
            return _save(request, sheet, hand, entry)
    except TournamentError as exc:
        return _page(request, sheet, hand, entry, errors=[exc.text], status=400, form=form)
    return _page(request, sheet, hand, entry, step_forms=steps, form=form)


def _save(request: HttpRequest, sheet: selectors.Sheet, hand: Hand, entry: Entry) -> HttpResponse:
    form = CorrectionForm(request.POST)
    if not entry.ready:
        problem = _("The hand is not decided yet: record how it ends before saving it.")
        return _page(request, sheet, hand, entry, errors=[problem], status=400, form=form)
    if not form.is_valid():
        return _page(request, sheet, hand, entry, status=400, form=form)
    match = sheet.match
    try:
        result_services.hand_correct(
            hand=hand,
            record=entry.to_record(),
            corrected_by=request.user,
            reason=form.cleaned_data["reason"],
            expected_revision=form.cleaned_data["revision"],
        )
    except TournamentError as exc:
        return _page(request, sheet, hand, entry, errors=[exc.text], status=400, form=form)
    messages.success(request, _("Hand %(number)s corrected.") % {"number": hand.number})
    return redirect(
        "organiser:match_results", slug=match.stage.championship.slug, match_id=match.pk
    )


def _page(
    request: HttpRequest,
    sheet: selectors.Sheet,
    hand: Hand,
    entry: Entry,
    *,
    errors: list[str] | None = None,
    step_forms: dict[str, Any] | None = None,
    form: CorrectionForm | None = None,
    status: int = 200,
) -> HttpResponse:
    match = sheet.match
    revision = result_selectors.last_revision(match=match)
    form = form or CorrectionForm(initial={"revision": revision})
    problem = result_selectors.result_change_problem(match=match, user=request.user)
    context: dict[str, Any] = {
        "sheet": sheet,
        "match": match,
        "championship": match.stage.championship,
        "hand": hand,
        "entry": entry,
        "errors": errors or [],
        "form": form,
        # The revision travels in the sheet's hidden state: the reason alone is shown.
        "reason_fields": [form["reason"]],
        # The hidden state the sheet's forms carry (referees/_state.html): the revision
        # checked on saving is the match's result revision.
        "draft": {"revision": revision},
        "change_problem": problem.text if problem is not None else "",
        "form_action": reverse("referees:hand_editor", args=[match.pk, hand.number]),
    }
    if not entry.choosing_pairs:
        entry_context(context, sheet, entry, dict(step_forms or {}))
    else:
        context["hand_json"] = entry.to_json()
    return render(request, "referees/correct.html", context, status=status)
