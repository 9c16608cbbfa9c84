"""The device that holds a match: told apart by a cookie, one device at a time."""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "tanteo_device"
_DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
DEVICE_COOKIE_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie


def _device(request: HttpRequest) -> str:
    """This browser's device id: its cookie, or a new random one (set on the response)."""
    known = request.COOKIES.get(DEVICE_COOKIE, "")
    if _DEVICE_ID.fullmatch(known):
        return known
    if not hasattr(request, "_tanteo_device"):
        request._tanteo_device = secrets.token_urlsafe(18)  # type: ignore[attr-defined]
    return request._tanteo_device  # type: ignore[attr-defined]


def _with_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    device = _device(request)
    if request.COOKIES.get(DEVICE_COOKIE) != device:
        # Readable by the page's script (tabjs syncs through the API with the same id);
        # it names a browser, it grants nothing.
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=DEVICE_COOKIE_AGE,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response
