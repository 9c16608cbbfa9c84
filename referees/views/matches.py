"""The referee's lists: the matches assigned to him, and those of the championships he
organises.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from referees import selectors


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
