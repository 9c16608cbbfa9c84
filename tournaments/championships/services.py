"""Writes to championships, their teams and players.

Each function is keyword-only, typed and atomic; a bad request raises
:class:`tournaments.errors.TournamentError` (a ``ValidationError`` with a translated
message) and changes nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext_lazy as _

from scoring.errors import EngineError
from scoring.rules import RuleSet
from tournaments.championships.selectors import OPEN_ENTRIES, STATUS_FLOW
from tournaments.errors import TournamentError, from_engine, from_format
from tournaments.formats.base import FormatError
from tournaments.models import (
    Championship,
    Hand,
    Match,
    Membership,
    Player,
    Team,
)
from tournaments.signals import announce
from tournaments.standings import tiebreaks
from tournaments.standings.services import standings_outdate


@transaction.atomic
def championships_finish_ended(*, today: datetime.date) -> int:
    """Mark as finished every running championship whose end date is before ``today``.

    Returns how many changed; running it again the same day changes nothing.
    """
    ended = Championship.objects.filter(status=Championship.Status.RUNNING, end_date__lt=today)
    ids = list(ended.values_list("pk", flat=True))
    Championship.objects.filter(pk__in=ids).update(status=Championship.Status.FINISHED)
    for pk in ids:
        announce(championship_id=pk, what="championship")
    return len(ids)


def _check_rules(spec: Any) -> dict[str, Any]:
    try:
        RuleSet.from_spec(spec)
    except EngineError as error:
        raise from_engine(error) from None
    return dict(spec)


def _check_tiebreaks(chain: Sequence[str]) -> list[str]:
    try:
        tiebreaks.check_chain(list(chain))
    except FormatError as error:
        raise from_format(error) from None
    return list(chain)


@transaction.atomic
def championship_create(
    *,
    name: str,
    slug: str,
    start_date: datetime.date,
    preset: str = "argentine",
    options: Mapping[str, Any] | None = None,
    team_size: int = 2,
    end_date: datetime.date | None = None,
    venue: str = "",
    tiebreaks: Sequence[str] | None = None,
    seed: str = "",
    organisers: Iterable[AbstractBaseUser] = (),
) -> Championship:
    """Create a championship in draft from a rule preset plus options.

    The rule set is checked by the engine: an unknown option or value raises a
    ``TournamentError`` naming it. ``tiebreaks`` are keys of ``tournaments.tiebreaks``
    (default ``DEFAULT_CHAIN``).
    """
    rules = _check_rules({"preset": preset, **(options or {})})
    if team_size not in (1, 2, 3, 4):
        raise TournamentError(
            _("A team has 1, 2, 3 or 4 players, not %(size)s."),
            code="bad_team_size",
            params={"size": team_size},
        )
    championship = Championship(
        name=name,
        slug=slug,
        start_date=start_date,
        end_date=end_date,
        venue=venue,
        rules=rules,
        team_size=team_size,
        tiebreaks=_check_tiebreaks(tiebreaks or tiebreaks_default()),
        seed=seed,
    )
    championship.full_clean()
    championship.save()
    championship.organisers.set(list(organisers))
    announce(championship_id=championship.pk, what="championship")
    return championship


@transaction.atomic
def championship_update(
    *,
    championship: Championship,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date | None = None,
    venue: str = "",
) -> Championship:
    """Change a championship's name, dates and venue (its slug, the public address, stays)."""
    if end_date is not None and end_date < start_date:
        raise TournamentError(
            _("A championship cannot end before it starts."), code="dates_reversed"
        )
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    championship.name = name
    championship.start_date = start_date
    championship.end_date = end_date
    championship.venue = venue
    championship.full_clean()
    championship.save(update_fields=["name", "start_date", "end_date", "venue"])
    announce(championship_id=championship.pk, what="championship")
    return championship


def tiebreaks_default() -> list[str]:
    return list(tiebreaks.DEFAULT_CHAIN)


@transaction.atomic
def championship_update_rules(
    *,
    championship: Championship,
    preset: str,
    options: Mapping[str, Any] | None = None,
    tiebreaks: Sequence[str] | None = None,
) -> Championship:
    """Change the rule set (and tie-breaks) while no hand has been recorded."""
    championship = _rules_unlocked(championship)
    championship.rules = _check_rules({"preset": preset, **(options or {})})
    if tiebreaks is not None:
        championship.tiebreaks = _check_tiebreaks(tiebreaks)
    championship.save(update_fields=["rules", "tiebreaks"])
    _standings_outdated(championship)
    announce(championship_id=championship.pk, what="championship")
    return championship


@transaction.atomic
def championship_set_tiebreaks(
    *, championship: Championship, tiebreaks: Sequence[str]
) -> Championship:
    """Change only the tie-break chain (as the rules, while no hand has been recorded)."""
    championship = _rules_unlocked(championship)
    championship.tiebreaks = _check_tiebreaks(tiebreaks)
    championship.save(update_fields=["tiebreaks"])
    _standings_outdated(championship)
    announce(championship_id=championship.pk, what="championship")
    return championship


def _standings_outdated(championship: Championship) -> None:
    # Standings were ranked with the old rules or chain: no longer served, recomputed.
    for stage in championship.stages.all():
        standings_outdate(stage=stage)


def _rules_unlocked(championship: Championship) -> Championship:
    """The championship, locked, if its rules may still change."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if Hand.objects.filter(match__stage__championship=championship).exists():
        raise TournamentError(
            _("The rules cannot change once hands have been recorded."), code="rules_locked"
        )
    return championship


@transaction.atomic
def championship_set_status(*, championship: Championship, status: str) -> Championship:
    """Move a championship along draft → registration → running → finished (or back one)."""
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    try:
        target = Championship.Status(status)
    except ValueError:
        raise TournamentError(
            _("Unknown status %(status)s."), code="bad_status", params={"status": status}
        ) from None
    current = Championship.Status(championship.status)
    if target == current:
        return championship
    if target not in STATUS_FLOW[current]:
        raise TournamentError(
            _("A championship cannot go from “%(current)s” to “%(target)s”."),
            code="bad_status_change",
            params={"current": current.label, "target": target.label},
        )
    championship.status = target
    championship.save(update_fields=["status"])
    announce(championship_id=championship.pk, what="championship")
    return championship


def lock_championship(championship: Championship) -> None:
    """Serialise the writers that add teams or stages to ``championship``.

    Lock order: championship → stage, and match → stage; nothing holding a stage or a
    match lock waits for a championship.
    """
    # NO KEY UPDATE: writers wait for each other, rows that merely reference the
    # championship (a foreign-key check takes KEY SHARE) are not held up.
    Championship.objects.select_for_update(no_key=True).filter(
        pk=championship.pk
    ).order_by().first()


def _team_sizes_error(team: Team, size: int) -> TournamentError:
    return TournamentError(
        _("Team %(team)s already has the %(size)s players this championship allows."),
        code="team_full",
        params={"team": team.name, "size": size},
    )


@transaction.atomic
def team_create(
    *,
    championship: Championship,
    name: str,
    seed: int | None = None,
    club: str = "",
    players: Sequence[str] = (),
    captain: str | None = None,
) -> Team:
    """Create a team, optionally with its players (names, in seating order) and captain.

    The name is the team's natural key: under the championship lock a double submit finds
    the first team and is refused with a message, instead of an IntegrityError (a 500).
    """
    new = NewTeam(name=name, seed=seed, club=club, players=players, captain=captain)
    (team,) = teams_create_many(championship=championship, teams=[new])
    return team


@dataclass(frozen=True)
class NewTeam:
    """A team to create with :func:`teams_create_many`: as :func:`team_create` takes it."""

    name: str
    seed: int | None = None
    club: str = ""
    players: Sequence[str] = ()
    captain: str | None = None


@transaction.atomic
def teams_create_many(*, championship: Championship, teams: Sequence[NewTeam]) -> list[Team]:
    """Create ``teams`` with their players, all or none: :func:`team_create`'s checks, then
    three bulk inserts. The CSV import uses it: a dozen queries per team made a file of a
    thousand teams outlast a web request (bench/README.md)."""
    lock_championship(championship)
    taken = set(championship.teams.values_list("name", flat=True))
    for team in teams:
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
        if team.seed is not None and team.seed < 1:
            raise TournamentError(_("A seed is a whole number from 1."), code="bad_seed")
        if not all(player.strip() for player in team.players):
            raise TournamentError(_("A player needs a name."), code="player_name_missing")
        problems = team_entry_problems(
            championship=championship,
            team=name,
            players=team.players,
            captains=[team.captain] if team.captain is not None else [],
        )
        if problems:
            raise problems[0]
    created = Team.objects.bulk_create(
        Team(championship=championship, name=t.name.strip(), seed=t.seed, club=t.club)
        for t in teams
    )
    players = Player.objects.bulk_create(
        Player(name=name.strip(), club=t.club) for t in teams for name in t.players
    )
    found = iter(players)
    Membership.objects.bulk_create(
        Membership(team=team, player=next(found), order=order, is_captain=name == t.captain)
        for team, t in zip(created, teams, strict=True)
        for order, name in enumerate(t.players, start=1)
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
    if len(players) > size:
        problems.append(
            TournamentError(
                _("Team %(team)s has %(count)s players; this championship plays with %(size)s."),
                code="team_too_big",
                params={"team": team, "count": len(players), "size": size},
            )
        )
    if len(captains) > 1:
        problems.append(
            TournamentError(
                _("Team %(team)s has more than one cap de colla."),
                code="captain_many",
                params={"team": team},
            )
        )
    elif captains and captains[0] not in players:
        problems.append(
            TournamentError(
                _("The cap de colla %(name)s is not a player of the team."),
                code="captain_not_member",
                params={"name": captains[0]},
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
    *, team: Team, name: str = "", player: Player | None = None, club: str = ""
) -> Player:
    """Add a player (an existing one, or a new one by name) at the end of the team."""
    team = Team.objects.select_for_update().select_related("championship").get(pk=team.pk)
    size = team.championship.team_size
    if team.memberships.count() >= size:
        raise _team_sizes_error(team, size)
    if player is None:
        name = name.strip()
        if not name:
            raise TournamentError(_("A player needs a name."), code="player_name_missing")
        player = Player.objects.create(name=name, club=club)
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
        raise TournamentError(
            _("Team %(team)s has %(count)s players; this championship plays with %(size)s."),
            code="team_incomplete",
            params={"team": team.name, "count": len(members), "size": championship.team_size},
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
        if seed < 1:
            raise TournamentError(_("A seed is a whole number from 1."), code="bad_seed")
        if Match.objects.filter(Q(team_a=team) | Q(team_b=team)).exists():
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
def team_remove(*, team: Team) -> None:
    """Remove a team (and its memberships) while entries are open and it has no match."""
    championship = Championship.objects.select_for_update().get(pk=team.championship_id)
    if championship.status not in OPEN_ENTRIES:
        raise TournamentError(
            _("Teams can only be removed while registration is open."), code="entries_closed"
        )
    if Match.objects.filter(Q(team_a=team) | Q(team_b=team)).exists():
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
