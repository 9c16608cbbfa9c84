"""A team's mails stopped from the link at the foot of each (``/mails/stop/<token>/``).

A GET shows what the link does and a button (a mail scanner that opens links stops
nothing); a POST stops the mails at once: the button, or a mail program's one-click
unsubscribe (RFC 8058: ``List-Unsubscribe=One-Click`` posted with no cookie nor CSRF
token, hence ``csrf_exempt``: the signed token is the credential, and all it can do is
stop mails). The address holds the token: never cached, indexed or sent as a referrer.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from tournaments.entries.acts import mails_stop
from tournaments.notices.stops import stop_entry

TEMPLATE = "tournaments/mails_stop.html"


@csrf_exempt
@never_cache
def stop(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the link does; POST: the team's mails stopped."""
    entry = stop_entry(token=token)
    if entry is None:
        response = render(request, TEMPLATE, {"invalid": True}, status=404)
    elif request.method == "POST":
        mails_stop(entry=entry)
        response = render(request, TEMPLATE, {"entry": entry, "stopped": True})
    else:
        stopped = entry.notices_stopped_at is not None
        response = render(request, TEMPLATE, {"entry": entry, "stopped": stopped})
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "strict-origin"
    return response
