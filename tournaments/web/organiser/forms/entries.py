"""The organiser's forms of online entry: the policy (open or closed, places, closing
time, the questions asked, the fee and its currency) and a refusal's reason.

As the other forms, they only shape input: which policy makes sense is said by
``tournaments.entries.services`` (``entry_policy_set``), whose sentences go back beside
the field they name.
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import widgets
from tournaments.entries import money
from tournaments.models import Championship, EntryPolicy

QUESTION_LABELS = {
    "club": _("Club or city"),
    "licence": _("Licence numbers"),
    "email": _("Email (the team's link is sent there)"),
    "phone": _("Phone"),
}


class EntryPolicyForm(forms.Form):
    """How the championship takes entries; the closing time in its own time zone."""

    is_open = forms.BooleanField(label=_("Entries are open"), required=False)
    capacity = forms.IntegerField(
        label=_("Places (teams)"),
        required=False,
        help_text=_("Empty: no limit. Teams entered past it wait on a list, in arrival order."),
    )
    closes_at = forms.DateTimeField(
        label=_("Entries close at"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=widgets.DateTimeInput(),
    )
    asks = forms.MultipleChoiceField(
        label=_("Ask the teams for"),
        choices=[(q, QUESTION_LABELS[q]) for q in EntryPolicy.QUESTIONS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The players' names are always asked."),
    )
    fee = forms.DecimalField(
        label=_("Entry fee per team"), max_digits=8, decimal_places=2, required=False
    )
    currency = forms.ChoiceField(
        label=_("Currency of the fee"),
        choices=money.currency_choices,
        initial=money.DEFAULT,
        required=False,  # a form posted without it keeps the currency chosen before
    )
    fee_instructions = forms.CharField(
        label=_("How to pay"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, data: Any = None, *, championship: Championship, **kwargs: Any) -> None:
        policy = EntryPolicy.objects.filter(championship=championship).first()
        if policy is not None and data is None and "initial" not in kwargs:
            closes = policy.closes_at
            kwargs["initial"] = {
                "is_open": policy.is_open,
                "capacity": policy.capacity,
                "closes_at": closes.astimezone(championship.zone).replace(tzinfo=None)
                if closes
                else None,
                "asks": policy.asks,
                "fee": policy.fee,
                "currency": policy.currency,
                "fee_instructions": policy.fee_instructions,
            }
        super().__init__(data, **kwargs)
        self.championship = championship
        self.kept_currency = policy.currency if policy is not None else money.DEFAULT
        self.fields["closes_at"].help_text = _("In the championship's time zone, %(zone)s.") % {
            "zone": championship.time_zone
        }

    def clean_closes_at(self) -> datetime.datetime | None:
        value = self.cleaned_data.get("closes_at")
        if value is None:
            return None
        # Django read the time in the current zone: it is the championship's wall clock.
        wall = timezone.localtime(value).replace(tzinfo=None)
        return timezone.make_aware(wall, self.championship.zone)

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "is_open": data["is_open"],
            "capacity": data["capacity"],
            "closes_at": data["closes_at"],
            "asks": data["asks"],
            "fee": data["fee"],
            "currency": data["currency"] or self.kept_currency,
            "fee_instructions": data["fee_instructions"],
        }


class EntryReasonForm(forms.Form):
    """The organiser's reason, for a refusal (required by the service) or a withdrawal."""

    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)
