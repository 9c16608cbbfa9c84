"""The proxy's rules for the published public pages (``manage.py proxy_config``): nginx
serves a page's file only to a request Django would answer with that very file, and
sends every other request to Django.

A request gets a file when it is a GET or HEAD without a query string, from a reader
without a session or a waiting message (an anonymous reader, as ``pagecache`` serves
from the cache), in a language the proxy can tell exactly as Django would choose it
(``django.utils.translation.get_language_from_request``):

- the language cookie naming a language of the site (exactly: Django reads anything else
  its own way, so the proxy leaves it to Django), or, without that cookie,
- no ``Accept-Language`` at all (the site's ``LANGUAGE_CODE``), or an ``Accept-Language``
  that Django's grammar reads whole, whose first range is one of the site's languages
  (or a variant of one: ``es-AR``) at the highest quality: Django sorts the ranges by
  quality, keeping their order, so it picks that one.

Anything else (a ``*`` first, a header Django would find malformed, over its 500
characters, a language cookie twice) is Django's to decide. The headers a file is sent
with are those Django sends with the same page, read from its answer to ``/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage

# Spaces as Django's parser allows them, but ASCII only: Python's \s also matches other
# characters, so a header the proxy reads is read the same way by Django, not the reverse.
_SPACE = "[ \\t]*"
# Case-sensitive where Django lowercases: "es-AR" is read, "ES" is left to Django, so the
# language the proxy captures is always one of the site's codes as written.
_SUBTAGS = "(?:-[a-zA-Z0-9]{1,8})*"
_QUALITY_ONE = f"(?:{_SPACE};{_SPACE}q=1(?:\\.0{{0,3}})?)?"
_QUALITY = f"(?:{_SPACE};{_SPACE}q=(?:0(?:\\.[0-9]{{0,3}})?|1(?:\\.0{{0,3}})?))?"
_RANGE = f"(?:[a-zA-Z]{{1,8}}{_SUBTAGS}|\\*)"
# Django reads at most this much of the header (LANGUAGE_CODE_MAX_LENGTH).
_MAX_HEADER = 500
# A page's own headers, or the proxy's: not copied from Django's answer.
_OWN_HEADERS = {
    "content-language",
    "content-length",
    "content-type",
    "date",
    "etag",
    "expires",
    "last-modified",
    "server",
    "set-cookie",
}


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def accept_language_pattern() -> str:
    """The ``Accept-Language`` values the proxy reads, the language captured as
    ``tanteo_accepted``."""
    codes = "|".join(languages())
    return (
        f"^(?=.{{0,{_MAX_HEADER}}}$)(?P<tanteo_accepted>{codes}){_SUBTAGS}{_QUALITY_ONE}"
        f"(?:{_SPACE},{_SPACE}{_RANGE}{_QUALITY})*(?:{_SPACE},{_SPACE})?$"
    )


def cookie_patterns() -> list[tuple[str, str]]:
    """The language cookie as the proxy reads it from the ``Cookie`` header, in order (the
    first that matches decides): the cookie twice (Django keeps the last, the proxy cannot
    tell which), a site's language (``tanteo_cookie``), any other value or spelling."""
    name = re.escape(settings.LANGUAGE_COOKIE_NAME)
    codes = "|".join(languages())
    return [
        (f"~*(^|;){_SPACE}{name}=.*;{_SPACE}{name}=", '""'),
        (f"~(^|;){_SPACE}{name}={_SPACE}(?P<tanteo_cookie>{codes}){_SPACE}(;|$)", "$tanteo_cookie"),
        (f"~*{name}", '""'),
    ]


def _quoted(value: str) -> str:
    if any(char in value for char in '"\\$\r\n'):
        raise ValueError(f"a header value nginx cannot carry as is: {value!r}")
    return f'"{value}"'


def page_headers(headers: Mapping[str, str]) -> list[tuple[str, str]]:
    """The headers of Django's answer a published page is sent with."""
    return [(name, value) for name, value in headers.items() if name.lower() not in _OWN_HEADERS]


# The nodes behind the proxy, when there are several.
UPSTREAM_NAME = "tanteo_nodes"
_NODE = re.compile(
    r"^http://(?P<server>[A-Za-z0-9.\-]+:[0-9]{1,5}|\[[0-9A-Fa-f:.]+\]:[0-9]{1,5})/?$"
)


class BadUpstream(ValueError):
    """A node's address the proxy cannot balance on (``http://host:port`` expected)."""


def _nodes(upstreams: Sequence[str]) -> tuple[str, str]:
    """What ``proxy_pass`` names, and the ``upstream`` block it needs (empty for one node,
    passed as given: a URL with a path or https works as before)."""
    if len(upstreams) == 1:
        return upstreams[0], ""
    servers = []
    for upstream in upstreams:
        found = _NODE.match(upstream)
        if found is None:
            raise BadUpstream(upstream)
        servers.append(f"    server {found['server']};")
    block = f"upstream {UPSTREAM_NAME} {{\n" + "\n".join(servers) + "\n}\n"
    return f"http://{UPSTREAM_NAME}", block


# What the site is told of the scheme its reader used (``X-Forwarded-Proto``): nginx's own
# (it terminates TLS), or what a TLS proxy in front of it said (the compose file's).
FORWARDED_PROTO = {"scheme": "$scheme", "incoming": "$http_x_forwarded_proto"}


def nginx(
    *,
    pages: str,
    upstreams: Sequence[str],
    headers: Iterable[tuple[str, str]],
    forwarded_proto: str = "scheme",
) -> dict[str, str]:
    """The nginx configuration: ``http``, the maps (for nginx's http block) and
    ``server``, the locations (for the site's server block), serving ``pages``
    (``PUBLISHED_PAGES_DIR``/pages) and proxying the rest to ``upstreams``
    (``http://127.0.0.1:8000``; several nodes, each ``http://host:port``, in turn: every
    node publishes into the same folder, docs/architecture.md), telling them the scheme
    as ``forwarded_proto`` says (``FORWARDED_PROTO``)."""
    upstream, block = _nodes(upstreams)
    cookies = "\n".join(f'    "{pattern}" {value};' for pattern, value in cookie_patterns())
    key = "|".join(
        [
            "$request_method",
            "$args",
            f"$cookie_{settings.SESSION_COOKIE_NAME}",
            f"$cookie_{CookieStorage.cookie_name}",
            "$tanteo_language",
        ]
    )
    codes = "|".join(languages())
    added = "\n".join(
        f"            add_header {name} {_quoted(value)} always;" for name, value in headers
    )
    http = f"""\
{block}map $http_accept_language $tanteo_accept {{
    default "";
    "" {settings.LANGUAGE_CODE};
    "~{accept_language_pattern()}" $tanteo_accepted;
}}
map $http_cookie $tanteo_language {{
    default $tanteo_accept;
{cookies}
}}
map "{key}" $tanteo_page {{
    default "/-/";
    "~^(GET|HEAD)\\|\\|\\|\\|(?P<tanteo_chosen>{codes})$" "/$tanteo_chosen$uri";
}}
"""
    server = f"""\
        location / {{
            root {pages};
            types {{ }}
            default_type "text/html; charset=utf-8";
            try_files ${{tanteo_page}}index.html @tanteo;
            add_header Content-Language $tanteo_language always;
{added}
        }}
        location @tanteo {{
            proxy_pass {upstream};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto {FORWARDED_PROTO[forwarded_proto]};
            proxy_read_timeout 120s;
        }}
"""
    return {"http": http, "server": server}
