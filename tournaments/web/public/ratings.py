"""The public ratings leaderboards, one per rules family (``/ratings/<family>/``).

Cached and live like the other public pages (``tournaments.live``): a leaderboard follows
the ``ratings`` topic, bumped whenever a match is rated.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import live
from tournaments.models import RatingFamily
from tournaments.ratings import selectors as rating_selectors
from tournaments.ratings import skill


@live.public_page(lambda family: [live.SITE, live.RATINGS])
def leaderboard(request: HttpRequest, family: str) -> HttpResponse:
    """The family's best rated players (at least ``skill.MIN_MATCHES`` rated matches)."""
    label = rating_selectors.family_label(family)
    if label is None:
        raise Http404("No such rules family.")
    return render(
        request,
        "tournaments/ratings.html",
        {
            "family": family,
            "label": label,
            "families": RatingFamily.choices,
            "lines": rating_selectors.leaderboard(family=family),
            "min_matches": skill.MIN_MATCHES,
        },
    )
