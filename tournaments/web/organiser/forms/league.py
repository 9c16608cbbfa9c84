"""A league's dates: a matchday's date, one match's date, time and venue, a postponement.

Days and hours are read in the championship's time zone (``stages.league.zone_of``). The
rules (inside the season, no team twice on one day, a decided match left alone, a reason
for a postponement) are the services'; the reason is not required here so that its
refusal is the service's sentence.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Championship, Match
from tournaments.stages import league


class MatchdayDateForm(forms.Form):
    """A matchday's date: its matches still to be played follow."""

    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))

    def service_kwargs(self) -> dict[str, Any]:
        return {"date": self.cleaned_data["date"]}


class MatchScheduleForm(forms.Form):
    """One match's date, time and venue."""

    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(
        label=_("Time"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    venue_name = forms.CharField(label=_("Venue"), max_length=200, required=False)
    venue_address = forms.CharField(label=_("Venue's address"), max_length=300, required=False)

    def __init__(self, *args: Any, match: Match, championship: Championship, **kwargs: Any):
        self.zone = league.zone_of(championship)
        initial = kwargs.pop("initial", None) or {}
        if match.scheduled_at is not None:
            local = timezone.localtime(match.scheduled_at, self.zone)
            initial.setdefault("date", local.date())
            initial.setdefault("time", local.time().replace(second=0, microsecond=0))
        initial.setdefault("venue_name", match.venue_name)
        initial.setdefault("venue_address", match.venue_address)
        super().__init__(*args, initial=initial, **kwargs)

    def when(self) -> dt.datetime:
        data = self.cleaned_data
        return dt.datetime.combine(data["date"], data["time"], tzinfo=self.zone)

    def service_kwargs(self) -> dict[str, Any]:
        return {
            "scheduled_at": self.when(),
            "venue_name": self.cleaned_data["venue_name"],
            "venue_address": self.cleaned_data["venue_address"],
        }


class MatchPostponeForm(MatchScheduleForm):
    """A match postponed: to when (and where), and why."""

    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Shown in the postponement history."),
    )

    def __init__(self, *args: Any, match: Match, championship: Championship, **kwargs: Any):
        super().__init__(*args, match=match, championship=championship, **kwargs)
        self.fields["date"].label = _("New date")
        self.fields["time"].label = _("New time")

    def service_kwargs(self) -> dict[str, Any]:
        kwargs = super().service_kwargs()
        return {
            "to": kwargs.pop("scheduled_at"),
            "reason": self.cleaned_data["reason"],
            **kwargs,
        }
