"""The score sheet kept on a player's phone, through his team's personal link
(``/referee/c/<slug>/team/<token>/matches/<id>/``; docs/tournaments.md, "No referee at
the table").

The referee's sheet, seats and undo (``views.sheet``, ``views.seats``) with the team as the
scorer (``referees.scorers.TeamScorer``). Under ``/referee/`` so the tablet's service
worker (its scope) keeps the page and its engine for reloads offline. A tampered token,
a revoked link or another championship's link answers 403; a match the team does not
play, 404; a stage where the referees keep the score, or only results are reported, 403:
each with its sentence, and nothing changes. Like the team's page, never cached, never
indexed, and its address never sent as a referrer.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from referees.scorers import TeamScorer
from referees.views.device import _with_device
from referees.views.seats import seats_page, undo_page
from referees.views.sheet import sheet_page
from tournaments.entries.link_selectors import link_by_token
from tournaments.errors import TournamentError
from tournaments.results.selectors import team_scorer_problem

# As the team's page (tournaments.web.players.team_link): the origin alone as referrer.
REFERRER_POLICY = "strict-origin"


def _private(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = REFERRER_POLICY
    return response


def _refused(request: HttpRequest, text: str, status: int) -> HttpResponse:
    return _private(render(request, "referees/refused.html", {"refused": text}, status=status))


def _as_team(
    request: HttpRequest,
    slug: str,
    token: str,
    match_id: int,
    page: Callable[[HttpRequest, TeamScorer, int], HttpResponse],
) -> HttpResponse:
    """The page for the team behind the link, if it keeps this match's score."""
    try:
        link = link_by_token(token=token)
    except TournamentError as error:
        return _refused(request, error.text, 403)
    team = link.team
    if team.championship.slug != slug:
        return _refused(request, _("This link belongs to another championship."), 403)
    scorer = TeamScorer(team=team, link=link, slug=slug, token=token)
    try:
        match = scorer.match(match_id)
    except Http404:
        text = _("This match is not one of %(team)s's.") % {"team": team.name}
        return _refused(request, text, 404)
    problem = team_scorer_problem(match=match, team=team)
    if problem is not None and problem.code in ("referees_keep_score", "results_only"):
        return _refused(request, problem.text, 403)
    # Any other reason (the championship not in play) is said on the sheet itself, which
    # stores nothing, as the referee's does.
    return _private(_with_device(request, page(request, scorer, match_id)))


@never_cache
def team_sheet(request: HttpRequest, slug: str, token: str, match_id: int) -> HttpResponse:
    return _as_team(request, slug, token, match_id, sheet_page)


@never_cache
def team_seats(request: HttpRequest, slug: str, token: str, match_id: int) -> HttpResponse:
    return _as_team(request, slug, token, match_id, seats_page)


@never_cache
def team_undo(request: HttpRequest, slug: str, token: str, match_id: int) -> HttpResponse:
    return _as_team(request, slug, token, match_id, undo_page)
