"""The site, plus the baseline of bench/pages.py: the same public views under Django's
``cache_page`` at ``/cache_page/...`` (cached for an hour, whatever is saved meanwhile)."""

from django.urls import include, path
from django.views.decorators.cache import cache_page

from config.urls import handler400  # noqa: F401  (handler400: the site's)
from config.urls import urlpatterns as site
from tournaments.web.public import championships as public
from tournaments.web.public import matches

baseline = cache_page(3600)

urlpatterns = [
    path(
        "cache_page/c/<slug:slug>/stages/<int:stage_id>/standings/",
        baseline(public.standings.uncached),
    ),
    path("cache_page/c/<slug:slug>/matches/<int:match_id>/", baseline(matches.match.uncached)),
    path("", include(site)),
]
