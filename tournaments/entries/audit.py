"""A team's acts kept in its championship's audit log (``TeamAct``): what it did through its
link or the form, and what the organiser, the API or a circuit did to it. Written by the
entries' services and acts, the fees and the circuits; read on the organiser's audit page.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from tournaments.models import Match, Team, TeamAct


def team_act_log(
    *,
    team: Team,
    action: str,
    via: str,
    by: AbstractBaseUser | None = None,
    match: Match | None = None,
    detail: str = "",
) -> TeamAct:
    """Write one act on ``team`` to its championship's audit log."""
    return TeamAct.objects.create(
        championship_id=team.championship_id,
        team=team,
        team_name=team.name,
        match=match,
        action=action,
        via=via,
        by=by if by is not None and by.is_authenticated else None,
        detail=detail,
    )
