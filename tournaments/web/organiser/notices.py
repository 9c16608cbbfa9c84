"""Telling the players, for the organiser: call a round (each team told its match is
ready, with its table), a short message to a round, one match's teams, a stage's teams or
everyone entered, and what was told with each notice's state (queued, sent, failed, not sent).
The notices' services decide everything; these pages ask them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Championship, Match, Round, Stage
from tournaments.notices import selectors
from tournaments.notices import services as notice_services
from tournaments.stages import selectors as stage_selectors
from tournaments.stages import share
from tournaments.web.organiser.championships import _championship


def _told(request: HttpRequest, count: int, *, called: bool) -> None:
    if count:
        text = (
            ngettext(
                "%(count)s team told its match is ready.",
                "%(count)s teams told their match is ready.",
                count,
            )
            if called
            else ngettext(
                "Message sent to %(count)s team.", "Message sent to %(count)s teams.", count
            )
        )
        messages.success(request, text % {"count": count})
    else:
        messages.warning(
            request,
            _(
                "Nobody was told: the teams were told the same less than a minute ago, or "
                "gave no address at entry and turned on no phone's notifications."
            ),
        )


def _send(
    request: HttpRequest,
    championship: Championship,
    round_: Round | None = None,
    match: Match | None = None,
    stage: Stage | None = None,
) -> None:
    try:
        if request.POST.get("action") == "call" and round_ is not None:
            told = notice_services.round_call(round_=round_, by=request.user)
            # A team told by mail and on its phones is one team told.
            _told(request, len({notice.team_id for notice in told}), called=True)
            return
        told = notice_services.message_send(
            championship=championship,
            text=request.POST.get("text", ""),
            by=request.user,
            round_=round_ if match is None and stage is None else None,
            match=match,
            stage=stage,
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        _told(request, len({notice.team_id for notice in told}), called=False)


def _page(request: HttpRequest, context: dict) -> HttpResponse:
    context["states"] = selectors.states_told(context["notices"])
    context["message_max"] = notice_services.MESSAGE_MAX
    return render(request, "organiser/notices.html", context)


@login_required
def round_notices(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """GET: the round's notices; POST: call the round, or a message to it or one match."""
    championship = _championship(request, slug)
    stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
    round_ = stage_selectors.round_of(stage=stage, number=number)
    matches = list(
        round_.matches.exclude(team_b=None).select_related("team_a", "team_b").order_by("pk")
    )
    if request.method == "POST":
        chosen = request.POST.get("to", "")
        match = next((m for m in matches if str(m.pk) == chosen), None)
        to_stage = stage if chosen == "stage" else None
        _send(request, championship, round_=round_, match=match, stage=to_stage)
        return redirect(request.path)
    context = {
        "championship": championship,
        "stage": stage,
        "round": round_,
        "matches": matches,
        "notices": selectors.round_notices(round_=round_),
        "share": share.shared(share.round_share_text(round_=round_)),
    }
    return _page(request, context)


@login_required
def championship_notices(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: every notice of the championship; POST: a message to everyone entered, or to
    one stage's teams."""
    championship = _championship(request, slug)
    stages = list(championship.stages.order_by("order", "pk"))
    if request.method == "POST":
        chosen = request.POST.get("to", "")
        stage = next((s for s in stages if str(s.pk) == chosen), None)
        _send(request, championship, stage=stage)
        return redirect(request.path)
    context = {
        "championship": championship,
        "stages": stages,
        "notices": selectors.championship_notices(championship=championship),
    }
    return _page(request, context)
