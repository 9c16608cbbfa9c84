"""The published pages a write withdrew, renewed: at once, or once for the writes of a moment.

A write withdraws the published pages of the topics it touches (``published.withdraw``)
and, once it has answered, renders them again (:func:`republish`). On a busy day a
championship's pages change several times a second: every saved hand withdraws its
statistics, its round, its schedule and its standings, and rendering each of them again
after every write was most of the site's CPU (bench/README.md, "The players' day"),
though no reader can tell a page renewed six times in a second from one renewed once.

So a page is renewed at once by the first write that withdraws it, then at most once every
``PUBLISHED_RENEW_EVERY`` seconds: a write within that moment leaves it to be renewed at
the moment's end, once for every write meanwhile, by a thread of one process
(:data:`later`), which then tells the page's open readers again (their first refetch,
on the write's own message, got the file it replaces). A page is never older than the
moment plus its rendering: with the default of one second, current within two.

Every process of every node shares the decision, through the cache: ``live:renewed:<page>``
(added by the render that starts a moment, for its length) and ``live:renewal-due:<page>``
(added by the one process that takes the moment's end). The page's registration, withdrawn
by the write that left it for later, is kept in that write's journal until the page is
renewed (:meth:`published.Renewal.done`): if the process dies meanwhile, the page is
removed when the journal is recovered, and rendered by its next reader.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.cache import cache
from django.urls import Resolver404, resolve

from tournaments.live import pagecache, published

logger = logging.getLogger(__name__)

RENEWED = "live:renewed:"
DUE = "live:renewal-due:"
# The moment's end is taken for this long past the moment: a process too busy to renew
# the page by then leaves it to the next write (which renews it at once, or takes it).
DUE_SLACK = 2


@functools.lru_cache(maxsize=4096)  # a path's answer holds while the process runs
def page_topics(relative: str) -> tuple[str, ...] | None:
    """The topics of the published page at ``relative``, as its view names them; None when
    no public page of this release is there."""
    _language, _slash, rest = relative.partition("/")
    try:
        found = resolve("/" + rest.removesuffix(published.PAGE_FILE))
    except Resolver404:
        return None
    topics = getattr(found.func, "page_topics", None)
    return None if topics is None else tuple(topics(**found.kwargs))


def _one_readers(relative: str) -> bool:
    """Whether the published page at ``relative`` is one team's or one person's (a topic
    of its own, ``t.`` or ``p.``), read by few, rather than one the whole hall reads."""
    topics = page_topics(relative)
    return topics is None or any(topic.startswith(("t.", "p.")) for topic in topics)


NOW, LATER, TAKEN = "now", "later", "taken"


def _when(relative: str, every: int) -> str:
    """When this write renews the page: ``NOW`` (the first of a moment), ``LATER`` (at the
    moment's end, this process), or ``TAKEN`` (another write renews it then).

    A key found neither added nor there is the cache away (``config.cache`` answers every
    call as a miss): the page is renewed at once, as each write did before, rather than
    left to a moment nobody can mark.
    """
    if not every:
        return NOW
    try:
        if cache.add(RENEWED + relative, 1, every) or cache.get(RENEWED + relative) is None:
            return NOW
        if cache.add(DUE + relative, 1, every + DUE_SLACK):
            return LATER
        return TAKEN if cache.get(DUE + relative) is not None else NOW
    except Exception:
        logger.warning("published: no cache to coalesce the renewal of %s", relative)
        return NOW


def republish(renewal: published.Renewal, topics: Iterable[str] = ()) -> None:
    """Renew the pages a write withdrew (``published.withdraw``), its ``topics`` bumped:
    each rendered again, or removed, or left to the end of its moment (module docstring).

    The pages the hall reads come first: a result withdraws every team's page of its
    championship (each shows its standing), hundreds on a big day, and the championship's
    page and standings must not be among those removed past ``REPUBLISH_MAX``, for then
    every one of their readers reaches Django until one of them is served.
    """
    every = settings.PUBLISHED_RENEW_EVERY
    changed = set(topics)
    deferred: dict[str, set[str]] = {}
    pages = sorted(renewal.pages, key=_one_readers)
    for index, relative in enumerate(pages):
        when = _when(relative, every) if index < pagecache.REPUBLISH_MAX else None
        if when == LATER:
            deferred[relative] = changed.intersection(page_topics(relative) or ())
        elif when is None or (when == NOW and not pagecache.render_again(relative)):
            published.remove(relative)
        # TAKEN: another write renews the page at the moment's end, with this write in it
        # (it reads the versions when it renders).
    if deferred:
        later.add(deferred, renewal, every)
    else:
        renewal.done()


class _Later:
    """The pages this process renews at the end of their moments, in a thread of its own."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.due: dict[str, float] = {}
        self.topics: dict[str, set[str]] = {}
        # Each journal is finished once every page it left here is renewed.
        self.renewals: list[tuple[float, published.Renewal]] = []
        self.thread: threading.Thread | None = None
        self.pid = 0
        self.renewing = 0  # batches taken and not yet renewed
        # Who tells the open pages (``announce.broadcast``), set by ``announce``.
        self.tell: Callable[[list[str]], None] = lambda topics: None

    def add(self, pages: dict[str, set[str]], renewal: published.Renewal, every: int) -> None:
        when = time.monotonic() + every
        with self.condition:
            for relative, topics in pages.items():
                self.due.setdefault(relative, when)
                self.topics.setdefault(relative, set()).update(topics)
            self.renewals.append((max(self.due[relative] for relative in pages), renewal))
            # A forked server process has the parent's object but not its thread.
            if self.thread is None or self.pid != os.getpid() or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="live-renew", daemon=True)
                self.pid = os.getpid()
                self.thread.start()
            self.condition.notify_all()

    def _take(self, *, wait: bool) -> tuple[list[str], set[str], list[published.Renewal]]:
        """The pages due now, the topics to tell, the journals finished with them."""
        with self.condition:
            while True:
                now = time.monotonic()
                first = min(self.due.values(), default=None)
                if not wait or (first is not None and first <= now):
                    break
                self.condition.wait(None if first is None else first - now)
            pages = [page for page, when in self.due.items() if not wait or when <= now]
            topics: set[str] = set()
            for page in pages:
                del self.due[page]
                topics |= self.topics.pop(page)
            finished = [renewal for when, renewal in self.renewals if not wait or when <= now]
            self.renewals = [item for item in self.renewals if wait and item[0] > now]
            self.renewing += 1
        return pages, topics, finished

    def settled(self, timeout: float) -> bool:
        """Wait until every page left here is renewed (or ``timeout`` seconds): whether it is."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while self.due or self.renewing:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.condition.wait(left)
        return True

    def _run(self) -> None:
        from django.db import connections

        while True:
            try:
                self.renew(*self._take(wait=True))
            finally:
                # Pooled connections of a thread are never handed back otherwise.
                connections.close_all()

    def now(self) -> None:
        """Renew every page left here at once (tests; a process about to stop)."""
        self.renew(*self._take(wait=False))

    def renew(self, pages: list[str], topics: set[str], finished: list[published.Renewal]) -> None:
        every = settings.PUBLISHED_RENEW_EVERY
        failed = False
        try:
            for relative in sorted(pages, key=_one_readers):
                # The moment's end taken back first: a write after the page is registered
                # again leaves it to the next moment's end, whoever takes it.
                try:
                    cache.delete(DUE + relative)
                    if every:
                        cache.set(RENEWED + relative, 1, every)
                except Exception:
                    logger.warning("published: no cache to coalesce the renewal of %s", relative)
                if not pagecache.render_again(relative):
                    published.remove(relative)
            if topics:
                # Their readers refetched on the write's message and got the old file.
                self.tell(sorted(topics))
        except Exception:
            # Never raised into the thread. The journals are kept: recovered a minute later
            # (``published.RECOVER_AFTER``), their pages are removed, and rendered by their
            # next readers.
            failed = True
            logger.exception("published: renewal of %d pages at their moment's end", len(pages))
        finally:
            for renewal in [] if failed else finished:
                renewal.done()
            with self.condition:
                self.renewing -= 1
                self.condition.notify_all()


later = _Later()
