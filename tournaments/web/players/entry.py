"""The public entry form (``/c/<slug>/enter/``): players enter their team themselves.

No login; a championship that is a draft answers 404, as its other public pages. The page
says before anyone types whether entries are open, and whether a team entered now holds
a place or waits (and at which number). A sending is counted per address
(``tournaments.entries.limits``: 429 past the limit). The answer to a team entered shows
its personal link, once, and mails it when an address was given; it is never cached, nor
is the form (it carries the CSRF token and its one-time key).
"""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache

from tournaments.championships import selectors as championship_selectors
from tournaments.championships.words import words
from tournaments.entries import limits
from tournaments.entries import selectors as entry_selectors
from tournaments.entries import services as entry_services
from tournaments.entries.mail import entry_link_mail
from tournaments.entries.towns import town_rule
from tournaments.models import Championship
from tournaments.web.players.forms import EntryForm, new_form_key
from tournaments.web.shared.forms import add_entry_errors
from tournaments.web.shared.links import team_link


@never_cache
def enter(request: HttpRequest, slug: str) -> HttpResponse:
    """The entry form; on a sending, the team entered (or every problem beside its field)."""
    championship = championship_selectors.championship_public(slug=slug)
    window = entry_selectors.entry_window(championship)
    rule = town_rule(championship)
    form = EntryForm(
        request.POST if request.method == "POST" else None,
        championship=championship,
        asks=window.asks,
        towns=rule,
        initial={"form_key": new_form_key()},
    )
    status = 200
    elsewhere = None
    if request.method == "POST":
        client = get_client_ip_address(request) or ""
        if not limits.entry_sending_allowed(client):
            # The page again, what was typed kept, the refusal on top: nothing entered.
            form.is_valid()
            form.add_error(None, _throttled_sentence())
            status = 429
        elif window.is_open and form.is_valid():
            kwargs = form.service_kwargs()
            try:
                entry, token = entry_services.entry_submit(
                    championship=championship,
                    form_key=form.cleaned_data["form_key"],
                    client=client,
                    **kwargs,
                )
            except ValidationError as error:
                if error.code == "entry_key_used":
                    form.renew_key()  # its sentence alone, and a fresh form to send
                # The service stops at the first problem: the form shows every one.
                problems = (
                    []
                    if error.code in ("entries_closed", "entry_key_used")
                    else (
                        entry_services.entry_problems(
                            championship=championship, policy=window.policy, **kwargs
                        )
                    )
                )
                add_entry_errors(form, problems or [error])
                elsewhere = _town_elsewhere(problems or [error])
            else:
                return _entered(request, championship, entry, token)
    context = {
        "championship": championship,
        "window": window,
        "form": form,
        "words": words(championship),
        "town_elsewhere": elsewhere,
    }
    return render(request, "tournaments/entry.html", context, status=status)


def _town_elsewhere(problems: list[ValidationError]) -> dict[str, str] | None:
    """The qualifier of the town a refused team gave (its name and entry form's path),
    for a link beside the refusal; None when the town has no qualifier in the circuit."""
    for problem in problems:
        if problem.code == "town_elsewhere":
            return {
                "name": problem.params["championship"],
                "url": reverse("tournaments:enter", args=[problem.params["slug"]]),
            }
    return None


def _throttled_sentence() -> str:
    minutes = limits.entry_window_minutes()
    return ngettext(
        "Too many entries were sent from your connection: wait a minute and send the form again.",
        "Too many entries were sent from your connection: wait %(minutes)s minutes and send the"
        " form again.",
        minutes,
    ) % {"minutes": minutes}


def _entered(request: HttpRequest, championship: Championship, entry, token: str) -> HttpResponse:
    link = team_link(request, championship, token) if token else ""
    mailed = None  # no address given, or the same form sent again: nothing mailed now
    if entry.email and link and not entry.repeated:
        mailed = entry_link_mail(entry=entry, link=link)
    policy = entry_selectors.entry_policy(championship)
    context = {
        "championship": championship,
        "entry": entry,
        "link": link,
        "mailed": mailed,
        "waiting": entry_selectors.waiting_number(entry),
        "policy": policy,
    }
    return render(request, "tournaments/entry_done.html", context)
