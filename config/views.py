"""Site-level views that belong to no single audience."""

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language, ngettext
from django.views import defaults
from django.views.decorators.http import require_http_methods

from api import errors
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
        referee_selectors.matches_for_referee(user=user)
    ):
        return redirect("referees:matches")
    return redirect("organiser:dashboard")


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The page of a login refused by django-axes (``AXES_LOCKOUT_CALLABLE``): 429; on
    the API (``/api/v1/auth/token/``), its error in the API's shape."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    if request.path.startswith("/api/"):
        message = ngettext(
            "Too many failed attempts: try again in %(minutes)s minute.",
            "Too many failed attempts: try again in %(minutes)s minutes.",
            minutes,
        ) % {"minutes": minutes}
        response = JsonResponse(errors.body("login_locked", message), status=429)
        response["Retry-After"] = str(minutes * 60)
        return response
    return render(
        request,
        "registration/locked_out.html",
        {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes},
        status=429,
    )


def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for by themselves: the site's icon (a 404 on
    every page's first visit otherwise). Permanent: browsers keep the answer."""
    return HttpResponsePermanentRedirect(static("tablet/icon-192.png"))


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400, except for a form too large (too many bytes or fields): the 413 page."""
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent):
        return too_large(request)
    return defaults.bad_request(request, exception)


@require_http_methods(["GET", "POST"])
def set_language(request: HttpRequest) -> HttpResponse:
    """Remember the reader's language (a cookie) and go back to ``next``.

    Django's ``set_language`` takes only a POST, so a page offering it needs a form with a
    CSRF token, which a page cached for every reader cannot carry. This one also takes the
    plain links of the language switch (``?language=ca&next=/c/copa/``). Choosing a
    language changes nothing but the reader's own pages, so a link from elsewhere does no
    harm. ``next`` is followed only to this site, else the home page.
    """
    data = request.POST if request.method == "POST" else request.GET
    next_url = data.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    language = data.get("language", "")
    if language and check_for_language(language) and language in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
