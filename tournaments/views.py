"""Public pages of the championships."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import championship_list_public


def home(request: HttpRequest) -> HttpResponse:
    """The home page: the championships open to the public."""
    return render(request, "tournaments/home.html", {"championships": championship_list_public()})
