"""The offline-first tablet's files (``referees.tablet``): the engine, its worker, the
service worker and the manifest.
"""

from __future__ import annotations

import json

from csp.constants import SELF, WASM_UNSAFE_EVAL
from csp.decorators import csp_replace
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from referees import tablet

# -- the offline-first tablet's files (referees.tablet) ---------------------------------
# Public: they hold no data, only code, and the service worker fetches them on install.
# Under /referee/ so the service worker's scope covers the pages and the engine's worker.

# The engine's worker compiles WebAssembly (Pyodide): only its own policy allows that.
WORKER_POLICY = {"script-src": [SELF, WASM_UNSAFE_EVAL], "connect-src": [SELF]}


@require_GET
def engine(request: HttpRequest, digest: str) -> HttpResponse:
    """The ``scoring`` package as a zip, named by its content hash (cached for good)."""
    current, data = tablet.engine_zip()
    if digest != current:
        raise Http404("Not the current engine.")
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_GET
@csp_replace(WORKER_POLICY)
def worker(request: HttpRequest) -> HttpResponse:
    """The Web Worker that runs the engine with Pyodide (templates/referees/worker.js)."""
    response = render(
        request,
        "referees/worker.js",
        {"pyodide": tablet.pyodide_base(), "engine": tablet.engine_url()},
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: keeps the tablet's pages, Pyodide and the engine offline, and
    shows the pushes to a team's phone (registered from the team's page too)."""
    response = render(
        request,
        "referees/sw.js",
        {
            "cache": tablet.cache_name(),
            "precache_json": json.dumps(tablet.cached_urls()),
            "scope": reverse("referees:matches"),
            # The pushes' notifications (a team's phone: tournaments.notices.webpush).
            "icon": static("tablet/icon-192.png"),
        },
        content_type="text/javascript",
    )
    # Checked on every visit, so a new engine or Pyodide reaches the tablets.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the tablet page installs as an app on the home screen."""
    icons = [
        {"src": static("tablet/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("tablet/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("tablet/icon-512.png"), "sizes": "512x512", "type": "image/png"},
    ]
    data = {
        "name": _("Tanteo – referee's tablet"),
        "short_name": "Tanteo",
        "description": _("Record the hands of your matches, even without network."),
        "start_url": reverse("referees:matches"),
        "scope": reverse("referees:matches"),
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f7f5ef",
        "theme_color": "#1f5f4a",
        "icons": icons,
    }
    return JsonResponse(data, content_type="application/manifest+json")
