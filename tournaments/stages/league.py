"""A league over a season: its matchdays' dates, each match's day, hour and venue, and
the moves of a match (a matchday's date edited, a match rescheduled or postponed).

A league generates all its matchdays at once (the fixtures are published for the
season): matchday *n* is on ``first_date + (n - 1) × interval`` (moved to the league's
weekday when it has one). A match is played in its matchday's week (Monday to Sunday) on
its home team's night when the team has one, else on the matchday's date, at the home
team's hour or the league's; at the home team's venue, copied onto the match.

Every date a match gets stays inside the season (the championship's ``start_date`` to
``end_date``) and no team plays twice on one day: the generation, the organiser's edits
(a matchday's date, a match's date and time, also through ``results.services.match_assign``)
and a postponement all refuse otherwise, each with its sentence.

A league skips its blackout dates (``skip_dates``: 25 December and 1 January unless the
organiser says otherwise): no matchday is dated on one, nor any match of it, so the
matchdays after it move on a week (an interval). A postponement may leave the new date to
be fixed later (no date: ``Match.date_to_be_fixed``). A matchday moved says which of its
matches did not move with it, and why (:class:`MatchdayMove`).

Whether a team is free on a day is read from its other matches, so a move holds what makes
that reading true until it commits: every move of a league's match takes its
championship's lock first (:func:`lock_to_move`), then the rows of the matches it moves,
in id order. Two organisers moving two matches of one team to one day are served one
after the other, and the second is refused (``team_busy``). Lock order: championship,
then match, as every writer (``championships.services.lock_championship``); no stage
lock is held, since a referee holding a match waits for its stage.
"""

from __future__ import annotations

import datetime as dt
import itertools
import zoneinfo
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import formats as date_formats
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import formats
from tournaments.championships.services import lock_championship
from tournaments.errors import TournamentError
from tournaments.models import Championship, Match, Postponement, Round, Stage, Team
from tournaments.notices.services import notice_match_moved
from tournaments.signals import announce
from tournaments.stages import rounds
from tournaments.text import check_lines, paragraph

KEY = Stage.LEAGUE  # the league stage format's key: ``registry`` names it so
DEFAULT_INTERVAL = 7
DEFAULT_TIME = "21:00"
# Days without a matchday unless the organiser says otherwise: "MM-DD" every year, or a
# "YYYY-MM-DD" date once.
DEFAULT_SKIP_DATES = ("12-25", "01-01")


def zone_of(championship: Championship) -> zoneinfo.ZoneInfo:
    """The championship's time zone: its matches' days and hours are told there."""
    return zoneinfo.ZoneInfo(championship.time_zone)


def _parse_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(value) if value else None


def _parse_time(value: Any) -> dt.time:
    if isinstance(value, dt.time):
        return value
    return dt.time.fromisoformat(value or DEFAULT_TIME)


def skip_dates(settings: Mapping[str, Any]) -> list[str]:
    """A league's blackout dates as stored ("MM-DD" every year, "YYYY-MM-DD" once), the
    default ones when it never said; refuses one that is neither.

    >>> skip_dates({})
    ['12-25', '01-01']
    >>> skip_dates({"skip_dates": ["2026-04-03"]})
    ['2026-04-03']
    >>> skip_dates({"skip_dates": ["Christmas"]})  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    TournamentError: Christmas is not a date to skip
    """
    stored = settings.get("skip_dates")
    found = list(DEFAULT_SKIP_DATES if stored is None else stored)
    for entry in found:
        try:
            dt.date.fromisoformat(entry if len(str(entry)) > 5 else f"2000-{entry}")
        except (TypeError, ValueError):
            raise TournamentError(
                _("%(date)s is not a date to skip: give a day and month, or a date."),
                code="bad_skip_date",
                params={"date": entry},
            ) from None
    return found


def is_skipped(skip: Iterable[str], day: dt.date) -> bool:
    """Whether ``day`` is one of the blackout dates ``skip`` (``skip_dates``).

    >>> is_skipped(["12-25"], dt.date(2027, 12, 25)), is_skipped(["12-25"], dt.date(2027, 12, 24))
    (True, False)
    """
    return any(entry in (day.isoformat(), day.strftime("%m-%d")) for entry in skip)


def _slots(settings: Mapping[str, Any]) -> Iterator[dt.date]:
    """Every date a matchday of the league may take, in order (blackout dates left out)."""
    first = _parse_date(settings.get("first_date"))
    if first is None:
        raise TournamentError(
            _("Give the date of the league's first matchday."), code="no_first_date"
        )
    weekday = settings.get("weekday")
    if weekday not in (None, ""):
        first += dt.timedelta(days=(int(weekday) - first.weekday()) % 7)
    interval = int(settings.get("interval") or DEFAULT_INTERVAL)
    skip = skip_dates(settings)
    for index in itertools.count():
        day = first + dt.timedelta(days=interval * index)
        if not is_skipped(skip, day):
            yield day


def matchday_dates(settings: Mapping[str, Any], count: int) -> list[dt.date]:
    """The dates of ``count`` matchdays from a league's settings, its blackout dates
    skipped (the matchdays after one move on an interval).

    >>> matchday_dates({"first_date": "2026-03-02", "interval": 7, "weekday": 2}, 3)
    [datetime.date(2026, 3, 4), datetime.date(2026, 3, 11), datetime.date(2026, 3, 18)]
    >>> matchday_dates({"first_date": "2026-12-18", "interval": 7}, 3)
    [datetime.date(2026, 12, 18), datetime.date(2027, 1, 8), datetime.date(2027, 1, 15)]
    """
    return list(itertools.islice(_slots(settings), count))


def match_start(
    *, championship: Championship, settings: Mapping[str, Any], day: dt.date, home: Team
) -> dt.datetime:
    """When a match of the matchday on ``day`` starts: its home team's weekday in that
    week (Monday to Sunday) when it has one, else ``day``; its hour, else the league's;
    in the championship's time zone."""
    if home.home_weekday is not None:
        monday = day - dt.timedelta(days=day.weekday())
        day = monday + dt.timedelta(days=home.home_weekday)
    hour = home.home_time or _parse_time(settings.get("time"))
    return dt.datetime.combine(day, hour, tzinfo=zone_of(championship))


def _local_day(championship: Championship, moment: dt.datetime) -> dt.date:
    return timezone.localtime(moment, zone_of(championship)).date()


def check_in_season(championship: Championship, day: dt.date) -> None:
    """Refuse a day before the championship's start date or after its end date."""
    if day < championship.start_date or (
        championship.end_date is not None and day > championship.end_date
    ):
        raise TournamentError(
            _("%(date)s is outside the season (%(start)s to %(end)s)."),
            code="outside_season",
            params={
                "date": date_formats.date_format(day, "SHORT_DATE_FORMAT"),
                "start": date_formats.date_format(championship.start_date, "SHORT_DATE_FORMAT"),
                "end": (
                    date_formats.date_format(championship.end_date, "SHORT_DATE_FORMAT")
                    if championship.end_date
                    else "…"
                ),
            },
        )


def _check_free(match: Match, day: dt.date, others: Iterable[Match] | None = None) -> None:
    """Refuse ``day`` when one of ``match``'s teams already plays another match that day
    (``others``: the matches to compare with, default those stored)."""
    championship = match.stage.championship
    teams = {match.team_a_id, match.team_b_id, match.team_c_id} - {None}
    if others is None:
        others = (
            Match.objects.filter(stage__championship=championship, scheduled_at__isnull=False)
            .filter(Q(team_a_id__in=teams) | Q(team_b_id__in=teams) | Q(team_c_id__in=teams))
            .exclude(pk=match.pk)
            .select_related("team_a", "team_b", "team_c")
        )
    for other in others:
        if other.pk == match.pk or other.scheduled_at is None:
            continue
        sides = {other.team_a_id: "team_a", other.team_b_id: "team_b", other.team_c_id: "team_c"}
        shared = teams & (set(sides) - {None})
        if shared and _local_day(championship, other.scheduled_at) == day:
            team = next(getattr(other, f) for pk, f in sides.items() if pk in shared)
            raise TournamentError(
                _("%(team)s already plays %(match)s on %(date)s."),
                code="team_busy",
                params={
                    "team": team,
                    "match": str(other),
                    "date": date_formats.date_format(day, "SHORT_DATE_FORMAT"),
                },
            )


def _matchday_days(
    stage: Stage, planned: list[formats.Round], teams: Mapping[int, Team]
) -> list[dt.date]:
    """Each planned matchday's date: the next slot (``_slots``) on which none of its
    matches falls on a blackout date either (a home team's night may)."""
    championship, settings = stage.championship, stage.settings
    skip = skip_dates(settings)
    slots = _slots(settings)
    dates: list[dt.date] = []
    for planned_round in planned:
        for day in slots:
            starts = [
                match_start(
                    championship=championship, settings=settings, day=day, home=teams[p.home]
                )
                for p in planned_round.pairings
            ]
            if not any(is_skipped(skip, _local_day(championship, s)) for s in starts):
                break
            if championship.end_date is not None and day > championship.end_date:
                check_in_season(championship, day)  # no slot left in the season
        dates.append(day)
    return dates


def league_generate(stage: Stage) -> list[Match]:
    """Every matchday of the league ``stage`` (locked by the caller), dated, each match
    with its day, hour and venue. Refuses a league already generated and a matchday or a
    match outside the season."""
    if stage.rounds.exists():
        raise TournamentError(
            _("The league's matchdays have all been generated already."), code="no_round_left"
        )
    if "teams" not in stage.settings:
        stage.settings["teams"] = rounds.seeded_team_ids(stage.teams.all())
        stage.save(update_fields=["settings"])
    championship = stage.championship
    planned = formats.round_robin(stage.settings["teams"], cycles=stage.settings.get("cycles", 2))
    teams = {t.pk: t for t in stage.teams.all()}
    dates = _matchday_days(stage, planned, teams)
    for day in (dates[0], dates[-1]):
        check_in_season(championship, day)
    created: list[Match] = []
    for planned_round, day in zip(planned, dates, strict=True):
        round_ = rounds.new_round(stage)
        round_.date = day
        round_.save(update_fields=["date"])
        matches = rounds.create_pairings(stage, round_, planned_round.pairings, planned_round.bye)
        for match in matches:
            if match.team_b_id is None:
                continue  # the bye: no fixture
            home = teams[match.team_a_id]
            match.scheduled_at = match_start(
                championship=championship, settings=stage.settings, day=day, home=home
            )
            check_in_season(championship, _local_day(championship, match.scheduled_at))
            _check_free(match, _local_day(championship, match.scheduled_at), created)
            match.venue_name, match.venue_address = home.venue_name, home.venue_address
            match.save(update_fields=["scheduled_at", "venue_name", "venue_address"])
            created.append(match)
        created += [m for m in matches if m.team_b_id is None]
    return created


def _moved(
    match: Match,
    fields: list[str],
    *,
    venue_name: str | None = None,
    venue_address: str | None = None,
) -> None:
    """Save a match whose date (``fields``) and, when given, venue changed: its calendar
    event's sequence goes up, so subscribed phones move it."""
    fields = list(fields)
    _check_venue(venue_name, venue_address)
    if venue_name is not None:
        match.venue_name = venue_name.strip()
        fields.append("venue_name")
    if venue_address is not None:
        match.venue_address = venue_address.strip()
        fields.append("venue_address")
    match.schedule_sequence += 1
    match.schedule_changed_at = timezone.now()
    match.save(update_fields=[*fields, "schedule_sequence", "schedule_changed_at"])


def _check_venue(name: str | None, address: str | None) -> None:
    check_lines(
        {
            "venue_name": (name or "", _("The venue")),
            "venue_address": (address or "", _("The venue's address")),
        }
    )


def lock_to_move(match: Match) -> Match:
    """``match`` locked for a move of its date, after its championship's lock (the
    module's docstring: what makes a team's free day true until the move commits)."""
    championship = Championship.objects.only("pk").get(stages__matches=match.pk)
    lock_championship(championship)
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("stage__championship", "team_a", "team_b", "team_c", "round")
        .get(pk=match.pk)
    )


def _check_open(match: Match) -> None:
    if match.is_decided:
        raise TournamentError(
            _("%(match)s is already decided: its date cannot change."),
            code="match_decided",
            params={"match": str(match)},
        )


@dataclass(frozen=True)
class Stayed:
    """A match of a moved matchday that stayed where it was, and why: ``postponed`` (it
    keeps its own date, or its date to be fixed), ``decided`` (played already) or
    ``home_night`` (its home team's night in the new week is the day it already had)."""

    match: Match
    reason: str

    @property
    def movable(self) -> bool:
        return self.reason != "decided"

    def sentence(self) -> str:
        """Why it stayed, for the organiser."""
        match = self.match
        if self.reason == "decided":
            return _("%(match)s has been played already.") % {"match": match}
        if match.scheduled_at is None:
            return _("%(match)s is postponed, its date to be fixed: it stays so.") % {
                "match": match
            }
        local = timezone.localtime(match.scheduled_at, zone_of(match.stage.championship))
        shown = {
            "match": match,
            "date": date_formats.date_format(local, "SHORT_DATE_FORMAT"),
            "team": match.team_a,
        }
        if self.reason == "postponed":
            return _("%(match)s is postponed to %(date)s: it keeps that date.") % shown
        return _("%(match)s stays on %(date)s: it is %(team)s's home day in that week.") % shown


@dataclass(frozen=True)
class MatchdayMove:
    """A matchday moved: the round, and its matches that did not move with it."""

    round: Round
    stayed: list[Stayed] = field(default_factory=list)


@transaction.atomic
def matchday_set_date(*, stage: Stage, number: int, date: dt.date) -> MatchdayMove:
    """Move matchday ``number`` of a league to ``date``: its matches still to be played
    and not postponed follow (each on its home team's night of the new week). Under the
    championship's lock, then its matches' in id order (the module's docstring). What did
    not move (and why) is returned for the organiser to move it on, one by one."""
    lock_championship(stage.championship)
    stage = Stage.objects.select_related("championship").get(pk=stage.pk)
    round_ = stage.rounds.filter(number=number).first()
    if round_ is None:
        raise TournamentError(
            _("Matchday %(number)s does not exist."), code="no_round", params={"number": number}
        )
    championship = stage.championship
    check_in_season(championship, date)
    locked = (
        round_.matches.select_for_update(of=("self",))
        .select_related("team_a", "team_b", "stage__championship")
        .order_by("pk")
    )
    moving = [m for m in locked if m.team_b_id is not None and not m.is_decided and not m.postponed]
    was = {m.pk: m.scheduled_at for m in moving}
    old_date = round_.date
    for match in moving:
        match.scheduled_at = match_start(
            championship=championship, settings=stage.settings, day=date, home=match.team_a
        )
        day = _local_day(championship, match.scheduled_at)
        check_in_season(championship, day)
        _check_free(match, day)
    round_.date = date
    round_.save(update_fields=["date"])
    for match in moving:
        _moved(match, ["scheduled_at"])
        if match.scheduled_at != was[match.pk]:
            notice_match_moved(match=match, postponed=False)
    announce(championship_id=championship.pk, stage_id=stage.pk, what="round")
    stayed = _stayed(round_, moving) if old_date != date else []
    stayed += [
        Stayed(m, "home_night") for m in moving if old_date != date and m.scheduled_at == was[m.pk]
    ]
    return MatchdayMove(round=round_, stayed=stayed)


def _stayed(round_: Round, moving: list[Match]) -> list[Stayed]:
    """The matches of ``round_`` a move of it left where they were (not ``moving``)."""
    moved = {m.pk for m in moving}
    left = round_.matches.exclude(team_b=None).exclude(pk__in=moved)
    return [
        Stayed(m, "decided" if m.is_decided else "postponed")
        for m in left.select_related("team_a", "team_b", "stage__championship").order_by("pk")
    ]


@transaction.atomic
def matchday_matches_schedule(
    *, stage: Stage, number: int, times: Mapping[int, dt.datetime]
) -> list[Match]:
    """Move matches of matchday ``number`` each to its time in ``times`` (match id: when),
    as the organiser's edits of their dates (``match_schedule``, each with its checks):
    all of them, or none when one is refused."""
    round_ = stage.rounds.filter(number=number).first()
    if round_ is None:
        raise TournamentError(
            _("Matchday %(number)s does not exist."), code="no_round", params={"number": number}
        )
    found = {m.pk: m for m in round_.matches.filter(pk__in=list(times))}
    return [match_schedule(match=found[pk], scheduled_at=times[pk]) for pk in sorted(found)]


def _locked_to_move(
    match: Match, when: dt.datetime | None, bye_text: str
) -> tuple[Match, Championship]:
    """``match`` locked, once it may be moved to ``when``: not a bye (``bye_text`` says
    why), not decided, on a day of the season when neither team plays another match (no
    day to check for a postponement whose date is to be fixed: ``when`` None)."""
    match = lock_to_move(match)
    if match.team_b_id is None:
        raise TournamentError(bye_text, code="bye")
    _check_open(match)
    championship = match.stage.championship
    if when is not None:
        day = _local_day(championship, when)
        check_in_season(championship, day)
        _check_free(match, day)
    return match, championship


@transaction.atomic
def match_schedule(
    *,
    match: Match,
    scheduled_at: dt.datetime,
    venue_name: str | None = None,
    venue_address: str | None = None,
) -> Match:
    """The organiser's edit of one match's date and time (and venue): in the season, and
    neither team playing another match that day; refused for a bye and a decided match
    (its date is history). Not a postponement (no reason kept)."""
    match, championship = _locked_to_move(
        match, scheduled_at, _("A bye is not played: it has no date.")
    )
    match.scheduled_at = scheduled_at
    fields = ["scheduled_at"]
    _moved(match, fields, venue_name=venue_name, venue_address=venue_address)
    notice_match_moved(match=match, postponed=False)
    announce(
        championship_id=championship.pk, stage_id=match.stage_id, match_id=match.pk, what="match"
    )
    return match


@transaction.atomic
def match_postpone(
    *,
    match: Match,
    to: dt.datetime | None,
    reason: str,
    by: AbstractBaseUser | None = None,
    venue_name: str | None = None,
    venue_address: str | None = None,
) -> Postponement:
    """Postpone ``match`` to ``to`` (and maybe another venue), for ``reason``; ``to`` None:
    postponed, its date to be fixed (later, by ``match_schedule`` or another postponement).

    Refused for a decided match, a date outside the season, and a day on which one of its
    teams already plays another match. The move is kept (``Postponement``), the match is
    marked postponed until decided, and its calendar event moves (a higher sequence)."""
    reason = paragraph(reason).strip()
    if not reason:
        raise TournamentError(_("Say why the match is postponed."), code="no_reason")
    _check_venue(venue_name, None)
    match, championship = _locked_to_move(
        match, to, _("A bye is not played: it cannot be postponed.")
    )
    moved = Postponement.objects.create(
        match=match,
        from_at=match.scheduled_at,
        to_at=to,
        from_venue=match.venue_name,
        to_venue=(venue_name if venue_name is not None else match.venue_name).strip(),
        reason=reason,
        by=by if by is not None and by.is_authenticated else None,
    )
    match.scheduled_at = to
    match.postponed = True
    fields = ["scheduled_at", "postponed"]
    _moved(match, fields, venue_name=venue_name, venue_address=venue_address)
    notice_match_moved(match=match, postponed=True, reason=reason, by=by)
    # A postponed match shows on the standings' page: "result" renews them.
    announce(
        championship_id=championship.pk, stage_id=match.stage_id, match_id=match.pk, what="result"
    )
    return moved
