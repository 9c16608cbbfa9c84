"""Site-level views that belong to no single audience."""

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views import defaults

from config.middleware import too_large
from referees import selectors as referee_selectors


@login_required
def after_login(request: HttpRequest) -> HttpResponse:
    """Send a user who just logged in to the pages of his role.

    A referee with matches to record and nothing to organise goes to his matches; everyone
    else to the organiser's dashboard, where a new user can create a championship.
    """
    user = request.user
    if not referee_selectors.organises_any(user=user) and (
        referee_selectors.matches_for_referee(user=user).exists()
    ):
        return redirect("referees:matches")
    return redirect("organiser:dashboard")


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The page of a login refused by django-axes (``AXES_LOCKOUT_CALLABLE``): 429."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/locked_out.html",
        {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes},
        status=429,
    )


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400, except for a form too large (too many bytes or fields): the 413 page."""
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent):
        return too_large(request)
    return defaults.bad_request(request, exception)
