"""The referee's lists: the matches assigned to him, and those of the championships he
organises.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from referees import selectors


def _rows(matches: list[Any]) -> list[dict[str, Any]]:
    rows = []
    for match in matches:
        running = next((g for g in match.games.all() if g.winner_id is None), None)
        # The chico in play's points, side A first (a table of three's third side too).
        points = None
        if running is not None:
            points = [running.score_a, running.score_b]
            if match.team_c_id is not None:
                points.append(running.score_c)
        rows.append({"match": match, "game": running, "points": points})
    return rows


def _sections(found: selectors.MatchList) -> list[dict[str, Any]]:
    """The lists in the order a referee looks for them, the empty ones left out."""
    titles = [
        (found.in_play, _("In play")),
        (found.to_play, _("To play")),
        (found.awaiting, _("Waiting for the teams' confirmation")),
        (found.disputed, _("Disputed")),
        (found.done_today, _("Done today")),
    ]
    return [{"title": title, "rows": _rows(matches)} for matches, title in titles if matches]


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    found = selectors.matches_for_referee(user=request.user)
    return render(
        request,
        "referees/matches.html",
        {
            "sections": _sections(found),
            "organised": False,
            "organiser": selectors.organises_any(user=request.user),
        },
    )


@login_required
def organised_matches(request: HttpRequest) -> HttpResponse:
    found = selectors.matches_for_organiser(user=request.user)
    return render(
        request,
        "referees/matches.html",
        {"sections": _sections(found), "organised": True, "organiser": True},
    )
