"""The live public pages: cached by what they show, current within two seconds, published
for the proxy, told by a socket when they change.

**What it promises.**

1. *A reader sees a change within 2 s.* A page served from the cache is never older than
   the last write that committed before it was asked for; a page open in a browser
   refetches itself within a second or two of a write that touches it (its socket, or
   polling every 5 s when its socket is gone, then a refresh as the socket reopens).
2. *A published file is byte for byte the page Django would serve* to the same anonymous
   reader in the same language at that moment, or absent: the proxy then asks Django.
3. *Nothing here fails a write*: the cache or the channel layer down leaves the write
   stored and answered; the pages catch up when they return.

**How it keeps it.**

- ``topics``: what a page shows and what a write touches, as short names derived from
  URLs and from the write alone (no query).
- ``versions``: a version per topic in the cache; a page's key is made of its topics'
  versions (and the code, the path, the language), so a bump makes exactly the pages
  showing the change miss. Versions are never made up: the cache unreachable, the pages
  are rendered from the database, uncached and unpublished.
- ``pagecache``: the ``public_page`` decorator (whole pages, ETags, one renderer per page
  after a change), ``fragments`` and ``part`` (parts of pages by their own topics),
  ``by_content`` (parts kept by what they show: a big table's rows), and the rendering
  of published files again (as an anonymous reader, checked against the versions before
  and after it is put in place).
- ``renewing``: which pages a write renders again at once, and which once at the end of
  a moment, for all its writes (``PUBLISHED_RENEW_EVERY``).
- ``published``: the files for nginx (``PUBLISHED_PAGES_DIR``), registered under their
  topics, withdrawn by a bump, renewed or deleted.
- ``announce``: the receiver of ``tournaments.signals.changed`` (sent on commit): bump,
  withdraw, then, once the request's answer is sent, renew and broadcast; topics changed
  while the cache was away are bumped again when it answers.
- ``consumers``: the socket (``/ws/live/?topics=...``), read-only.

The modules import one way: ``announce`` → ``renewing`` → ``pagecache`` → ``versions``,
``published``, ``topics`` (and ``consumers`` → ``topics``); an import-linter contract
keeps it so.
Pages and services use this front door only: services announce through
``tournaments.signals.announce`` and never import this package.
"""

from __future__ import annotations

from tournaments.live.pagecache import by_content, code_version, fragments, part, public_page
from tournaments.live.topics import (
    PEOPLE,
    RATINGS,
    SITE,
    championship_topic,
    changed_topics,
    circuit_topic,
    draft_topic,
    match_topic,
    page_topics,
    person_page_topics,
    person_topic,
    results_topic,
    stage_topic,
    stored_match_topics,
    structure_topic,
    team_page_topics,
    team_topic,
)

__all__ = [
    "PEOPLE",
    "RATINGS",
    "SITE",
    "by_content",
    "championship_topic",
    "changed_topics",
    "circuit_topic",
    "code_version",
    "draft_topic",
    "fragments",
    "match_topic",
    "page_topics",
    "part",
    "person_page_topics",
    "person_topic",
    "public_page",
    "results_topic",
    "stage_topic",
    "stored_match_topics",
    "structure_topic",
    "team_page_topics",
    "team_topic",
]
