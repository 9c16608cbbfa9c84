"""The organiser's entries page and the poster that invites teams to enter.

``/organiser/<slug>/entries/``: the policy (open or closed, places, closing time in the
championship's time zone, the questions, the fee and how to pay), the entries in arrival
order with their status and payment, the organiser's answers (accept, refuse with a
reason, withdraw, mark paid or not, mark a gone team's fee refunded: POST only), the
waiting list in order. The poster
(``entries/poster/``, ``poster.pdf``) prints the championship, the fee, the closing time
and a QR code of the entry form's address on A4. As every organiser page: a login and the
championship's management (404 to anyone else).
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.championships.words import words
from tournaments.entries import fees
from tournaments.entries import selectors as entry_selectors
from tournaments.entries import services as entry_services
from tournaments.models import Championship, Entry, TeamAct
from tournaments.web.organiser.championships import _championship, _post_only
from tournaments.web.organiser.forms.entries import EntryPolicyForm, EntryReasonForm
from tournaments.web.organiser.printing import _pdf, _render
from tournaments.web.shared.forms import add_entry_errors


@login_required
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    """The policy form and the entries, with their counts."""
    championship = _championship(request, slug)
    form = EntryPolicyForm(
        request.POST if request.method == "POST" else None, championship=championship
    )
    if request.method == "POST" and form.is_valid():
        try:
            entry_services.entry_policy_set(
                championship=championship, by=request.user, **form.service_kwargs()
            )
        except ValidationError as error:
            add_entry_errors(form, [error])
        else:
            messages.success(request, _("Entry settings saved."))
            return redirect("organiser:entries", slug=slug)
    return render(request, "organiser/entries.html", _context(request, championship, form))


def _context(
    request: HttpRequest, championship: Championship, form: EntryPolicyForm
) -> dict[str, Any]:
    policy = entry_selectors.entry_policy(championship)
    listed = entry_selectors.entries_for_organiser(championship)
    return {
        "championship": championship,
        "form": form,
        "policy": policy,
        "closed": entry_selectors.entries_closed_problem(championship, policy),
        "entries": [e for e in listed if e.status != Entry.Status.WAITING],
        "waiting": [e for e in listed if e.status == Entry.Status.WAITING],
        "counts": entry_selectors.entry_counts(listed, policy),
        "entry_url": _entry_url(request, championship),
        "words": words(championship),
    }


def _entry_url(request: HttpRequest, championship: Championship) -> str:
    return request.build_absolute_uri(reverse("tournaments:enter", args=[championship.slug]))


# What each button does: the service and the message once done.
ACTS = ("accept", "refuse", "withdraw", "paid", "unpaid", "refunded")


@login_required
def entry_act(request: HttpRequest, slug: str, entry_id: int, act: str) -> HttpResponse:
    """Accept, refuse (with a reason), withdraw, mark an entry paid or not, or its fee
    refunded (POST)."""
    championship = _championship(request, slug)
    if refused := _post_only(request):
        return refused
    entry = entry_selectors.entry_of(championship, entry_id)
    if entry is None or act not in ACTS:
        raise Http404("No such entry.")
    reason = EntryReasonForm(request.POST)
    reason.is_valid()
    text = reason.cleaned_data.get("reason", "")
    via, by = TeamAct.Via.ORGANISER, request.user
    name = entry.team.name
    try:
        if act == "accept":
            entry_services.entry_accept(entry=entry, by=by, via=via)
            done = _("%(team)s is accepted.")
        elif act == "refuse":
            entry_services.entry_refuse(entry=entry, by=by, via=via, reason=text)
            done = _("%(team)s is refused.")
        elif act == "withdraw":
            entry_services.entry_withdraw(team=entry.team, by=by, via=via, reason=text)
            done = _("%(team)s is withdrawn.")
        elif act == "refunded":
            fees.entry_set_refunded(entry=entry, by=by, via=via)
            done = _("%(team)s's fee is marked refunded.")
        else:
            fees.entry_set_paid(entry=entry, paid=act == "paid", by=by, via=via)
            done = _("%(team)s has paid.") if act == "paid" else _("%(team)s has not paid.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done % {"team": name})
    return redirect(f"{reverse('organiser:entries', args=[slug])}#entry-{entry.pk}")


def _poster_context(request: HttpRequest, slug: str) -> dict[str, Any]:
    championship = _championship(request, slug)
    url = _entry_url(request, championship)
    return {
        "championship": championship,
        "policy": entry_selectors.entry_policy(championship),
        "entry_url": url,
        # An inline <svg> (no data: URL, no style attribute): allowed by the page's CSP,
        # and drawn by WeasyPrint as a vector.
        "qr": segno.make(url, error="m").svg_inline(scale=6, omitsize=True),
    }


@login_required
def poster(request: HttpRequest, slug: str) -> HttpResponse:
    """The poster inviting teams to enter, ready to print on A4."""
    context = _poster_context(request, slug)
    return HttpResponse(_render(request, "print/entry_poster.html", context, pdf=False))


@login_required
def poster_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    context = _poster_context(request, slug)
    html = _render(request, "print/entry_poster.html", context, pdf=True)
    return _pdf(request, html, f"{slug}-entries-poster.pdf")
