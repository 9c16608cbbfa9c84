"""A team's personal link as an absolute URL, for the pages that show it once (the entry
form's answer, the organiser's link just issued, a team moved between a circuit's
qualifiers)."""

from __future__ import annotations

from django.http import HttpRequest

from tournaments.models import Championship


def team_link(request: HttpRequest, championship: Championship, token: str) -> str:
    """The absolute URL of a team's personal link (its page: ``/c/<slug>/team/<token>/``)."""
    return request.build_absolute_uri(f"/c/{championship.slug}/team/{token}/")
