"""The organiser's use of ratings: his teams seeded by their players' ratings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournaments.championships import selectors as championship_selectors
from tournaments.ratings import services as rating_services


@login_required
def teams_seed_by_rating(request: HttpRequest, slug: str) -> HttpResponse:
    """Seed the championship's teams by rating (``ratings.services.teams_seed_by_rating``)."""
    championship = championship_selectors.championship_for_organiser(user=request.user, slug=slug)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    try:
        ranked = rating_services.teams_seed_by_rating(championship=championship, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Teams seeded by their players' rating: %(first)s is seed 1.")
            % {"first": ranked[0].name}
            if ranked
            else _("No team to seed."),
        )
    return redirect("organiser:teams", slug=slug)
