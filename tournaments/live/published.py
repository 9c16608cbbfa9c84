"""Public pages published as files, for the proxy in front of the site to serve without
Python (``PUBLISHED_PAGES_DIR``; off when empty).

A page the cache renders for an anonymous reader (``pagecache``) is also
written to ``<dir>/pages/<language><path>index.html``, and registered under each of its
topics as an empty file ``<dir>/topics/<topic>/<its path>``. A write bumps its topics'
versions and then withdraws them (:func:`withdraw`, called by ``announce.bump``): each topic's
folder is moved to ``<dir>/renewing``, and the write renders every page registered there
again (``pagecache.republish``), replacing its file whole, or deletes it, as soon as it
has answered (``announce.request_finished``). So a file is older than the cache only for the
milliseconds a page takes to render, and readers never wait on Django for a busy page.

The writer's side of that promise (``pagecache``): register the page under its topics,
put the file in place, then read the topics' versions again and delete the file if one
changed since the page was rendered. A bump before that last read is seen by it; a bump
after it withdraws a registration already made.

The proxy's rules (which requests may get a file, in which language, with which
headers) are generated from the settings by ``manage.py proxy_config``, so they choose
as Django chooses; every other request goes to Django (docs/architecture.md).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language

logger = logging.getLogger(__name__)

# The paths published: the public pages' URLs are made of these (slugs are ASCII; no
# segment starts with a dot, so never "." or ".."), and a registration's file name is the
# path with "~" for "/": never anything else on disk.
_PATH = re.compile(r"^/(?:[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}/){0,8}$")
_NAME_MAX = 240
PAGE_FILE = "index.html"
# The deployed code the pages were rendered with: another one clears them (its
# templates, its static file names).
_CODE_FILE = "code"


def enabled() -> bool:
    return bool(settings.PUBLISHED_PAGES_DIR) and settings.PAGE_CACHE


def _root() -> Path:
    return Path(settings.PUBLISHED_PAGES_DIR)


def page_path(request: HttpRequest) -> str | None:
    """Where ``request``'s page is published, relative to the pages folder; None when it
    is not (a query string, a path the proxy would not map to a file, a HEAD)."""
    if request.method != "GET" or request.META.get("QUERY_STRING"):
        return None
    path = request.path
    if not _PATH.match(path):
        return None
    language = get_language()
    if language not in {code for code, _name in settings.LANGUAGES}:
        return None  # a variant Django accepted ("ES"): the proxy never asks for it
    relative = f"{language}{path}{PAGE_FILE}"
    if len(relative) > _NAME_MAX:
        return None
    return relative


def _topic_folder(root: Path, topic: str) -> Path:
    # Topics are ASCII names without "/" (topics.TOPIC).
    return root / "topics" / topic


@functools.cache
def _cleared_for(root: str, code: str) -> bool:
    """Delete the pages another release published (once per process and release)."""
    folder = Path(root)
    marker = folder / _CODE_FILE
    try:
        found = marker.read_text()
    except FileNotFoundError:
        found = None
    if found != code:
        pages = folder / "pages"
        if pages.exists():
            gone = folder / f"pages.gone.{uuid.uuid4().hex}"
            os.rename(pages, gone)
            shutil.rmtree(gone, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        temp = folder / f".{_CODE_FILE}.{uuid.uuid4().hex}"
        temp.write_text(code)
        os.replace(temp, marker)
    return True


def register(relative: str, topics: Iterable[str], code: str) -> None:
    """Record that the page at ``relative`` shows ``topics`` (before it is put in place)."""
    root = _root()
    _cleared_for(str(root), code)
    name = relative.replace("/", "~")
    for topic in topics:
        folder = _topic_folder(root, topic)
        for _attempt in range(3):
            folder.mkdir(parents=True, exist_ok=True)
            try:
                os.close(os.open(folder / name, os.O_CREAT | os.O_WRONLY, 0o644))
                break
            except FileNotFoundError:
                continue  # the folder was withdrawn meanwhile: in a new one


def place(relative: str, content: bytes) -> Path:
    """Put the page in place (whole: readers see the old file or the new one)."""
    target = _root() / "pages" / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{PAGE_FILE}.{os.getpid()}.{threading.get_ident()}")
    temp.write_bytes(content)
    os.replace(temp, target)
    return target


def exists(relative: str) -> bool:
    return (_root() / "pages" / relative).is_file()


def remove(relative: str) -> None:
    (_root() / "pages" / relative).unlink(missing_ok=True)


@dataclass
class Renewal:
    """The pages a write withdrew: each must be rendered again (its file replaced whole,
    so readers keep the old page meanwhile, as if they had come just before the write) or
    removed, and then :meth:`done` called, once the write has answered. Until then the
    registrations are kept in ``<dir>/renewing``: if the process dies meanwhile, the next
    withdrawal after ``RECOVER_AFTER`` seconds removes those pages (:func:`_recover`)."""

    pages: list[str] = field(default_factory=list)
    journals: list[Path] = field(default_factory=list)

    def done(self) -> None:
        for journal in self.journals:
            shutil.rmtree(journal, ignore_errors=True)


# Longer than any write takes to render its pages again, even on a busy day.
RECOVER_AFTER = 60


def _recover(root: Path) -> None:
    """Remove the pages of renewals left unfinished by a process that died."""
    try:
        journals = list(os.scandir(root / "renewing"))
    except FileNotFoundError:
        return
    for journal in journals:
        started, _dash, _rest = journal.name.partition("-")
        if not started.isdigit() or time.time() - int(started) < RECOVER_AFTER:
            continue
        try:
            for entry in os.scandir(journal.path):
                remove(entry.name.replace("~", "/"))
        except FileNotFoundError:
            continue  # recovered by another process
        shutil.rmtree(journal.path, ignore_errors=True)


def withdraw(topics: Iterable[str]) -> Renewal:
    """Take every published page that shows one of ``topics`` (their versions were bumped
    just before) for the writer to render again: see :class:`Renewal`. A failure is
    logged: the write it follows has committed."""
    renewal = Renewal()
    if not enabled():
        return renewal
    root = _root()
    try:
        _recover(root)
        (root / "renewing").mkdir(parents=True, exist_ok=True)
    except OSError:
        logger.exception("published: could not recover the renewals left unfinished")
    for topic in topics:
        journal = root / "renewing" / f"{int(time.time())}-{uuid.uuid4().hex}"
        try:
            os.rename(_topic_folder(root, topic), journal)
        except FileNotFoundError:
            continue  # nothing published shows it
        except OSError:
            logger.exception("published: could not withdraw %s", topic)
            continue
        try:
            renewal.pages += [entry.name.replace("~", "/") for entry in os.scandir(journal)]
        except OSError:
            # Left in place: its pages are removed when it is recovered.
            logger.exception("published: could not read the pages of %s", topic)
            continue
        renewal.journals.append(journal)
    renewal.pages = list(dict.fromkeys(renewal.pages))
    return renewal
