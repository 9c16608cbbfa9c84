"""Site-level views that belong to no single audience."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

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
