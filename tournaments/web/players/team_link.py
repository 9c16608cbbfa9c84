"""The team's own page behind its personal link: ``/c/<slug>/team/<token>/``.

Whoever holds the link acts for the team, with no account: check in while the organiser
lets teams check in themselves, report the result of a match of its own where no referee
keeps the score (``reports``), answer a result of its own (confirm, or dispute saying
why), withdraw before the start, turn the team's notifications on or off on the phone
the page is open on (Web Push, ``static/js/team-push.js``). Nothing else: the acts are
``entries.acts`` and ``entries.reports`` (with the link, checked live), each one in the
audit log. A revoked link, a tampered token or another championship's link answers 403
with the sentence ``entries.services.link_opened`` gives, on a GET as on a POST, and
changes nothing.

The page holds a secret in its address and per-team state: it is never cached
(``never_cache``), never indexed (``X-Robots-Tag``), and its address is never sent as a
referrer (``Referrer-Policy: strict-origin``: the origin alone). Each act is a POST with
its CSRF token that answers with a message and the page again (post, redirect, get).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from tournaments.championships.words import words
from tournaments.entries import acts
from tournaments.entries import link_selectors as selectors
from tournaments.entries.report_selectors import team_matches
from tournaments.entries.reports import link_answer
from tournaments.entries.selectors import waiting_number
from tournaments.entries.services import link_opened
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Notice, Scorekeeping, Team, TeamLink
from tournaments.notices.push import push_configured, team_phones
from tournaments.stages.services import rounds_in_play, team_check_in_stages
from tournaments.web.players import reports
from tournaments.web.shared.result_form import ResultForm

TEMPLATE = "tournaments/team_link.html"
REFERRER_POLICY = "strict-origin"


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    # Never the address (its token) in a Referer: another site gets the origin alone, this
    # one too. Not "no-referrer": under it a browser sends its forms with "Origin: null",
    # which Django's CSRF check rightly refuses, so no act could be posted.
    response["Referrer-Policy"] = REFERRER_POLICY
    return response


@never_cache
def team_link(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """GET: the team's page; POST: one act (``action``), then the page again; a result
    reported and refused, the page with the form as typed and the engine's sentence."""
    try:
        link = link_opened(slug=slug, token=token)
    except TournamentError as error:
        return _private(render(request, TEMPLATE, {"refused": error.text}, status=403))
    team = link.team
    if request.method == "POST":
        if request.POST.get("action") == "report":
            refused = reports.report(request, team, link)
            if refused is not None:
                context = _context(team, refused, slug=slug, token=token)
                return _private(render(request, TEMPLATE, context))
        else:
            _act(request, team, link)
        return _private(redirect(request.path))
    return _private(render(request, TEMPLATE, _context(team, slug=slug, token=token)))


def _act(request: HttpRequest, team: Team, link: TeamLink) -> None:
    """Do the act the form names, and say how it went (a refusal changes nothing)."""
    action = request.POST.get("action", "")
    try:
        if action == "check_in":
            acts.link_check_in(team=team)
            messages.success(request, _("%(team)s is checked in.") % {"team": team.name})
        elif action in ("confirm", "dispute"):
            match = selectors.team_match(team=team, match_id=request.POST.get("match", ""))
            if match is None:
                raise TournamentError(
                    _("This match is not one of %(team)s's."), params={"team": team}
                )
            if action == "confirm":
                link_answer(team=team, match=match, link=link)
                messages.success(request, _("Result confirmed."))
            else:
                comment = request.POST.get("comment", "")
                link_answer(team=team, match=match, dispute=comment, link=link)
                messages.success(
                    request, _("Your dispute was sent to the organiser, who will settle it.")
                )
        elif action == "push_on":
            acts.link_push_on(
                link=link,
                endpoint=request.POST.get("endpoint", ""),
                p256dh=request.POST.get("p256dh", ""),
                auth=request.POST.get("auth", ""),
                kinds=request.POST.getlist("kinds"),
            )
            messages.success(request, _("Notifications are on on this phone."))
        elif action == "push_off":
            acts.link_push_off(link=link, endpoint=request.POST.get("endpoint", ""))
            messages.success(request, _("Notifications are off on this phone."))
        elif action == "withdraw":
            acts.link_withdraw(team=team, reason=request.POST.get("reason", "")[:500])
            messages.success(
                request,
                _("%(team)s has withdrawn from %(championship)s.")
                % {"team": team.name, "championship": team.championship.name},
            )
        else:
            messages.error(request, _("Nothing was done: choose one of the buttons."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))


def _sheet_url(match: Match | None, *, slug: str, token: str) -> str:
    """The match's score sheet on this phone, where a player of the table keeps the score
    hand by hand (the referees' app serves it, under its service worker: by name only,
    this package never imports it); "" elsewhere."""
    if match is None or match.team_b_id is None or match.recorded == Match.Recorded.RESULT:
        return ""
    if match.stage.scorekeeping_in_force != Scorekeeping.PLAYERS:
        return ""
    return reverse("referees:team_sheet", args=[slug, token, match.pk])


def _push(team: Team) -> dict[str, Any] | None:
    """What the block "Notifications on this phone" needs: the site's VAPID public key, the
    service worker it registers (the referees' app's, by name: it already serves the
    team's score sheet), the kinds to choose from, and the team's phones by digest; None
    while the site has no VAPID keys (nothing is offered)."""
    if not push_configured():
        return None
    return {
        "key": settings.VAPID_PUBLIC_KEY,
        "worker": reverse("referees:service_worker"),
        "scope": reverse("referees:matches"),
        "kinds": Notice.Kind.choices,
        "phones": team_phones(team=team),
    }


def _context(
    team: Team, posted: ResultForm | None = None, *, slug: str, token: str
) -> dict[str, Any]:
    team = selectors.link_page_team(team=team)
    championship = team.championship
    entry: Entry | None = getattr(team, "entry", None)
    out = entry is not None and entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REFUSED)
    # A team that is out acts no more (``entries.acts`` refuses it): nothing is offered.
    stages = [] if out else team_check_in_stages(team=team)
    # Check-in for the next round waits for the end of the round being played.
    in_play = rounds_in_play(stages)
    waits = [stage for stage in stages if stage.pk in in_play]
    stages = [stage for stage in stages if stage not in waits]
    marks = selectors.check_in_marks(team=team, stages=stages)
    started = selectors.championship_started(championship)
    # A team that is out or waiting plays nothing: no "next match" to wait for.
    plays = entry is None or entry.status not in Entry.OUT
    matches = team_matches(team=team)
    fixture = matches.next if plays else None
    if fixture is not None:
        fixture.match.stage.championship = championship  # read already: no query more
    try:
        policy = championship.entry_policy
    except ObjectDoesNotExist:
        policy = None
    return {
        "championship": championship,
        "words": words(championship),
        "team": team,
        "entry": entry,
        # The fee, for a team that entered through the form (its payment is tracked).
        "fee": policy if entry is not None and policy is not None and policy.fee else None,
        "waiting_number": waiting_number(entry) if entry is not None else None,
        "plays": plays,
        "fixture": fixture,
        "sheet_url": _sheet_url(fixture.match if fixture else None, slug=slug, token=token),
        # Its results: to report, to answer ([] for a team that is out: it acts no
        # more), and answered.
        **reports.results(team, matches, posted, acts=not out),
        "marks": marks if plays else [],
        "checked_in": bool(marks) and all(mark.present for mark in marks),
        "check_in_open": acts.self_check_in_open(championship),
        "check_in_waits": bool(waits) and not stages,
        "can_withdraw": not started and not out,
        "push": None if out else _push(team),
    }
