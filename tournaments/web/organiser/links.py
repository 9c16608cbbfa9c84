"""The organiser's side of the teams' personal links: let teams check in themselves until
a time (from a stage's check-in page), issue a team's link (shown once, with its QR code)
and revoke it (from the team's page). Every page needs a login and finds its championship
through ``championships.selectors.championship_for_organiser`` (404 to anyone else).

The link just issued is shown once (``shown_once``, as a referee's invitation). Lost, it
is replaced: a new link, and the old one stops working.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from tournaments.entries import acts, link_selectors
from tournaments.entries.services import link_issue, link_revoke
from tournaments.models import TeamAct
from tournaments.web.organiser.championships import _championship, _post_only
from tournaments.web.organiser.day import _team
from tournaments.web.organiser.forms.links import SelfCheckInForm
from tournaments.web.shared import shown_once

LINK_COOKIE = "tanteo_team_link"
LINK_COOKIE_SALT = "tanteo.team-link-shown"


@login_required
def self_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Open (``action=open`` with ``until``) or close (``action=close``) the window in
    which teams check in themselves; back to the stage's check-in page it came from."""
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    stage = championship.stages.filter(pk=request.POST.get("stage") or 0).first()
    back = (
        redirect("organiser:check_in", slug=slug, stage_id=stage.pk)
        if stage is not None
        else redirect("organiser:championship", slug=slug)
    )
    if request.POST.get("action") == "close":
        acts.championship_self_check_in(championship=championship, until=None, by=request.user)
        messages.success(request, _("Teams can no longer check in through their links."))
        return back
    form = SelfCheckInForm(request.POST, championship=championship)
    if not form.is_valid():
        messages.error(request, _("Give the day and time until which teams may check in."))
        return back
    try:
        acts.championship_self_check_in(
            championship=championship, until=form.until_value(), by=request.user
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Teams may now check in themselves through their links."))
    return back


@login_required
def team_link_issue(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """A new personal link for the team (every older one stops working), shown once."""
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    team = _team(championship, team_id)
    token = link_issue(team=team, via=TeamAct.Via.ORGANISER, by=request.user)
    link = request.build_absolute_uri(reverse("tournaments:team_link", args=[slug, token]))
    return shown_once.redirect_showing(
        reverse("organiser:team_link", args=[slug, team.pk]),
        cookie=LINK_COOKIE,
        salt=LINK_COOKIE_SALT,
        value={"team": team.pk, "link": link},
    )


@never_cache
@login_required
def team_link_shown(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """The link just issued, once, with its QR code (to show a phone or to print); after
    that, only whether the team has a live link."""
    championship = _championship(request, slug)
    team = _team(championship, team_id)
    link = ""
    fresh = shown_once.read(request, cookie=LINK_COOKIE, salt=LINK_COOKIE_SALT)
    live = link_selectors.live_link(team=team)
    if fresh.get("team") == team.pk and live is not None:
        link = fresh.get("link", "")
    context = {
        "championship": championship,
        "team": team,
        "live": live,
        "link": link,
        # An inline <svg> (no data: URL, no style attribute): allowed by the page's CSP.
        "svg": segno.make(link, error="m").svg_inline(scale=4, omitsize=True) if link else "",
    }
    response = render(request, "organiser/team_link.html", context)
    shown_once.forget(request, response, cookie=LINK_COOKIE)
    return response


@login_required
def team_link_revoke(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """Revoke the team's link: it answers 403 from now on."""
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    team = _team(championship, team_id)
    if link_revoke(team=team, by=request.user):
        messages.success(
            request, _("The personal link of %(team)s no longer works.") % {"team": team.name}
        )
    else:
        messages.info(request, _("%(team)s had no live link.") % {"team": team.name})
    return redirect("organiser:team_edit", slug=slug, team_id=team.pk)
