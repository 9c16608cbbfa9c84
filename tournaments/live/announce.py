"""What a write's announcement does: bump, renew the published pages, tell the open ones.

A *topic* names a part of the public data; a page depends on a few of them (its URL
alone says which: ``topics.page_topics``) and is cached under their current versions
(``versions``, ``pagecache``). When a write announces a change
(``tournaments.signals.changed``, sent on commit), :func:`on_changed` bumps the versions
of exactly the topics it touches, so the next request renders those pages again and no
other, then tells the open pages of those topics through the channel layer
(``consumers``), which refetch themselves. A write made in a request does that telling,
and the renewal of the published pages (``published``), once its answer is sent
(:func:`request_finished`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Iterable
from typing import Any

from channels.layers import get_channel_layer

from tournaments.live import published, renewing, versions
from tournaments.live.topics import (
    MATCH_PEOPLE_CHANGES,
    MESSAGE_TYPE,
    SITE,
    changed_topics,
    group_name,
    match_topic,
    person_topic,
    team_topic,
)
from tournaments.models import Championship
from tournaments.people import history as people_history

logger = logging.getLogger(__name__)


def bump(topics: list[str]) -> published.Renewal:
    """Bump the versions of ``topics``, then withdraw their published files
    (``published``): the caller renews them.

    With the cache unreachable the versions stay as they were, and are bumped again (their
    pages renewed, their readers told) once it answers: :class:`_CatchUp`.
    """
    if not versions.bump(topics):
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
                if not versions.bump(topics):
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
    persons: list[int] | None = None,
    **kwargs: Any,
) -> None:
    """Receiver of ``tournaments.signals.changed``: bump, then broadcast.

    The versions first: a page refetched on the message must already miss the cache.
    A championship's slug never changes, so the one the sender had at hand is used.
    """
    # Ratings span championships and a tap touches its match alone: neither needs it.
    by_slug = what not in ("ratings", "draft")
    if slug is None and by_slug:
        slug = (
            Championship.objects.filter(pk=championship_id)
            .order_by()
            .values_list("slug", flat=True)
            .first()
        )
    topics = [SITE] if slug is None else []
    if slug is not None or not by_slug:
        topics = changed_topics(
            slug=slug or "", what=what, stage_id=stage_id, match_id=match_id, persons=persons
        )
    elif match_id is not None:
        topics.append(match_topic(match_id))
    if match_id is not None and what in MATCH_PEOPLE_CHANGES:
        # The pages of its teams and players, which no topic of the championship names
        # (a person's page spans championships): two small queries, for a result or a
        # table given, never for a hand or a tap.
        teams, persons = people_history.match_people(match_id=match_id)
        topics += [team_topic(pk) for pk in teams] + [person_topic(pk) for pk in persons]
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
        # Before the broadcast: the open pages refetch what the proxy now serves (or, for a
        # page left to the end of its moment, are told again then: ``renewing``).
        renewing.republish(renewal, topics)
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


def _tell_renewed(topics: list[str]) -> None:
    """Tell the open pages renewed at the end of their moment (``renewing``)."""
    try:
        broadcast(topics, what="renewed")
    except Exception:
        _broadcast_failures.log("renewed", topics)


renewing.later.tell = _tell_renewed


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
