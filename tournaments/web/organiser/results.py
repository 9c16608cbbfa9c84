"""Result pages of a championship: a match's hands with their corrections and history,
the sides' confirmations, the organiser's queue of disputes, and the audit log (page and
CSV).

The organiser reaches every match; a match's own referee reaches its page too (from the
tablet) and may correct it until a side has confirmed the result — the results services
decide (``results.selectors.result_change_problem``), the pages only show it beforehand.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.championships import selectors as championship_selectors
from tournaments.io import audit_exports
from tournaments.models import Championship, Hand, Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import share
from tournaments.web.organiser.forms import add_service_error
from tournaments.web.organiser.forms.scorekeeping import RecordingForm
from tournaments.web.organiser.results_forms import (
    AuditFilterForm,
    HandCorrectionForm,
    HandRemovalForm,
    TeamActFilterForm,
)

AUDIT_PAGE_SIZE = 100


def _side_name(match: Match, side: str) -> str:
    team = match.teams_by_side().get(side)
    return team.name if team is not None else ""


def describe(value: dict[str, Any] | None) -> str:
    """A revision's before or after in a few words: a hand's points and score, a
    walkover's winner, who confirmed."""
    if not value:
        return ""
    if "points" in value:
        points, score = value["points"], value["score"]
        if "C" in points:  # a table of three
            return _("points %(pa)s–%(pb)s–%(pc)s, score %(sa)s–%(sb)s–%(sc)s") % {
                "pa": points.get("A", 0),
                "pb": points.get("B", 0),
                "pc": points["C"],
                "sa": score.get("A", 0),
                "sb": score.get("B", 0),
                "sc": score.get("C", 0),
            }
        return _("points %(pa)s–%(pb)s, score %(sa)s–%(sb)s") % {
            "pa": points.get("A", 0),
            "pb": points.get("B", 0),
            "sa": score.get("A", 0),
            "sb": score.get("B", 0),
        }
    if "winner" in value:
        return _("%(winner)s wins") % {"winner": value["winner"]}
    if value.get("on_behalf"):
        return _("by the organiser")
    return value.get("player", "")


def _revision_rows(revisions: Any) -> list[dict[str, Any]]:
    return [
        {
            "revision": r,
            "team": _side_name(r.match, r.side),
            "before": describe(r.before),
            "after": describe(r.after),
        }
        for r in revisions
    ]


@login_required
def match_results(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match's hands (each one corrected or removed from here), the sides' answers, and
    every change of its result."""
    match, organiser = result_selectors.match_for_results(
        user=request.user, slug=slug, match_id=match_id
    )
    championship = match.stage.championship
    problem = result_selectors.result_change_problem(match=match, user=request.user)
    confirmations = result_selectors.match_confirmations(match=match)
    sides = [
        {"side": side, "team": _side_name(match, side), "answer": confirmations.get(side)}
        for side in match.teams_by_side()  # A, B (and C at a table of three)
    ]
    revisions = result_selectors.match_revisions(match=match)
    for revision in revisions:
        revision.match = match
    return render(
        request,
        "organiser/match_results.html",
        {
            "championship": championship,
            "match": match,
            "organiser": organiser,
            "hands": result_selectors.match_hands(match=match),
            "change_problem": problem.text if problem is not None else "",
            "sides": sides,
            "revisions": _revision_rows(revisions),
            "recording": _recording(match, organiser),
            "share": share.shared(share.match_share_text(match=match)) if organiser else None,
        },
    )


def _recording(match: Match, organiser: bool) -> dict[str, Any]:
    """How the match is recorded, for its panel: its result in words when it is recorded
    as its result, who reported it, and the organiser's form to change the way."""
    result = match.recorded == Match.Recorded.RESULT
    other = Match.Recorded.HANDS if result else Match.Recorded.RESULT
    return {
        "result": result,
        "text": result_services.result_text(match) if result and match.is_decided else "",
        "reported_by": _side_name(match, match.reported_side) if match.reported_side else "",
        "form": RecordingForm(initial={"to": other}) if organiser and not match.is_bye else None,
        "to": other,
    }


def _hand(match: Match, number: int) -> Hand:
    hand = match.hands.filter(number=number).first()
    if hand is None:
        raise Http404("No such hand.")
    return hand


@login_required
def hand_correct(request: HttpRequest, slug: str, match_id: int, number: int) -> HttpResponse:
    """Correct hand ``number``: its record and the reason."""
    match, _organiser = result_selectors.match_for_results(
        user=request.user, slug=slug, match_id=match_id
    )
    hand = _hand(match, number)
    if request.method == "POST":
        form = HandCorrectionForm(request.POST)
        if form.is_valid():
            try:
                result_services.hand_correct(
                    hand=hand,
                    record=form.cleaned_data["record"],
                    corrected_by=request.user,
                    reason=form.cleaned_data["reason"],
                    expected_revision=form.cleaned_data["revision"],
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Hand %(number)s corrected.") % {"number": number})
                return redirect("organiser:match_results", slug=slug, match_id=match.pk)
    else:
        form = HandCorrectionForm(
            initial={
                "record": _pretty(hand.record),
                "revision": result_selectors.last_revision(match=match),
            }
        )
    return _change_page(request, match, hand, form, "organiser/hand_correct.html")


@login_required
def hand_remove(request: HttpRequest, slug: str, match_id: int, number: int) -> HttpResponse:
    """Remove hand ``number``, with the reason: the later hands move up."""
    match, _organiser = result_selectors.match_for_results(
        user=request.user, slug=slug, match_id=match_id
    )
    hand = _hand(match, number)
    if request.method == "POST":
        form = HandRemovalForm(request.POST)
        if form.is_valid():
            try:
                result_services.hand_remove(
                    hand=hand,
                    removed_by=request.user,
                    reason=form.cleaned_data["reason"],
                    expected_revision=form.cleaned_data["revision"],
                )
            except ValidationError as error:
                add_service_error(form, error)
            else:
                messages.success(request, _("Hand %(number)s removed.") % {"number": number})
                return redirect("organiser:match_results", slug=slug, match_id=match.pk)
    else:
        form = HandRemovalForm(initial={"revision": result_selectors.last_revision(match=match)})
    return _change_page(request, match, hand, form, "organiser/hand_remove.html")


def _pretty(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1)


def _change_page(
    request: HttpRequest, match: Match, hand: Hand, form: Any, template: str
) -> HttpResponse:
    problem = result_selectors.result_change_problem(match=match, user=request.user)
    # The record names players by key (p<id>) and sides A and B: say who is who.
    keys = records.names(result_selectors.match_detail(pk=match.pk))
    return render(
        request,
        template,
        {
            "championship": match.stage.championship,
            "match": match,
            "hand": hand,
            "keys": sorted(keys.items()),
            "form": form,
            "change_problem": problem.text if problem is not None else "",
        },
        status=400 if form.is_bound else 200,
    )


@login_required
def match_confirm(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """The organiser confirms the result for one side (``side``) or both (``side=both``)."""
    match, organiser = result_selectors.match_for_results(
        user=request.user, slug=slug, match_id=match_id
    )
    if not organiser:
        raise Http404("No such match.")
    if request.method != "POST":
        return redirect("organiser:match_results", slug=slug, match_id=match.pk)
    side = request.POST.get("side", "")
    sides = list(match.teams_by_side()) if side == "both" else [side]
    try:
        for one in sides:
            result_services.match_confirm(match=match, side=one, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Result confirmed."))
    if request.POST.get("next") == "disputes":
        return redirect("organiser:disputes", slug=slug)
    return redirect("organiser:match_results", slug=slug, match_id=match.pk)


def _championship(request: HttpRequest, slug: str) -> Championship:
    return championship_selectors.championship_for_organiser(user=request.user, slug=slug)


@login_required
def disputes(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's queue: disputed results, and finished results nobody confirmed."""
    championship = _championship(request, slug)
    disputes = list(result_selectors.disputed_matches(championship=championship))
    overdue = list(result_selectors.overdue_reports(championship=championship))
    # What is disputed or waits: the result itself, so the organiser judges it from here.
    for match in [dispute.match for dispute in disputes] + overdue:
        match.result_words = result_services.result_text(match) if match.is_decided else ""
        if match.reported_side:
            match.reported_by = _side_name(match, match.reported_side)
    return render(
        request,
        "organiser/disputes.html",
        {
            "championship": championship,
            "disputes": disputes,
            "overdue": overdue,
            "unconfirmed": result_selectors.provisional_matches(championship=championship),
        },
    )


def _audit(request: HttpRequest, championship: Championship) -> tuple[AuditFilterForm, Any]:
    form = AuditFilterForm(request.GET or None, stages=list(championship.stages.all()))
    changes = result_selectors.championship_revisions(championship=championship, **form.filters())
    return form, changes


@login_required
def audit(request: HttpRequest, slug: str) -> HttpResponse:
    """Every change of the championship's results, newest first, filtered and paged."""
    championship = _championship(request, slug)
    form, changes = _audit(request, championship)
    page = Paginator(changes, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    team_form, acts = _team_acts(request, championship)
    # The teams' acts are paged apart ("tpage"), keeping the other filters and page.
    team_page = Paginator(acts, AUDIT_PAGE_SIZE).get_page(request.GET.get("tpage"))
    team_query = request.GET.copy()
    team_query.pop("tpage", None)
    return render(
        request,
        "organiser/audit.html",
        {
            "championship": championship,
            "form": form,
            "page": page,
            "rows": _revision_rows(page.object_list),
            "query": query.urlencode(),
            "team_form": team_form,
            "team_page": team_page,
            "team_query": team_query.urlencode(),
        },
    )


def _team_acts(request: HttpRequest, championship: Championship) -> tuple[TeamActFilterForm, Any]:
    form = TeamActFilterForm(request.GET or None)
    acts = result_selectors.championship_team_acts(championship=championship, **form.filters())
    return form, acts


@login_required
def audit_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The audit log (with the page's filters) as CSV, UTF-8 with BOM, streamed."""
    championship = _championship(request, slug)
    _form, changes = _audit(request, championship)
    response = StreamingHttpResponse(
        audit_exports.export_audit(championship, changes), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{championship.slug}-audit.csv"'
    return response


@login_required
def audit_teams_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The teams' audit log (entries, links, check-in; with the page's team filters) as
    CSV, UTF-8 with BOM, streamed: a file of its own, its columns unlike the results'."""
    championship = _championship(request, slug)
    _form, acts = _team_acts(request, championship)
    response = StreamingHttpResponse(
        audit_exports.export_team_acts(championship, acts), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{championship.slug}-audit-teams.csv"'
    return response
