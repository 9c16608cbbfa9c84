"""What the public pages follow: topics, their versions in the cache, and the broadcast.

A *topic* names a part of the public data; a page depends on a few of them (its URL
alone says which: :func:`page_topics`) and is cached under their current versions
(``tournaments.web.pagecache``). When a write announces a change
(``tournaments.signals.changed``, sent on commit), :func:`on_changed` bumps the versions
of exactly the topics it touches, so the next request renders those pages again and no
other, then tells the open pages of those topics through the channel layer
(``tournaments.web.consumers``), which refetch themselves. A write made in a request does
that telling, and the renewal of the published pages (``published``), once its answer is
sent (:func:`request_finished`).

Topics (``slug`` is the championship's, the pages' URLs carry it):

- ``site``: the list of championships (the home page); every page also depends on it,
  so that a championship renamed, re-slugged or deleted is never served from the cache.
- ``c.<slug>``: anything in the championship (its page, the board).
- ``cm.<slug>``: its structure: the championship, teams, stages, rounds, brackets.
- ``r.<slug>``: its decided results (the standings, each stage's current round): a
  hand that decides nothing leaves the pages that show only these alone.
- ``s.<stage id>``: the results of a stage (its rounds and bracket, every hand).
- ``m.<match id>``: one match (its page): its hands, result, teams and table.
- ``d.<match id>``: the hand in progress at its table (the tablet's draft, a tap at a
  time): its page renders only that part again, the rest comes from the cache.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Iterable
from typing import Any

from channels.layers import get_channel_layer
from django.core.cache import cache

from tournaments.models import Championship
from tournaments.web import published

logger = logging.getLogger(__name__)

SITE = "site"
VERSION_PREFIX = "live:v:"
# What a topic may look like: the consumer refuses anything else from a browser.
TOPIC = re.compile(r"^(site|(cm?|r)\.[-a-zA-Z0-9_]{1,100}|[smd]\.[0-9]{1,18})$")
MESSAGE_TYPE = "live.changed"


def championship_topic(slug: str) -> str:
    return f"c.{slug}"


def structure_topic(slug: str) -> str:
    return f"cm.{slug}"


def results_topic(slug: str) -> str:
    return f"r.{slug}"


def stage_topic(stage_id: int) -> str:
    return f"s.{stage_id}"


def match_topic(match_id: int) -> str:
    return f"m.{match_id}"


def draft_topic(match_id: int) -> str:
    return f"d.{match_id}"


def stored_match_topics(slug: str, match_id: int) -> list[str]:
    """What a match page shows but its hand in progress (kept as one part between hands).

    >>> stored_match_topics("copa", 12)
    ['site', 'cm.copa', 'm.12']
    """
    return [SITE, structure_topic(slug), match_topic(match_id)]


def page_topics(
    *,
    slug: str | None = None,
    stage_id: int | None = None,
    match_id: int | None = None,
    decided_only: bool = False,
) -> list[str]:
    """The topics a public page depends on, from its URL's arguments alone.

    ``decided_only``: the page shows the championship's decided results and none of its
    hands (the standings, the championship's page), so a hand that decides nothing does
    not renew it.

    >>> page_topics()
    ['site']
    >>> page_topics(slug="copa")
    ['site', 'c.copa']
    >>> page_topics(slug="copa", decided_only=True)
    ['site', 'cm.copa', 'r.copa']
    >>> page_topics(slug="copa", stage_id=3)
    ['site', 'cm.copa', 's.3']
    >>> page_topics(slug="copa", match_id=12)
    ['site', 'cm.copa', 'm.12', 'd.12']
    """
    if slug is None:
        return [SITE]
    if decided_only:
        return [SITE, structure_topic(slug), results_topic(slug)]
    if stage_id is not None:
        return [SITE, structure_topic(slug), stage_topic(stage_id)]
    if match_id is not None:
        return [*stored_match_topics(slug, match_id), draft_topic(match_id)]
    return [SITE, championship_topic(slug)]


def changed_topics(
    *, slug: str, what: str, stage_id: int | None = None, match_id: int | None = None
) -> list[str]:
    """The topics a change touches: the pages showing it depend on one of them, and no
    other page does.

    >>> changed_topics(slug="copa", what="hand", stage_id=3, match_id=12)
    ['c.copa', 's.3', 'm.12', 'd.12']
    >>> changed_topics(slug="copa", what="result", stage_id=3, match_id=12)
    ['c.copa', 'r.copa', 's.3', 'm.12']
    >>> changed_topics(slug="copa", what="draft", stage_id=3, match_id=12)
    ['c.copa', 'd.12']
    >>> changed_topics(slug="copa", what="round", stage_id=3)
    ['c.copa', 'cm.copa', 's.3']
    >>> changed_topics(slug="copa", what="championship")
    ['c.copa', 'cm.copa', 'site']
    """
    topics = [championship_topic(slug)]
    if what in ("championship", "team", "round"):
        # Names, teams, new rounds and bracket slots show on every page of the championship.
        topics.append(structure_topic(slug))
    if what == "championship":
        topics.append(SITE)
    if what == "result":
        # A match decided, undecided or given another winner: standings, current rounds.
        topics.append(results_topic(slug))
    # The hand in progress shows on its match's page (and the board), not in the standings.
    if stage_id is not None and what != "draft":
        topics.append(stage_topic(stage_id))
    if match_id is not None:
        topics.append(draft_topic(match_id) if what == "draft" else match_topic(match_id))
        if what == "hand":
            # A hand stored empties the hand in progress (``drafts.draft_hand_stored``):
            # one announcement, so its pages are rendered again once, not twice.
            topics.append(draft_topic(match_id))
    return topics


def group_name(topic: str) -> str:
    """The channel layer's group of a topic (group names are ASCII, under 100 characters).

    >>> group_name("m.12")
    'live.m.12'
    >>> len(group_name("cm." + "x" * 100))
    45
    """
    name = f"live.{topic}"
    if len(name) < 90:
        return name
    return "live.h." + hashlib.sha1(topic.encode()).hexdigest()[:38]


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


def _new_versions(topics: list[str]) -> bool:
    """Bump the versions of ``topics``: False when the cache is unreachable."""
    if hasattr(cache, "incr_or_set_many"):  # Redis (config/cache.py): one round trip
        return cache.incr_or_set_many([VERSION_PREFIX + topic for topic in topics], _fresh())
    for topic in topics:
        key = VERSION_PREFIX + topic
        try:
            cache.incr(key)
        except ValueError:  # never read yet, or evicted: any new value will do
            cache.set(key, _fresh(), timeout=None)
    return True


def bump(topics: Iterable[str]) -> published.Renewal:
    """Give each topic a new version: every page depending on one is rendered anew. Then
    its published files (``published``) are withdrawn: the caller renews them.

    With the cache unreachable the versions stay as they were, and are bumped again (their
    pages renewed, their readers told) once it answers: :class:`_CatchUp`.
    """
    topics = list(topics)
    if not _new_versions(topics):
        _catch_up.add(topics)
    return published.withdraw(topics)


class _CatchUp:
    """The topics changed while the cache was unreachable, bumped again when it is back.

    Its versions may have survived the outage (a network cut): until bumped, the pages
    cached before it would be served again. A thread of the process tries every
    :data:`CATCH_UP_INTERVAL`, so a reader sees the change within about a second of the
    cache's return, whichever process he reaches.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.topics: set[str] = set()
        self.thread: threading.Thread | None = None

    def add(self, topics: Iterable[str]) -> None:
        with self.lock:
            self.topics.update(topics)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="live-catch-up", daemon=True)
                self.thread.start()

    def _run(self) -> None:
        from django.db import connections

        try:
            while True:
                time.sleep(CATCH_UP_INTERVAL)
                with self.lock:
                    topics = sorted(self.topics)
                    if not topics:
                        self.thread = None
                        return
                if not _new_versions(topics):
                    continue
                with self.lock:
                    self.topics.difference_update(topics)
                logger.warning("live: versions of %d topics bumped again", len(topics))
                try:
                    _renew_and_broadcast(published.withdraw(topics), topics, "recovered")
                except Exception:
                    logger.exception("live: renewal of %s after the cache's return", topics)
        finally:
            # Pooled connections of a thread that ends are never handed back otherwise.
            connections.close_all()


_catch_up = _CatchUp()
CATCH_UP_INTERVAL = 0.5


class _Sender:
    """The announcements' event loop: one per process, in a thread of its own.

    A loop made for each announcement (``async_to_sync``) also opened a new connection
    to the channel layer's Redis each time; this one keeps its connection pool, so a tap
    costs one round trip to Redis, not a connection.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.pid = 0

    def run(self, coroutine: Any, timeout: float) -> None:
        with self.lock:
            # A forked worker has the parent's loop object but not its thread.
            if self.loop is None or self.pid != os.getpid() or not self.thread.is_alive():
                self.loop = asyncio.new_event_loop()
                self.thread = threading.Thread(
                    target=self.loop.run_forever, name="live-broadcast", daemon=True
                )
                self.thread.start()
                self.pid = os.getpid()
            loop = self.loop
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        try:
            future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise


_sender = _Sender()
# A layer that does not answer in this time is given up: the write has committed, and
# the pages poll when their socket is gone.
BROADCAST_TIMEOUT = 2.0


def broadcast(topics: Iterable[str], *, what: str) -> None:
    """Tell the pages open on these topics that they changed (they refetch themselves)."""
    layer = get_channel_layer()
    if layer is None:
        return
    _sender.run(_send_all(layer, list(topics), what), BROADCAST_TIMEOUT)


async def _send_all(layer: Any, topics: list[str], what: str) -> None:
    for topic in topics:
        message = {"type": MESSAGE_TYPE, "topic": topic, "what": what}
        await layer.group_send(group_name(topic), message)


def on_changed(
    sender: Any,
    *,
    championship_id: int,
    what: str,
    stage_id: int | None = None,
    match_id: int | None = None,
    slug: str | None = None,
    **kwargs: Any,
) -> None:
    """Receiver of ``tournaments.signals.changed``: bump, then broadcast.

    The versions first: a page refetched on the message must already miss the cache.
    A championship's slug never changes, so the one the sender had at hand is used.
    """
    if slug is None:
        slug = (
            Championship.objects.filter(pk=championship_id)
            .order_by()
            .values_list("slug", flat=True)
            .first()
        )
    topics = [SITE] if slug is None else []
    if slug is not None:
        topics = changed_topics(slug=slug, what=what, stage_id=stage_id, match_id=match_id)
    elif match_id is not None:
        topics.append(match_topic(match_id))
    # The versions at once: the writer's next request, and every reader Django serves,
    # already sees the change.
    renewal = bump(topics)
    pending = getattr(_after_response, "pending", None)
    if pending is not None:
        pending.append((renewal, topics, what))
    else:
        _renew_and_broadcast(renewal, topics, what)


def _renew_and_broadcast(renewal: published.Renewal, topics: list[str], what: str) -> None:
    if renewal.journals:
        # Imported here: pagecache renders pages through this module.
        from tournaments.web.pagecache import republish

        # Before the broadcast: the open pages refetch what the proxy now serves.
        republish(renewal)
    try:
        broadcast(topics, what=what)
    except Exception:
        # The versions are bumped: every page is current on its next request (and the
        # pages poll when their socket is gone). A layer down must not fail the write.
        _broadcast_failures.log(what, topics)


class _Failures:
    """The broadcasts that failed, logged once a minute at most: with the layer's Redis
    down every write fails to broadcast, and a traceback each would flood the log."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.lock = threading.Lock()
        self.last = -every
        self.since = 0

    def log(self, what: str, topics: list[str]) -> None:
        with self.lock:
            self.since += 1
            now = time.monotonic()
            if now - self.last < self.every:
                return
            count, self.since, self.last = self.since, 0, now
        logger.exception(
            "live: broadcast of %s on %s failed (%d failed since the last such line)",
            what,
            topics,
            count,
        )


_broadcast_failures = _Failures(every=60.0)


# What the writes of the request this thread serves left to do: the published pages to
# render again and the broadcasts. They are done once its answer is sent (Django closes
# the response after the server has written it), so the referee's tap or save does not
# wait for pages others read, and the proxy keeps serving the old file meanwhile. A
# write outside a request (a Celery task, a command, a test's thread) does them at once.
_after_response = threading.local()


def _run_after_response() -> None:
    pending = getattr(_after_response, "pending", None)
    _after_response.pending = None
    for renewal, topics, what in pending or ():
        try:
            _renew_and_broadcast(renewal, topics, what)
        except Exception:
            # The write has committed and answered: never raised into the server. The
            # pages left in its journal are removed when it is recovered
            # (``published.RECOVER_AFTER``), and rendered by their next reader then.
            logger.exception("live: renewal of %s on %s failed", what, topics)


def request_started(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``request_started``: the writes of this request renew after its answer."""
    # A request whose answer was never closed (its handler failed before) left its
    # renewals here: done now rather than lost.
    _run_after_response()
    _after_response.pending = []


def request_finished(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``request_finished`` (sent when the answer, written, is closed)."""
    _run_after_response()
