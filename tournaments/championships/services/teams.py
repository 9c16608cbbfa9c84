"""Writes to a championship's teams: entered (one by one or many), edited, their players,
cap de colla and seed, removed (a line-up changed from a round on: ``substitutions``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournaments.championships.selectors import OPEN_ENTRIES
from tournaments.championships.services.championships import lock_championship
from tournaments.championships.words import words
from tournaments.errors import TournamentError
from tournaments.models import (
    SEED_MAX,
    Championship,
    Match,
    Membership,
    Player,
    Team,
)
from tournaments.people.services import PersonDetails, players_create
from tournaments.signals import announce
from tournaments.text import check_lines


def _team_sizes_error(team: Team, size: int) -> TournamentError:
    return TournamentError(
        ngettext_lazy(
            "Team %(team)s already has the %(size)s player this championship allows.",
            "Team %(team)s already has the %(size)s players this championship allows.",
            size,
        ),
        code="team_full",
        params={"team": team.name, "size": size},
    )


def _players_count_error(team: str, count: int, size: int, code: str) -> TournamentError:
    return TournamentError(
        ngettext_lazy(
            "Team %(team)s has %(count)s player; this championship plays with %(size)s.",
            "Team %(team)s has %(count)s players; this championship plays with %(size)s.",
            count,
        ),
        code=code,
        params={"team": team, "count": count, "size": size},
    )


def _check_texts(name: str | None, club: str | None) -> None:
    check_lines({"name": (name or "", _("The team's name")), "club": (club or "", _("The club"))})


@transaction.atomic
def _check_seed(seed: int | None) -> None:
    if seed is not None and not 1 <= seed <= SEED_MAX:
        raise TournamentError(
            _("A seed is a whole number from 1 to %(max)s."),
            code="bad_seed",
            params={"max": SEED_MAX},
        )


def team_create(
    *,
    championship: Championship,
    name: str,
    seed: int | None = None,
    club: str = "",
    players: Sequence[str | PersonDetails] = (),
    captain: str | None = None,
    by: AbstractBaseUser | None = None,
) -> Team:
    """Create a team, optionally with its players (names, in seating order) and captain;
    ``by``: the organiser typing it (``players_create``: whom a licence may join).

    The name is the team's natural key: under the championship lock a double submit finds
    the first team and is refused with a message, instead of an IntegrityError (a 500).
    """
    new = NewTeam(name=name, seed=seed, club=club, players=players, captain=captain)
    (team,) = teams_create_many(championship=championship, teams=[new], by=by)
    return team


@dataclass(frozen=True)
class NewTeam:
    """A team to create with :func:`teams_create_many`: as :func:`team_create` takes it."""

    name: str
    seed: int | None = None
    club: str = ""
    # Names, or PersonDetails when more is known of a player (licence, contact, person).
    players: Sequence[str | PersonDetails] = ()
    captain: str | None = None

    @property
    def names(self) -> list[str]:
        return [PersonDetails.of(player).name for player in self.players]


@transaction.atomic
def teams_create_many(
    *, championship: Championship, teams: Sequence[NewTeam], by: AbstractBaseUser | None = None
) -> list[Team]:
    """Create ``teams`` with their players, all or none: :func:`team_create`'s checks, then
    three bulk inserts. The CSV import uses it: a dozen queries per team made a file of a
    thousand teams outlast a web request (bench/README.md). ``by``: who typed them
    (``None``: the public, the entry form)."""
    lock_championship(championship)
    taken = set(championship.teams.values_list("name", flat=True))
    for team in teams:
        _check_texts(team.name, team.club)
        name = team.name.strip()
        if not name:
            raise TournamentError(_("A team needs a name."), code="team_name_missing")
        if name in taken:
            raise TournamentError(
                _("This championship already has a team called %(name)s."),
                code="team_name_taken",
                params={"name": name},
            )
        taken.add(name)
        _check_seed(team.seed)
        if not all(name.strip() for name in team.names):
            raise TournamentError(_("A player needs a name."), code="player_name_missing")
        problems = team_entry_problems(
            championship=championship,
            team=name,
            players=team.names,
            captains=[team.captain] if team.captain is not None else [],
        )
        if problems:
            raise problems[0]
    created = Team.objects.bulk_create(
        Team(championship=championship, name=t.name.strip(), seed=t.seed, club=t.club)
        for t in teams
    )
    players = players_create(
        [PersonDetails.of(player, club=t.club) for t in teams for player in t.players],
        by=by,
        championship=championship,
    )
    found = iter(players)
    Membership.objects.bulk_create(
        Membership(team=team, player=next(found), order=order, is_captain=name == t.captain)
        for team, t in zip(created, teams, strict=True)
        for order, name in enumerate(t.names, start=1)
    )
    announce(championship_id=championship.pk, what="team")
    return created


def team_entry_problems(
    *, championship: Championship, team: str, players: Sequence[str], captains: Sequence[str]
) -> list[TournamentError]:
    """What keeps a team from being entered, however it comes (form, CSV import, API).

    ``players`` are the names given, ``captains`` those marked cap de colla. A Catalan
    squad entered with its players needs exactly one cap de colla among them.
    """
    problems = []
    size = championship.team_size
    # An Argentine team's captain is its captain: "cap de colla" is Catalan truc's word.
    captain = words(championship).captain
    if len(players) > size:
        problems.append(_players_count_error(team, len(players), size, "team_too_big"))
    if len(captains) > 1:
        problems.append(
            TournamentError(
                _("Team %(team)s has more than one %(captain)s."),
                code="captain_many",
                params={"team": team, "captain": captain},
            )
        )
    elif captains and captains[0] not in players:
        problems.append(
            TournamentError(
                _("The %(captain)s %(name)s is not a player of the team."),
                code="captain_not_member",
                params={"name": captains[0], "captain": captain},
            )
        )
    elif championship.is_catalan and size > 1 and players and not captains:
        problems.append(
            TournamentError(
                _("Team %(team)s needs a cap de colla."),
                code="captain_missing",
                params={"team": team},
            )
        )
    return problems


@transaction.atomic
def team_add_player(
    *,
    team: Team,
    name: str = "",
    player: Player | None = None,
    club: str = "",
    details: PersonDetails | None = None,
    by: AbstractBaseUser | None = None,
) -> Player:
    """Add a player (an existing one, or a new one by name, or by ``details`` when more is
    known of him: his licence, contact, the person he is) at the end of the team; ``by``
    typed him (``players_create``)."""
    team = Team.objects.select_for_update().select_related("championship").get(pk=team.pk)
    size = team.championship.team_size
    if team.memberships.count() >= size:
        raise _team_sizes_error(team, size)
    if player is None:
        details = details or PersonDetails(name=name, club=club)
        if not details.name.strip():
            raise TournamentError(_("A player needs a name."), code="player_name_missing")
        (player,) = players_create([details], by=by, championship=team.championship)
    elif Membership.objects.filter(
        player=player, team__championship_id=team.championship_id
    ).exists():
        raise TournamentError(
            _("%(player)s already plays in a team of this championship."),
            code="player_taken",
            params={"player": player.name},
        )
    order = (team.memberships.aggregate(top=Max("order"))["top"] or 0) + 1
    Membership.objects.create(team=team, player=player, order=order)
    announce(championship_id=team.championship_id, what="team")
    return player


@transaction.atomic
def team_set_captain(*, team: Team, player: Player) -> Membership:
    """Make ``player`` the team's cap de colla (only one per team)."""
    membership = Membership.objects.filter(team=team, player=player).first()
    if membership is None:
        raise TournamentError(
            _("%(player)s is not a player of %(team)s."),
            code="not_member",
            params={"player": player.name, "team": team.name},
        )
    Membership.objects.filter(team=team, is_captain=True).update(is_captain=False)
    membership.is_captain = True
    membership.save(update_fields=["is_captain"])
    announce(championship_id=team.championship_id, what="team")
    return membership


def team_check_ready(team: Team, championship: Championship) -> None:
    """Refuse a team that cannot play yet: incomplete, or a squad without its cap de colla."""
    members = list(team.memberships.all())
    if len(members) != championship.team_size:
        raise _players_count_error(
            team.name, len(members), championship.team_size, "team_incomplete"
        )
    if championship.is_catalan and len(members) > 1 and not any(m.is_captain for m in members):
        raise TournamentError(
            _("Team %(team)s needs a cap de colla."),
            code="captain_missing",
            params={"team": team.name},
        )


@transaction.atomic
def team_update(
    *, team: Team, name: str | None = None, club: str | None = None, seed: int | None = None
) -> Team:
    """Rename a team, change its club or its seed (arguments left ``None`` stay).

    The name stays unique in the championship (checked under the championship lock); the
    seed, which draws are made from, may change only while the team has no match.
    """
    _check_texts(name, club)
    lock_championship(team.championship)
    team = Team.objects.select_for_update().get(pk=team.pk)
    fields = []
    if name is not None:
        name = name.strip()
        if not name:
            raise TournamentError(_("A team needs a name."), code="team_name_missing")
        taken = Team.objects.filter(championship_id=team.championship_id, name=name)
        if taken.exclude(pk=team.pk).exists():
            raise TournamentError(
                _("This championship already has a team called %(name)s."),
                code="team_name_taken",
                params={"name": name},
            )
        team.name = name
        fields.append("name")
    if club is not None:
        team.club = club.strip()
        fields.append("club")
    if seed is not None and seed != team.seed:
        _check_seed(seed)
        if Match.objects.of_team(team).exists():
            raise TournamentError(
                _("Team %(team)s has matches: its seed can no longer change."),
                code="seed_locked",
                params={"team": team.name},
            )
        team.seed = seed
        fields.append("seed")
    if fields:
        team.save(update_fields=fields)
        announce(championship_id=team.championship_id, what="team")
    return team


@transaction.atomic
def team_home_set(
    *,
    team: Team,
    venue_name: str,
    venue_address: str,
    home_weekday: int | None = None,
    home_time: dt.time | None = None,
) -> Team:
    """Where ``team`` plays its home matches in a league, and its own night and hour
    (None: the league's). Matches already fixed keep the venue they were given."""
    if home_weekday is not None and not 0 <= home_weekday <= 6:
        raise TournamentError(_("A weekday is 0 (Monday) to 6 (Sunday)."), code="bad_weekday")
    check_lines(
        {
            "venue_name": (venue_name, _("The home venue")),
            "venue_address": (venue_address, _("The home venue's address")),
        }
    )
    team = Team.objects.select_for_update().get(pk=team.pk)
    team.venue_name = venue_name.strip()
    team.venue_address = venue_address.strip()
    team.home_weekday = home_weekday
    team.home_time = home_time
    team.save(update_fields=["venue_name", "venue_address", "home_weekday", "home_time"])
    announce(championship_id=team.championship_id, what="team")
    return team


@transaction.atomic
def team_remove(*, team: Team) -> None:
    """Remove a team (and its memberships) while entries are open and it has no match."""
    championship = Championship.objects.select_for_update().get(pk=team.championship_id)
    if championship.status not in OPEN_ENTRIES:
        raise TournamentError(
            _("Teams can only be removed while registration is open."), code="entries_closed"
        )
    if Match.objects.of_team(team).exists():
        raise TournamentError(
            _("Team %(team)s has matches and cannot be removed."),
            code="team_has_matches",
            params={"team": team.name},
        )
    players = [m.player_id for m in team.memberships.all()]
    team.delete()
    # A player belongs to the team he was created for: drop those left without a team.
    Player.objects.filter(pk__in=players, memberships__isnull=True).delete()
    announce(championship_id=championship.pk, what="team")


# -- editing a team: its players, substitutes -------------------------------------------------


@transaction.atomic
def team_edit(
    *,
    team: Team,
    name: str,
    club: str,
    seed: int | None,
    players: Sequence[str | PersonDetails],
    captain: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Team:
    """Change a team's name, club, seed and its players' names (``players`` in seating
    order, as the form lists them: a name corrected keeps the player, so his matches and
    hands stay his; a name given where the team had nobody adds a player). ``captain``:
    the index (from 1) of the cap de colla in ``players``. A player added may come as
    ``PersonDetails`` (his licence, contact, the person the organiser ``by`` chose).

    To put another person in a team that has played, use :func:`team_substitute`.
    """
    team = team_update(team=team, name=name, club=club, seed=seed)
    if seed is None and team.seed is not None:
        if Match.objects.of_team(team).exists():
            raise TournamentError(
                _("Team %(team)s has matches: its seed can no longer change."),
                code="seed_locked",
                params={"team": team.name},
            )
        team.seed = None
        team.save(update_fields=["seed"])
    members = list(team.memberships.select_related("player").order_by("order", "pk"))
    names = [PersonDetails.of(p).name.strip() for p in players]
    check_lines({f"player_{i}": (n, _("A player's name")) for i, n in enumerate(names, 1)})
    seen: set[str] = set()
    for entered in names:
        if entered and entered.casefold() in seen:
            raise TournamentError(
                _("%(player)s is twice in the team."),
                code="player_twice",
                params={"player": entered},
            )
        seen.add(entered.casefold())
    for index, entered in enumerate(names):
        if index < len(members):
            if not entered:
                raise TournamentError(_("A player needs a name."), code="player_name_missing")
            player = members[index].player
            if player.name != entered:
                player.name = entered
                player.save(update_fields=["name"])
        elif entered:
            given = players[index]
            details = given if isinstance(given, PersonDetails) else None
            team_add_player(team=team, name=entered, club=team.club, details=details, by=by)
    if captain is not None:
        ordered = list(team.memberships.select_related("player").order_by("order", "pk"))
        if not 1 <= captain <= len(ordered):
            raise TournamentError(
                _("Choose the %(captain)s among the players."),
                code="captain",
                params={"captain": words(team.championship).captain},
            )
        team_set_captain(team=team, player=ordered[captain - 1].player)
    announce(championship_id=team.championship_id, what="team")
    return team
