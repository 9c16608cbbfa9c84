"""Public pages published as files, for the proxy in front of the site to serve without
Python (``PUBLISHED_PAGES_DIR``; off when empty).

A page the cache renders for an anonymous reader (``pagecache``) is also
written to ``<dir>/pages/<language><path>index.html``, and registered under each of its
topics as an empty file ``<dir>/topics/<topic>/<its path>``. A write bumps its topics'
versions and then withdraws them (:func:`withdraw`, called by ``announce.bump``): each topic's
folder is moved to ``<dir>/renewing``, and the write renders every page registered there
again (``renewing.republish``), replacing its file whole, or deletes it, as soon as it
has answered (``announce.request_finished``); a page renewed in the last
``PUBLISHED_RENEW_EVERY`` seconds is renewed at the end of that moment instead, once for
all its writes. So a file is older than the cache only for that moment and the
milliseconds a page takes to render, and readers never wait on Django for a busy page.

The writer's side of that promise (``pagecache``): register the page under its topics,
put the file in place, then read the topics' versions again and delete the file if one
changed since the page was rendered. A bump before that last read is seen by it; a bump
after it withdraws a registration already made.

Every thread of every process of every node shares the folder, and registers and
withdraws one topic's folder at the same moments: a registration is made again until it
is seen at its folder's path (:func:`_enter`), and a topic's folder is made with its first
registration in it (in ``<dir>/making``, then renamed into place), so neither a folder
withdrawn as a page registers nor one being made loses or fails a registration
(tests/tournaments/test_published_races.py).

The proxy's rules (which requests may get a file, in which language, with which
headers) are generated from the settings by ``manage.py proxy_config``, so they choose
as Django chooses; every other request goes to Django (docs/architecture.md).
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import re
import shutil
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
        _enter(_topic_folder(root, topic), name)


# A registration whose folder is withdrawn under it is made again. Each try lost means a
# withdrawal of that topic happened within a few system calls: on a busy day one in
# thousands is tried twice. Past this many, the page is not published (logged).
REGISTER_ATTEMPTS = 100


def _enter(folder: Path, name: str) -> None:
    """Put the registration ``name`` in the topic's ``folder``, which any thread of any
    process (every node shares the folder) may be withdrawing or making meanwhile.

    It returns only once the registration was seen at the folder's path after it was
    made: then every withdrawal from that moment on takes it. A file created in a folder
    looked up just before its withdrawal lands in the journal, maybe after the withdrawal
    listed it (and is deleted with the journal), so it is made again in the new folder.
    A withdrawal before that moment followed a bump the writer sees when it reads the
    versions again (``pagecache``).
    """
    entry = folder / name
    for _attempt in range(REGISTER_ATTEMPTS):
        try:
            os.close(os.open(entry, os.O_CREAT | os.O_WRONLY, 0o644))
        except FileNotFoundError:
            if _make_folder(folder, name):
                return
            continue
        if os.path.lexists(entry):
            return
    raise OSError(errno.EAGAIN, "the topic kept being withdrawn as the page registered", entry)


def _make_folder(folder: Path, name: str) -> bool:
    """Make the topic's ``folder`` with the registration ``name`` already in it, or
    False if another process made one meanwhile (the caller registers in it).

    Made aside and renamed into place whole, a topic's folder never exists empty: a
    withdrawal cannot take it from under the registration it was made for, so each try
    either registers or finds the folder another one made.
    """
    spare = _mkdir(folder.parent.parent / "making" / uuid.uuid4().hex)
    try:
        os.close(os.open(spare / name, os.O_CREAT | os.O_WRONLY, 0o644))
        _mkdir(folder.parent)
        os.rename(spare, folder)
        return True
    except OSError as error:
        if error.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            raise
        return False
    finally:
        shutil.rmtree(spare, ignore_errors=True)


def _mkdir(folder: Path) -> Path:
    """Make ``folder`` and its parents, unless there. Unlike ``Path.mkdir(exist_ok=True)``,
    a folder found there and then renamed away (withdrawn) is no error: the caller's next
    step in it finds it missing and tries again."""
    try:
        os.mkdir(folder)
    except FileExistsError:
        pass
    except FileNotFoundError:
        _mkdir(folder.parent)
        _mkdir(folder)
    return folder


def place(relative: str, content: bytes) -> Path:
    """Put the page in place (whole: readers see the old file or the new one)."""
    target = _root() / "pages" / relative
    # Unique across the nodes sharing the folder, whose process and thread ids may be equal.
    temp = target.with_name(f".{PAGE_FILE}.{uuid.uuid4().hex}")
    attempts = 3
    while True:
        _mkdir(target.parent)
        try:
            temp.write_bytes(content)
            os.replace(temp, target)
            return target
        except FileNotFoundError:
            # Its folder went with the pages of another release (_cleared_for).
            attempts -= 1
            if not attempts:
                raise


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
            _remove_journal(journal)


def _remove_journal(journal: Path) -> None:
    # A registration made in the folder just as it was withdrawn may land in the journal
    # as it is removed (``_enter`` makes it again in the new folder): removed with it, or
    # the journal would be taken for an unfinished renewal later (``_recover``).
    for _attempt in range(10):
        shutil.rmtree(journal, ignore_errors=True)
        if not os.path.lexists(journal):
            return


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
        _remove_journal(Path(journal.path))


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
        _mkdir(root / "renewing")
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
