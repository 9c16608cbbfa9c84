"""Fixture lists, public and printable: a championship's matchdays (every match with its
date, time, venue and result, postponements marked) and a team's season.

Cached and live like the other public pages (``tournaments.live``): the matchdays follow
the championship (``c.<slug>``: a result, a date or a venue changed), a team's season its
team page's topics (``t.<id>``: its matches' times, venues and results). The printable
copies (``print/fixtures.html``, ``static/css/print.css``) are the same lists for the
club's notice board.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import live
from tournaments.championships.words import words
from tournaments.live import public_page
from tournaments.models import Championship, Team
from tournaments.stages import fixtures as fixture_selectors
from tournaments.web.public.championships import _championship


def _team(championship: Championship, team_id: int) -> Team:
    team = championship.teams.playing().filter(pk=team_id).first()
    if team is None:
        raise Http404("No such team.")
    return team


def _matchdays_context(slug: str, stage_id: int | None, number: int | None) -> dict[str, Any]:
    found = _championship(slug)
    if stage_id is None:
        days = fixture_selectors.championship_matchdays(championship=found)
    else:
        stage = found.stages.filter(pk=stage_id).select_related("championship").first()
        if stage is None:
            raise Http404("No such stage.")
        days = fixture_selectors.matchdays(stage=stage, number=number)
        if number is not None and not days:
            raise Http404("No such matchday.")
    leagues = list({day.stage.pk: day.stage for day in days if day.stage.is_league}.values())
    return {
        "championship": found,
        "words": words(found),
        "matchdays": days,
        "one": number,
        "leagues": leagues,  # their blackout dates are said above the list
    }


@public_page(lambda slug: live.page_topics(slug=slug))
def matchdays(request: HttpRequest, slug: str) -> HttpResponse:
    """Every matchday of the championship's scheduled stages, in order."""
    return render(request, "tournaments/fixtures.html", _matchdays_context(slug, None, None))


@public_page(lambda slug, stage_id, number: live.page_topics(slug=slug))
def matchday(request: HttpRequest, slug: str, stage_id: int, number: int) -> HttpResponse:
    """One matchday: its matches with date, time, venue and result."""
    context = _matchdays_context(slug, stage_id, number)
    return render(request, "tournaments/fixtures.html", context)


@public_page(lambda slug: live.page_topics(slug=slug))
def matchdays_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The matchdays, ready to print and pin on the club's wall."""
    context = _matchdays_context(slug, None, None)
    return render(request, "print/fixtures.html", context)


def _team_context(slug: str, team_id: int) -> dict[str, Any]:
    found = _championship(slug)
    team = _team(found, team_id)
    return {
        "championship": found,
        "words": words(found),
        "team": team,
        "season": fixture_selectors.team_fixtures(championship=found, team=team),
    }


@public_page(lambda slug, team_id: live.team_page_topics(slug, team_id))
def team_fixtures(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """A team's season: each matchday, home or away, the opponent, date, time, venue and
    result."""
    return render(request, "tournaments/team_fixtures.html", _team_context(slug, team_id))


@public_page(lambda slug, team_id: live.team_page_topics(slug, team_id))
def team_fixtures_print(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """A team's season, ready to print."""
    return render(request, "print/team_fixtures.html", _team_context(slug, team_id))
