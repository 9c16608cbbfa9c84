"""Writes to a championship itself: created, edited, its rules, tie-breaks and status."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from scoring import EngineError, RuleSet
from tournaments.championships.selectors import STATUS_FLOW, rules_locked
from tournaments.errors import TournamentError, from_engine, from_format
from tournaments.formats.base import FormatError
from tournaments.models import (
    Championship,
    default_time_zone,
    validate_time_zone,
)
from tournaments.signals import announce
from tournaments.standings import tiebreaks
from tournaments.standings.services import standings_outdate
from tournaments.text import check_lines


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


def _check_table(rules: Mapping[str, Any], team_size: int) -> None:
    """A gallo rule set seats single players three to a table: it needs teams of one
    (the engine has checked the option itself; this is the championship's side)."""
    if "gallo" in rules and team_size != 1:
        raise TournamentError(
            _("Tables of three (gallo) are played by single players: choose teams of 1."),
            code="gallo_team_size",
        )


def _check_tiebreaks(chain: Sequence[str]) -> list[str]:
    try:
        tiebreaks.check_chain(list(chain))
    except FormatError as error:
        raise from_format(error) from None
    return list(chain)


def _check_time_zone(time_zone: str) -> str:
    try:
        validate_time_zone(time_zone)
    except ValidationError:
        raise TournamentError(
            _("%(zone)s is not a time zone: give one such as Europe/Madrid."),
            code="bad_time_zone",
            params={"zone": time_zone},
        ) from None
    return time_zone


def _check_texts(name: str, venue: str) -> None:
    check_lines({"name": (name, _("The name")), "venue": (venue, _("The venue"))})


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
    time_zone: str = "",
) -> Championship:
    """Create a championship in draft from a rule preset plus options.

    The rule set is checked by the engine: an unknown option or value raises a
    ``TournamentError`` naming it. ``tiebreaks`` are keys of ``tournaments.tiebreaks``
    (default ``DEFAULT_CHAIN``). ``time_zone`` (an IANA name; empty: the site's) is where
    match times are shown and exported.
    """
    _check_texts(name, venue)
    rules = _check_rules({"preset": preset, **(options or {})})
    if team_size not in (1, 2, 3, 4):
        raise TournamentError(
            _("A team has 1, 2, 3 or 4 players, not %(size)s."),
            code="bad_team_size",
            params={"size": team_size},
        )
    _check_table(rules, team_size)
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
        time_zone=_check_time_zone(time_zone or default_time_zone()),
    )
    taken = TournamentError(
        _("Another championship already uses the short name %(slug)s."),
        code="slug_taken",
        params={"slug": slug},
    )
    if Championship.objects.filter(slug=slug).exists():
        raise taken
    # The slug, the only unique field, is checked above and by the insert below: checked
    # again here, a championship of the same name committed meanwhile came back as the
    # model's own error instead of ``slug_taken``.
    championship.full_clean(validate_unique=False)
    try:
        with transaction.atomic():
            championship.save()
    except IntegrityError:
        # Two organisers (or one double click) creating the same short name at once: both
        # passed the check above; the unique slug lets one in, the other is told.
        if Championship.objects.filter(slug=slug).exists():
            raise taken from None
        raise
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
    absent_teams: str | None = None,
    time_zone: str | None = None,
) -> Championship:
    """Change a championship's name, dates, venue and time zone and, when given, what a
    Swiss round does with teams absent at check-in (``Championship.AbsentTeams``);
    ``None`` leaves a field unchanged. Its slug, the public address, stays."""
    _check_texts(name, venue)
    if end_date is not None and end_date < start_date:
        raise TournamentError(
            _("A championship cannot end before it starts."), code="dates_reversed"
        )
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    championship.name = name
    championship.start_date = start_date
    championship.end_date = end_date
    championship.venue = venue
    if absent_teams is not None:
        if absent_teams not in Championship.AbsentTeams.values:
            raise TournamentError(
                _("Unknown choice %(choice)s."), code="bad_choice", params={"choice": absent_teams}
            )
        championship.absent_teams = absent_teams
    if time_zone is not None:
        championship.time_zone = _check_time_zone(time_zone)
    championship.full_clean()
    championship.save(
        update_fields=["name", "start_date", "end_date", "venue", "absent_teams", "time_zone"]
    )
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
    """Change the rule set (and tie-breaks) while no hand has been recorded. An option
    ``gallo`` (``por_turno`` or ``fijo``, checked by the engine) makes it a championship of
    tables of three, for teams of one player only."""
    championship = _rules_unlocked(championship)
    championship.rules = _check_rules({"preset": preset, **(options or {})})
    _check_table(championship.rules, championship.team_size)
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
    if rules_locked(championship):
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
