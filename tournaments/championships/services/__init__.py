"""Writes to championships, their teams and players, and their referees.

Each function is keyword-only, typed and atomic; a bad request raises
:class:`tournaments.errors.TournamentError` (a ``ValidationError`` with a translated
message) and changes nothing. One module per entity family: ``championships`` (the
championship, its rules, tie-breaks and status), ``teams`` (entries, line-ups),
``substitutions``, ``referees`` (the referees' list and their invitations),
``scorekeeping`` (who keeps the score: referees, a player's phone, results only); callers
import this package.
"""

from __future__ import annotations

from tournaments.championships.services.championships import (
    championship_create,
    championship_set_status,
    championship_set_tiebreaks,
    championship_update,
    championship_update_rules,
    championships_finish_ended,
    lock_championship,
    tiebreaks_default,
)
from tournaments.championships.services.referees import (
    INVITATION_DAYS,
    referee_add,
    referee_invitation_accept,
    referee_invitation_find,
    referee_invitation_problem,
    referee_invitation_renew,
    referee_invitation_revoke,
    referee_invite,
    referee_remove,
)
from tournaments.championships.services.scorekeeping import (
    championship_scorekeeping_set,
    stage_scorekeeping_set,
)
from tournaments.championships.services.substitutions import team_substitute
from tournaments.championships.services.teams import (
    NewTeam,
    team_add_player,
    team_check_ready,
    team_create,
    team_edit,
    team_entry_problems,
    team_home_set,
    team_remove,
    team_set_captain,
    team_update,
    teams_create_many,
)

__all__ = [
    "INVITATION_DAYS",
    "NewTeam",
    "championship_create",
    "championship_scorekeeping_set",
    "championship_set_status",
    "championship_set_tiebreaks",
    "championship_update",
    "championship_update_rules",
    "championships_finish_ended",
    "lock_championship",
    "referee_add",
    "referee_invitation_accept",
    "referee_invitation_find",
    "referee_invitation_problem",
    "referee_invitation_renew",
    "referee_invitation_revoke",
    "referee_invite",
    "referee_remove",
    "stage_scorekeeping_set",
    "team_add_player",
    "team_check_ready",
    "team_create",
    "team_edit",
    "team_entry_problems",
    "team_home_set",
    "team_remove",
    "team_set_captain",
    "team_substitute",
    "team_update",
    "teams_create_many",
    "tiebreaks_default",
]
