"""The fixtures as iCalendar feeds (RFC 5545), for a phone to subscribe to: every match
of a championship with a date and time, or a team's.

One event per match, its UID stable (``match-<id>@<host>``), so a feed fetched again
updates the events instead of adding copies; a postponement or any move of a match bumps
its SEQUENCE and LAST-MODIFIED (``Match.schedule_sequence``), and the event moves: a
postponed match is never CANCELLED. One postponed with its date to be fixed stays where it
was, TENTATIVE, its title saying so, until it has a date again. Times carry the
championship's time zone.

Not through the page cache (``tournaments.live`` keeps HTML pages, served as such): a
feed is small, read a few times a day by each calendar, and answered with an ETag.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import zoneinfo

import icalendar
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Championship, Match, Team
from tournaments.stages import fixtures as fixture_selectors
from tournaments.web.public.championships import _championship

CONTENT_TYPE = "text/calendar; charset=utf-8"
# How long a match is shown in a calendar: a best of three takes an evening.
MATCH_LENGTH = dt.timedelta(hours=2)


def uid(match: Match, host: str) -> str:
    return f"match-{match.pk}@{host}"


def _event(request: HttpRequest, match: Match, host: str) -> icalendar.Event | None:
    championship = match.stage.championship
    zone = zoneinfo.ZoneInfo(championship.time_zone)
    # Postponed with its date to be fixed: left where it was, marked so (``feed_matches``).
    when = match.scheduled_at or getattr(match, "was", None)
    if when is None:
        return None
    start = timezone.localtime(when, zone)
    title = match.round.name_in(match.stage)
    event = icalendar.Event()
    event.add("uid", uid(match, host))
    summary = f"{match.sides_text} · {title}"
    if match.date_to_be_fixed:
        summary = f"{_('Postponed, date to be fixed')}: {summary}"
    event.add("summary", summary)
    event.add("dtstart", start)
    event.add("dtend", start + MATCH_LENGTH)
    event.add("dtstamp", timezone.now())
    changed = match.schedule_changed_at or match.round.created_at
    event.add("last-modified", changed)
    event.add("sequence", match.schedule_sequence)
    place = ", ".join(p for p in (match.venue_name, match.venue_address) if p)
    if place:
        event.add("location", place)
    url = request.build_absolute_uri(
        reverse("tournaments:match", args=[championship.slug, match.pk])
    )
    lines = [championship.name, title]
    if match.date_to_be_fixed:
        lines.append(_("Postponed, date to be fixed"))
    elif match.is_postponed:
        lines.append(_("Postponed"))
    if match.is_decided:
        lines.append(match.chicos_text)
        if match.places_text:
            lines.append(match.places_text)
    lines.append(url)
    event.add("description", "\n".join(lines))
    event.add("url", url)
    event.add("status", "TENTATIVE" if match.date_to_be_fixed else "CONFIRMED")
    return event


def calendar(request: HttpRequest, championship: Championship, team: Team | None) -> bytes:
    """The feed of ``championship`` (or of ``team`` in it) as bytes."""
    host = request.get_host().split(":")[0] or "tanteo"
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Tanteo//Fixtures//EN")
    cal.add("version", "2.0")
    name = championship.name if team is None else f"{team.name} · {championship.name}"
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", championship.time_zone)
    for match in fixture_selectors.feed_matches(championship=championship, team=team):
        if (event := _event(request, match, host)) is not None:
            cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()


def _answer(request: HttpRequest, body: bytes, filename: str) -> HttpResponse:
    # DTSTAMP changes every time: the ETag leaves it out, so an unchanged feed is a 304.
    stable = b"\n".join(line for line in body.splitlines() if not line.startswith(b"DTSTAMP"))
    etag = '"' + hashlib.sha256(stable).hexdigest()[:32] + '"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type=CONTENT_TYPE)
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={getattr(settings, 'CALENDAR_MAX_AGE', 300)}"
    return response


def championship_feed(request: HttpRequest, slug: str) -> HttpResponse:
    """Every fixture of the championship with a date and time."""
    found = _championship(slug)
    return _answer(request, calendar(request, found, None), f"{found.slug}.ics")


def team_feed(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    """A team's fixtures."""
    found = _championship(slug)
    team = found.teams.playing().filter(pk=team_id).first()
    if team is None:
        raise Http404("No such team.")
    return _answer(request, calendar(request, found, team), f"{found.slug}-{team.pk}.ics")
