"""The public pages' cache: whole pages, keyed by the versions of what they show.

A page's key is its path (with its query), its language and the current versions of its topics
(``tournaments.live.versions``); a write bumps exactly the topics it touches, so a result is
visible on the next request and no other page is rendered again. The same key is the
page's ETag: a browser revalidating (``If-None-Match``) gets ``304`` without the page even
being read from the cache.

Only anonymous readers are served from the cache, and their pages carry no per-visitor
state (no CSRF token, no session read, no cookie set): a logged-in user gets the page
rendered for him. The language comes from the reader's choice (``/i18n/setlang/``, a GET
link) or his browser, as everywhere on the site, and is part of the key.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import io
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIRequest
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments.championships import zones
from tournaments.live import published, versions

logger = logging.getLogger(__name__)

PAGE_PREFIX = "live:page:"
# Long enough to serve a whole championship day; a newer version replaces a page anyway.
PAGE_TIMEOUT = 24 * 3600
# After a result, the readers of a page all miss it at once: one renders it, the others
# wait for it (a page renders in tens of milliseconds) rather than each rendering it.
LOCK = ":rendering"
LOCK_TIMEOUT = 2
WAIT_STEP = 0.01
# Pages kept in each process's memory besides the shared cache (a few MB at most: a match
# page is about 20 KB): every table's page of a 200-table day, and the rest.
RECENT_PAGES = 400
# The same for the parts of pages: the rows of a round of 200 tables and more (about
# 1 KB each), and of the statistics' tables (600 rows for 400 teams, in each language);
# read from the shared cache, they were most of the cost of those pages.
RECENT_PARTS = 4000
# The deployed code is part of every key: a new release never serves a page rendered by
# the old templates (its static file names, its translations).
_CODE_SOURCES = ("templates", "static", "locale", "tournaments", "config")
_CODE_SUFFIXES = {".html", ".py", ".js", ".css", ".mo"}


@functools.cache
def code_version() -> str:
    """A digest of the files that shape a page, computed once per process."""
    digest = hashlib.sha1()
    root = Path(settings.BASE_DIR)
    for source in _CODE_SOURCES:
        for file in sorted((root / source).rglob("*")):
            if file.suffix in _CODE_SUFFIXES and file.is_file():
                digest.update(str(file.relative_to(root)).encode())
                digest.update(file.read_bytes())
    digest.update(str(settings.STATIC_URL).encode())
    return digest.hexdigest()[:12]


def _anonymous(request: HttpRequest) -> bool:
    """Whether the reader is anonymous, without reading the session when there is none.

    Reading it would make the response vary on the cookie (and cost a query).
    """
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        request.user = AnonymousUser()
        return True
    return not request.user.is_authenticated


def _etag(request: HttpRequest, topics: list[str]) -> tuple[str, dict[str, int]]:
    """The page's key, and the versions of its topics it was made from."""
    # The query string too: one page may have views (the board and its TV mode, ?tv=1).
    parts = [code_version(), request.get_full_path(), get_language() or ""]
    found = dict(zip(topics, versions.versions(topics), strict=True))
    parts += [f"{topic}={version}" for topic, version in found.items()]
    return hashlib.sha1("\n".join(parts).encode()).hexdigest(), found


def _matches(request: HttpRequest, etag: str) -> bool:
    given = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == f'"{etag}"' for tag in given.split(","))


def _mark(response: HttpResponse, etag: str | None) -> HttpResponse:
    if etag is not None:
        response["ETag"] = f'"{etag}"'
        # Kept by browsers, but asked again each time: a result shows on the next visit.
        patch_cache_control(response, public=True, no_cache=True)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response


class _Recent:
    """The pages this process served last, by key: a key names one version of a page,
    whose content never changes, so a copy in memory is as exact as the shared cache and
    saves it a round trip on the busiest pages."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pages: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Any:
        return self.get_many([key]).get(key)

    def get_many(self, keys: Sequence[str]) -> dict[str, Any]:
        found = {}
        with self.lock:
            for key in keys:
                content = self.pages.get(key)
                if content is not None:
                    self.pages.move_to_end(key)
                    found[key] = content
        return found

    def put(self, key: str, content: Any) -> None:
        self.put_many({key: content})

    def put_many(self, contents: dict[str, Any]) -> None:
        with self.lock:
            for key, content in contents.items():
                self.pages[key] = content
                self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.pages.clear()


_recent = _Recent(RECENT_PAGES)
_recent_parts = _Recent(RECENT_PARTS)


def _rendered_meanwhile(key: str) -> bytes | None:
    """The page another request is rendering, once stored; ``None`` if it gave up (a 404,
    an error) or took too long: the caller renders it then."""
    deadline = time.monotonic() + LOCK_TIMEOUT
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        found = cache.get_many([key, key + LOCK])
        if key in found:
            return found[key]
        if key + LOCK not in found:
            return None
    return None


FRAGMENT_PREFIX = "live:fragment:"


# The versions of the topics the page being rendered follows, as its key read them: its
# parts need not read them again (a round trip each), and show the same moment.
_page_versions: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "page_versions", default=None
)


def _part_keys(name: str, wanted: dict[Any, list[str]]) -> dict[Any, str]:
    """The cache key of each part: the code, the language, the part and the current
    versions of its topics, so a part is never older than what it shows."""
    names = list(dict.fromkeys(topic for found in wanted.values() for topic in found))
    current = dict(_page_versions.get() or {})
    unknown = [topic for topic in names if topic not in current]
    if unknown:
        current.update(zip(unknown, versions.versions(unknown), strict=True))
    prefix = f"{code_version()}\n{get_language() or ''}\n{name}\n"
    return {
        pk: FRAGMENT_PREFIX
        + hashlib.sha1(
            (prefix + f"{pk}\n" + "\n".join(f"{t}={current[t]}" for t in found)).encode()
        ).hexdigest()
        for pk, found in wanted.items()
    }


def _cached_part_keys(name: str, wanted: dict[Any, list[str]]) -> dict[Any, str] | None:
    """The parts' keys (:func:`_part_keys`), or None when parts are not cached: the page
    cache off, or the versions unknown (the cache unreachable: rendered each time)."""
    if not settings.PAGE_CACHE:
        return None
    try:
        return _part_keys(name, wanted)
    except versions.Unavailable:
        return None


def fragments(
    name: str,
    ids: Sequence[int],
    topics: Callable[[int], list[str]],
    render: Callable[[list[int]], dict[int, str]],
) -> list[str]:
    """The parts of a page, one per id in order, each from the cache when the versions of
    its topics are unchanged: after a hand, a round of 200 tables renders one row again.
    With ``PAGE_CACHE`` off, as the pages, every part is rendered each time.

    ``topics(id)`` names what the part shows (as a page's topics do); ``render(ids)``
    renders the parts missing, as HTML, in one go.
    """
    keys = _cached_part_keys(name, {pk: topics(pk) for pk in ids})
    if keys is None:
        rendered = render(list(ids))
        return [mark_safe(rendered[pk]) for pk in ids if pk in rendered]
    return _kept(ids, keys, render)


def _kept(
    ids: Sequence[Any], keys: dict[Any, str], render: Callable[[list[Any]], dict[Any, str]]
) -> list[str]:
    """The parts of ``ids`` under their ``keys``: from this process's memory, else the
    shared cache, else rendered (the missing ones in one go) and kept in both."""
    stored = _recent_parts.get_many(list(keys.values()))
    elsewhere = list(dict.fromkeys(key for key in keys.values() if key not in stored))
    shared = cache.get_many(elsewhere) if elsewhere else {}
    stored.update(shared)
    missing = [pk for pk in ids if keys[pk] not in stored]
    if missing:
        # An id gone meanwhile (a round removed as the page renders) has no part: left out.
        rendered = {keys[pk]: html for pk, html in render(missing).items() if pk in keys}
        cache.set_many(rendered, PAGE_TIMEOUT)
        stored.update(rendered)
        shared.update(rendered)
    _recent_parts.put_many(shared)
    # Rendered here by our own templates (escaped there), then kept as they were.
    return [mark_safe(stored[keys[pk]]) for pk in ids if keys[pk] in stored]


def by_content(
    name: str, contents: Sequence[str], render: Callable[[list[int]], dict[int, str]]
) -> list[str]:
    """The parts of a page kept by what they show, one per item of ``contents``, each the
    whole of what its part shows as text (its values, its names, its links' keys): a part
    is rendered only when none with the same content was, in the reader's language.

    For the rows of a big table that changes a few rows at a time and follows no topic of
    its own (the statistics' 600 rows: a hand changes those of two teams and their
    players, and the page was most of a save's renewal). ``render(indexes)`` renders the
    parts missing, as HTML, by their index in ``contents``.
    """
    if not settings.PAGE_CACHE:
        rendered = render(list(range(len(contents))))
        return [mark_safe(rendered[index]) for index in range(len(contents))]
    prefix = f"{code_version()}\n{get_language() or ''}\n{name}\n"
    keys = {
        index: FRAGMENT_PREFIX + hashlib.sha1((prefix + content).encode()).hexdigest()
        for index, content in enumerate(contents)
    }
    return _kept(range(len(contents)), keys, render)


def part(name: str, pk: int | str, topics: list[str], build: Callable[[], Any]) -> Any:
    """One part of a page (any value the cache can keep), built only when one of its
    topics changed: a tap at a table renders the hand in progress, not the match's
    hands again."""
    keys = _cached_part_keys(name, {pk: topics})
    if keys is None:
        return build()
    key = keys[pk]
    found = _recent_parts.get(key)
    if found is not None:
        return found
    found = cache.get(key)
    if found is None:
        found = build()
        cache.set(key, found, PAGE_TIMEOUT)
    _recent_parts.put(key, found)
    return found


def _publish(
    request: HttpRequest,
    topics: list[str],
    known: dict[str, int],
    content: bytes,
    *,
    missing_only: bool = False,
) -> bool:
    """Write the page rendered for ``known`` versions of its topics where the proxy serves
    it (``tournaments.live.published``), unless one of them changed meanwhile; with
    ``missing_only`` (a page from the cache), only where no file is. True when this
    version of the page is in place."""
    if not published.enabled():
        return False
    relative = published.page_path(request)
    if relative is None or (missing_only and published.exists(relative)):
        return False
    rendered_from = [known[topic] for topic in topics]
    placed = False
    try:
        published.register(relative, topics, code_version())
        # Already changed: not put in place at all, so that a write renewing the page
        # keeps the old file for its readers while it renders the page again.
        if versions.versions(topics) != rendered_from:
            return False
        published.place(relative, content)
        placed = True
        # After the file is in place: a bump before this read is seen here, one after it
        # finds the registration and withdraws the file itself.
        if versions.versions(topics) != rendered_from:
            published.remove(relative)
            return False
    except versions.Unavailable:
        # The cache went away meanwhile: a write now could not withdraw the file.
        if placed:
            published.remove(relative)
        return False
    except OSError:
        # Unpublished, the page is still served, by Django, from the cache.
        logger.exception("published: could not publish %s", relative)
        return False
    return True


# The pages a write withdrew are rendered again by the writer (``renewing.republish``), at
# most this many (the rest are removed, for their next reader to render): until a busy
# page is back in place, every reader of it would reach Django, queued behind the day's
# writes.
REPUBLISH_MAX = 12
# On a busy day a round changes several times a second: its renderer may have to start
# again once or twice before its page is current when put in place.
RENEW_ATTEMPTS = 3
# Set while a write renders its pages again: a page found in the cache replaces the file.
_renewing: contextvars.ContextVar[bool] = contextvars.ContextVar("renewing", default=False)


def _reader_request(path: str) -> HttpRequest:
    """A GET of ``path`` by an anonymous reader with no cookie and no header, as the
    proxy sends one to the site."""
    return WSGIRequest(
        {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "80",
            "wsgi.input": io.BytesIO(),
            "wsgi.url_scheme": "http",
        }
    )


def render_again(relative: str) -> bool:
    """Render the published page at ``relative`` as an anonymous reader in its language
    would, replacing its file: whether it was (not when gone, 404, or failing)."""
    language, _slash, rest = relative.partition("/")
    path = "/" + rest.removesuffix(published.PAGE_FILE)
    try:
        found = resolve(path)
    except Resolver404:
        return False
    if getattr(found.func, "uncached", None) is None:
        return False  # not a public page (published by another release's URLs)
    token = _renewing.set(True)
    try:
        # Again when another write changed the page as it rendered (its versions moved):
        # that write could not renew it, its registration was not made yet.
        for _attempt in range(RENEW_ATTEMPTS):
            request = _reader_request(path)
            # As the locale's and the time zone's middleware would serve it.
            with translation.override(language), zones.activated(found):
                found.func(request, *found.args, **found.kwargs)
            if getattr(request, "published", False):
                return True
    except Http404:
        pass
    except Exception:
        # The write has committed: its readers get the page from Django instead.
        logger.exception("published: could not render %s again", relative)
    finally:
        _renewing.reset(token)
    return False


def public_page(topics: Callable[..., list[str]]) -> Callable:
    """Serve the decorated view from the cache; ``topics(**kwargs)`` names what it shows.

    The view's context gets nothing from here; its template reads ``request.live_topics``
    (the topics the page follows, for ``static/js/live.js``) and
    ``request.live_rendered_at`` (its "last updated").
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            names = topics(**kwargs)
            request.live_topics = " ".join(names)
            request.live_rendered_at = timezone.now()
            cacheable = (
                settings.PAGE_CACHE
                and request.method in ("GET", "HEAD")
                and _anonymous(request)
                # A message waiting (after a log-out, say) is this reader's alone.
                and CookieStorage.cookie_name not in request.COOKIES
            )
            if not cacheable:
                _anonymous(request)  # an anonymous reader's session is not read either way
                return _mark(view(request, *args, **kwargs), None)
            try:
                etag, known = _etag(request, names)
            except versions.Unavailable:
                # The cache is unreachable: rendered from the database, kept nowhere.
                return _mark(view(request, *args, **kwargs), None)
            if _matches(request, etag):
                return _mark(HttpResponseNotModified(), etag)
            key = PAGE_PREFIX + etag
            content = _recent.get(key)
            locked = False
            if content is None:
                content = cache.get(key)
                if content is None:
                    locked = cache.add(key + LOCK, 1, LOCK_TIMEOUT)
                    if not locked:
                        content = _rendered_meanwhile(key)
                if content is not None:
                    _recent.put(key, content)
            if content is not None:
                # A reader the proxy sent here though the page is cached: its file was
                # withdrawn by a write that raced its rendering, or the proxy leaves this
                # reader's language to Django.
                request.published = _publish(
                    request, names, known, content, missing_only=not _renewing.get()
                )
                return _mark(HttpResponse(content), etag)
            token = _page_versions.set(known)
            try:
                response = view(request, *args, **kwargs)
                if response.status_code != 200 or response.streaming:
                    return response
                if hasattr(response, "render"):
                    response.render()
                cache.set(key, response.content, PAGE_TIMEOUT)
                _recent.put(key, response.content)
                request.published = _publish(request, names, known, response.content)
            finally:
                _page_versions.reset(token)
                if locked:
                    cache.delete(key + LOCK)
            return _mark(response, etag)

        wrapper.uncached = view  # the bench's baseline wraps the bare view in cache_page
        wrapper.page_topics = topics  # which pages a renewal puts back first (renewing)
        return wrapper

    return decorate
