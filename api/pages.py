"""The site's page where a user sees, creates and revokes his API token."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from rest_framework.authtoken.models import Token


@never_cache  # it shows the token: kept by no browser or proxy
@login_required
def token_page(request: HttpRequest) -> HttpResponse:
    """GET: the token, if any. POST ``action=create`` makes one; ``action=revoke`` deletes it."""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "create":
            Token.objects.filter(user=request.user).delete()
            Token.objects.create(user=request.user)
            messages.success(request, _("Your new API token is ready."))
        elif action == "revoke":
            Token.objects.filter(user=request.user).delete()
            messages.success(request, _("Your API token has been revoked: it no longer works."))
        return redirect("api:token-page")
    token = Token.objects.filter(user=request.user).first()
    return render(request, "api/token.html", {"token": token})
