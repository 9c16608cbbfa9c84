"""The proxy's rules choose the language of a published page as Django does, or leave
the choice to Django: never another language."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.utils import translation
from hypothesis import example, given
from hypothesis import strategies as st

from tournaments.management import proxy


def _proxy_language(accept: str, cookie: str) -> str | None:
    """The language the generated nginx maps choose (None: Django is asked), read with
    the same patterns in the same order."""
    for pattern, value in proxy.cookie_patterns():
        flags = re.ASCII | (re.IGNORECASE if pattern.startswith("~*") else 0)
        found = re.search(pattern.removeprefix("~*").removeprefix("~"), cookie, flags)
        if found:
            return found["tanteo_cookie"] if value == "$tanteo_cookie" else None
    if not accept:
        return settings.LANGUAGE_CODE
    found = re.search(proxy.accept_language_pattern(), accept, re.ASCII)
    return found["tanteo_accepted"] if found else None


def _django_language(accept: str, cookie: str) -> str:
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE=accept, HTTP_COOKIE=cookie)
    return translation.get_language_from_request(request)


_PIECES = [
    "es", "ca", "en", "es-AR", "en-US", "ca-ES-valencia", "EN", "Es", "de", "fr-CA", "*",
    "zh-Hant-TW", "x" * 9, "es_ES", ";q=0.5", ";q=1", "; q=1.000", ";q=0", ";q=1.5", ";Q=1",
    ",", " , ", ",,", " ", "\t", "@", "-", "en-" + "a" * 9,
]  # fmt: skip
_COOKIES = [
    "", "django_language=en", "django_language=ca", "django_language=", "django_language=EN",
    "django_language=de", "DJANGO_LANGUAGE=ca", "django_language=en; django_language=es",
    "sessionid=x; django_language=ca", "django_language = es ;csrftoken=y",
    'django_language="en"', "django_languages=en", "x=1",
]  # fmt: skip
_HEADER_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@given(
    accept=st.one_of(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join), _HEADER_TEXT),
    cookie=st.one_of(st.sampled_from(_COOKIES), _HEADER_TEXT),
)
@example(accept="es-AR,es;q=0.9,en;q=0.8", cookie="")
@example(accept="en, @@@", cookie="")  # Django finds it malformed: its default
@example(accept="es;q=0.5,en", cookie="")  # Django sorts: English
@example(accept="en," * 200 + "es", cookie="")  # over Django's 500 characters
def test_the_proxy_chooses_a_language_only_as_django_would(accept, cookie):
    chosen = _proxy_language(accept, cookie)
    if chosen is not None:
        assert chosen == _django_language(accept, cookie)


@pytest.mark.parametrize(
    ("accept", "cookie", "language"),
    [
        ("", "", "es"),
        ("es-AR,es;q=0.9,en;q=0.8", "", "es"),
        ("en-US,en;q=0.9", "", "en"),
        ("ca-ES,ca;q=0.9,es;q=0.8,en;q=0.7", "", "ca"),
        ("de-DE,de;q=0.9", "django_language=ca", "ca"),
        ("en", "csrftoken=x; django_language=es", "es"),
    ],
)
def test_the_proxy_serves_what_browsers_send(accept, cookie, language):
    """The rules are not so careful that they never decide: the usual browsers' headers
    and the language chosen on the site get their file."""
    assert _proxy_language(accept, cookie) == language == _django_language(accept, cookie)
