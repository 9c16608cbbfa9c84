"""The versions of the topics, kept in the cache: a page is keyed by those of its topics.

A write bumps the versions of what it touched (:func:`bump`), so every page showing it
misses the cache from then on, and no other page does. With the cache unreachable the
versions are unknown (:class:`Unavailable`) and never made up: the pages are rendered
from the database (``pagecache``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.core.cache import cache

VERSION_PREFIX = "live:v:"


def _fresh() -> int:
    # Never a value a topic had before, even after its key was evicted or the cache flushed.
    return time.time_ns()


class Unavailable(Exception):
    """The versions cannot be known: the cache is unreachable (``config.cache``). A page is
    then rendered from the database, neither cached nor published."""


def versions(topics: Iterable[str]) -> list[int]:
    """The current version of each topic (one cache round trip when all are known).

    Raises :class:`Unavailable` rather than make one up when the cache cannot keep it:
    a page keyed by a made-up version would be served again after the next write.
    """
    topics = list(topics)
    keys = [VERSION_PREFIX + topic for topic in topics]
    found = cache.get_many(keys)
    result = []
    for key in keys:
        value = found.get(key)
        if value is None:
            cache.add(key, _fresh(), timeout=None)
            value = cache.get(key)
            if value is None:
                raise Unavailable(key)
        result.append(value)
    return result


def bump(topics: list[str]) -> bool:
    """Give each topic a new version: every page depending on one is rendered anew.
    False when the cache is unreachable (nothing changed: the caller tries again)."""
    if hasattr(cache, "incr_or_set_many"):  # Redis (config/cache.py): one round trip
        return cache.incr_or_set_many([VERSION_PREFIX + topic for topic in topics], _fresh())
    for topic in topics:
        key = VERSION_PREFIX + topic
        try:
            cache.incr(key)
        except ValueError:  # never read yet, or evicted: any new value will do
            cache.set(key, _fresh(), timeout=None)
    return True
