"""A team's line-up changed from a round of a stage on: a player substituted (earlier
matches keep who played them)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext_lazy as _

from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.championships.services.championships import lock_championship
from tournaments.errors import TournamentError
from tournaments.models import Match, Membership, Player, Stage, Substitution, Team
from tournaments.people.services import PersonDetails, players_create
from tournaments.signals import announce


def _before(match: Match, stage: Stage, number: int) -> bool:
    """Whether ``match`` comes before round ``number`` of ``stage`` (earlier stages first)."""
    if match.stage_id == stage.pk:
        return match.round.number < number
    return match.stage.order < stage.order


@transaction.atomic
def team_substitute(
    *,
    team: Team,
    player_out: Player,
    name: str,
    stage: Stage,
    from_round: int,
    by: AbstractBaseUser | None = None,
) -> Substitution:
    """Replace ``player_out`` by a new player ``name`` from round ``from_round`` of
    ``stage`` on. The team's earlier matches keep who played them (their lineup is stored
    now if play has not started, so a match of an earlier round still to be played is
    played by the old lineup); a later match already started without a hand takes the new
    player at his seat; one with hands refuses the substitution."""
    lock_championship(team.championship)
    team = (
        Team.objects.select_for_update(of=("self",)).select_related("championship").get(pk=team.pk)
    )
    membership = Membership.objects.filter(team=team, player=player_out).first()
    if membership is None:
        raise TournamentError(
            _("%(player)s is not a player of %(team)s."),
            code="not_member",
            params={"player": player_out.name, "team": team.name},
        )
    name = name.strip()
    if not name:
        raise TournamentError(_("A player needs a name."), code="player_name_missing")
    if stage.championship_id != team.championship_id or from_round < 1:
        raise TournamentError(_("Choose a round of this championship."), code="bad_round")
    if any(m.player.name.casefold() == name.casefold() for m in team.memberships.all()):
        raise TournamentError(
            _("%(player)s is twice in the team."), code="player_twice", params={"player": name}
        )
    matches = list(
        Match.objects.of_team(team)
        .filter(team_b__isnull=False)
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_c__memberships", queryset=MEMBERS_IN_ORDER),
        )
        .select_for_update(of=("self",))
    )
    (new,) = players_create([PersonDetails(name=name, club=player_out.club)])
    old_key, new_key = player_out.record_key, new.record_key
    for match in matches:
        if _before(match, stage, from_round):
            if not match.lineup:
                match.lineup = _current_lineup(match)
                match.save(update_fields=["lineup"])
            continue
        if not match.lineup:
            continue  # not started: it will be played by the team as it is then
        if match.hands.exists():
            raise TournamentError(
                _("%(match)s already has hands with %(player)s: substitute from a later round."),
                code="substitute_after_play",
                params={"match": str(match), "player": player_out.name},
            )
        match.lineup = _replaced(match.lineup, old_key, new_key)
        match.seats = [new_key if key == old_key else key for key in match.seats]
        match.save(update_fields=["lineup", "seats"])
    membership.player = new
    membership.save(update_fields=["player"])
    substitution = Substitution.objects.create(
        team=team, player_out=player_out, player_in=new, stage=stage, from_round=from_round, by=by
    )
    announce(championship_id=team.championship_id, what="team")
    return substitution


def _current_lineup(match: Match) -> dict[str, Any]:
    lineup: dict[str, Any] = {}
    captains = {}
    for side, team in match.teams_by_side().items():
        members = list(team.memberships.all())
        lineup[side] = [m.player.record_key for m in members]
        captain = next((m for m in members if m.is_captain), None)
        if captain is None and len(members) == 1:
            captain = members[0]
        if captain is not None:
            captains[side] = captain.player.record_key
    if len(captains) == 2 and match.team_c_id is None:  # a table of three has none
        lineup["captains"] = captains
    return lineup


def _replaced(lineup: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in lineup.items():
        if key == "captains":
            result[key] = {side: new if v == old else v for side, v in value.items()}
        else:
            result[key] = [new if v == old else v for v in value]
    return result
