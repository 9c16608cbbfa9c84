"""Middleware that belongs to no app."""

from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse

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
