"""A link shown once: a referee's invitation just made, a team's personal link just issued.

The server keeps no copy it could show again (an invitation stores only its token's hash;
a team link's token is handed out, not displayed later), so the link reaches the page the
organiser is sent to (POST, redirect, GET) in a signed cookie of that page alone, read
once and then deleted: a reload no longer has it, and a lost link is replaced by a new one.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

SECONDS = 300


def redirect_showing(page: str, *, cookie: str, salt: str, value: dict[str, Any]) -> HttpResponse:
    """A redirect to ``page`` carrying ``value`` for it alone, signed, for a few minutes."""
    response = redirect(page)
    response.set_cookie(
        cookie,
        signing.dumps(value, salt=salt),
        max_age=SECONDS,
        path=page,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Strict",
    )
    return response


def read(request: HttpRequest, *, cookie: str, salt: str) -> dict[str, Any]:
    """What :func:`redirect_showing` left for this page ({} when nothing, or tampered)."""
    try:
        return signing.loads(request.COOKIES.get(cookie, ""), salt=salt, max_age=SECONDS)
    except signing.BadSignature:
        return {}


def forget(request: HttpRequest, response: HttpResponse, *, cookie: str) -> None:
    """Delete the cookie once its page was drawn: shown once."""
    if cookie in request.COOKIES:
        response.delete_cookie(cookie, path=request.path, samesite="Strict")
