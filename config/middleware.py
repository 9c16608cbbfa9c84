"""Middleware that belongs to no app."""

from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.response import TemplateResponse
from django.utils import timezone

from tournaments.championships import zones

HEALTH_CHECK_PATH = "/healthz"


class HealthCheckMiddleware:
    """Answer ``/healthz`` before any other middleware runs.

    Container health checks call it over plain HTTP on 127.0.0.1, which the host check and
    the HTTPS redirect of a production configuration would otherwise refuse.
    It answers ``ok`` only when the database answers too.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != HEALTH_CHECK_PATH:
            return self.get_response(request)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return HttpResponse("ok", content_type="text/plain")


# Methods no page of the site answers: TRACE echoes the request (its cookies and headers)
# back, which a page must never do; CONNECT and TRACK are proxies' business.
REFUSED_METHODS = frozenset({"TRACE", "TRACK", "CONNECT"})
ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


class RefusedMethodMiddleware:
    """Answer TRACE, TRACK and CONNECT with 405 before any view sees them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in REFUSED_METHODS:
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        return self.get_response(request)


class RequestBodyLimitMiddleware:
    """Refuse a request whose body is larger than ``REQUEST_MAX_BODY_SIZE``: a 413 page.

    Django limits form fields (``DATA_UPLOAD_MAX_MEMORY_SIZE``) but not uploaded files, which
    it streams to disk whatever their size. The declared length is checked before anything
    reads the body, so an oversized post costs nothing and never reaches a view.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.REQUEST_MAX_BODY_SIZE:
            return too_large(request)
        return self.get_response(request)


class ChampionshipTimeZoneMiddleware:
    """A page about one championship is told, and its forms read, in that championship's
    time zone, not the server's (``tournaments.championships.zones``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view: Callable, args: tuple, kwargs: dict) -> None:
        zone = zones.page_zone(request.resolver_match)
        if zone is not None:
            timezone.activate(zone)


def too_large(request: HttpRequest) -> HttpResponse:
    """The translated page of a request too large to be accepted (413)."""
    response = TemplateResponse(
        request, "413.html", {"limit_mb": settings.REQUEST_MAX_BODY_SIZE / 1_000_000}, status=413
    )
    # The body was not read: the connection must not be reused for a next request.
    response["Connection"] = "close"
    return response.render()


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for login throttling (django-axes' ``AXES_CLIENT_IP_CALLABLE``).

    Behind ``TRUSTED_PROXY_COUNT`` proxies, each appending the address it received from to
    ``X-Forwarded-For``, the client is that many entries from the right; entries further left
    were written by the client and could be forged. Without proxies, the peer's address.
    """
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")
