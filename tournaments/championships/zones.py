"""The time zone a page tells its times in: its championship's, whatever the server's.

A championship is played somewhere (``Championship.time_zone``): its pages, printed
sheets and exports give its matches' days and hours there, and its forms read the days
and hours typed there. Django tells times in the *current* zone, so the one place this is
decided is the current zone of a request: a page about one championship (its public
pages ``c/<slug>/…``, the organiser's ``organiser/<slug>/…``, a referee's match
``referee/matches/<id>/…``) is rendered, and its forms read, with that championship's zone
active (``config.middleware.ChampionshipTimeZoneMiddleware``; the published pages, which
``tournaments.live`` renders again without the middleware, through :func:`activated`).
A list across championships (a referee's matches) tells each row in its own.

The zone is looked up the first time a time is told (:class:`PageZone`): a page served
from the cache tells none, and costs no query for it; and a page whose view reads its
championship (nearly every one) costs none either, the championship read settling it
(:func:`settle`, on ``post_init``, connected in ``TournamentsConfig.ready``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import zoneinfo
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.urls import ResolverMatch
from django.utils import timezone

from tournaments.models import Championship, Match

# The routes of the pages about one championship, by what names it in them.
_BY_SLUG = ("c/<slug:slug>/", "organiser/<slug:slug>/")
_BY_MATCH = ("referee/matches/<int:match_id>/",)


def _zone(name: str | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


class PageZone(dt.tzinfo):
    """A championship's zone, found by ``find`` (its IANA name, None for the site's) the
    first time it is asked for an offset; a stand-in for it everywhere Django takes a
    zone (``timezone.activate``, ``localtime``, ``make_aware``)."""

    def __init__(self, find: Callable[[], str | None], *, slug: str | None = None) -> None:
        self._find = find
        self._slug = slug
        self._found: zoneinfo.ZoneInfo | None = None

    def offer(self, championship: Championship) -> None:
        """Take the zone from ``championship`` (read by the page anyway) when it is the
        page's and the zone is not known yet."""
        if self._found is None and self._slug is not None and championship.slug == self._slug:
            self._found = _zone(championship.time_zone)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        if self._found is None:
            self._found = _zone(self._find())
        return self._found

    def utcoffset(self, when: dt.datetime | None) -> dt.timedelta | None:
        return self.zone.utcoffset(when)

    def dst(self, when: dt.datetime | None) -> dt.timedelta | None:
        return self.zone.dst(when)

    def tzname(self, when: dt.datetime | None) -> str | None:
        return self.zone.tzname(when)

    def fromutc(self, when: dt.datetime) -> dt.datetime:
        # The time told carries the championship's own zone from here on.
        return self.zone.fromutc(when.replace(tzinfo=self.zone))

    def __str__(self) -> str:
        return str(self.zone)

    def __repr__(self) -> str:
        return f"PageZone({self._found!r})"


def _by_slug(slug: str) -> Callable[[], str | None]:
    return lambda: (
        Championship.objects.filter(slug=slug).values_list("time_zone", flat=True).first()
    )


def _by_match(match_id: int) -> Callable[[], str | None]:
    return lambda: (
        Match.objects.filter(pk=match_id)
        .values_list("stage__championship__time_zone", flat=True)
        .first()
    )


def page_zone(found: ResolverMatch | None) -> PageZone | None:
    """The zone of the page ``found`` resolves to: its championship's, None for a page
    about no one championship (the site's zone then)."""
    if found is None:
        return None
    route, kwargs = found.route, found.kwargs
    if route.startswith(_BY_SLUG) and "slug" in kwargs:
        return PageZone(_by_slug(kwargs["slug"]), slug=kwargs["slug"])
    if route.startswith(_BY_MATCH) and "match_id" in kwargs:
        return PageZone(_by_match(kwargs["match_id"]))
    return None


@contextlib.contextmanager
def activated(found: ResolverMatch | None) -> Iterator[None]:
    """The page ``found`` resolves to rendered in its zone (``page_zone``)."""
    zone = page_zone(found)
    if zone is None:
        yield
        return
    with timezone.override(zone):
        yield


def page_championship(championship: Championship) -> Championship:
    """The championship a page's view found (read, or taken from a cache), returned: the
    page's zone, if it is that championship's and still unknown, is taken from it rather
    than looked up again."""
    current = timezone.get_current_timezone()
    if isinstance(current, PageZone) and not {"slug", "time_zone"} & (
        championship.get_deferred_fields()
    ):
        current.offer(championship)
    return championship


def settle(sender: type, instance: Championship, **kwargs: Any) -> None:
    """Every championship read (``post_init``) is offered to the page's zone."""
    page_championship(instance)
