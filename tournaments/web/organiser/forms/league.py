"""A league's dates: a matchday's date, the matches a move left behind, one match's date,
time and venue, a postponement.

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

from tournaments import widgets
from tournaments.models import Championship, Match, Stage
from tournaments.stages import league


class MatchdayDateForm(forms.Form):
    """A matchday's date: its matches still to be played follow."""

    date = forms.DateField(label=_("Date"), widget=widgets.DateInput())

    def service_kwargs(self) -> dict[str, Any]:
        return {"date": self.cleaned_data["date"]}


class MatchdayMatchesForm(forms.Form):
    """The matches a matchday's move left where they were, each to move or not, with a
    date and a time: the matchday's new date, at the hour the matchday gives it, to start
    with. A postponed one is left unticked (it was moved on purpose)."""

    def __init__(
        self,
        *args: Any,
        matches: list[Match],
        stage: Stage,
        date: dt.date | None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        championship = stage.championship
        self.zone = league.zone_of(championship)
        self.matches = matches
        self.rows: list[tuple[Match, list[Any]]] = []
        for match in matches:
            hour = None
            if date is not None:
                start = league.match_start(
                    championship=championship, settings=stage.settings, day=date, home=match.team_a
                )
                hour = start.time()
            self.fields[f"move_{match.pk}"] = forms.BooleanField(
                label=_("Move it"), required=False, initial=not match.postponed
            )
            self.fields[f"date_{match.pk}"] = forms.DateField(
                label=_("Date"), required=False, initial=date, widget=widgets.DateInput()
            )
            self.fields[f"time_{match.pk}"] = forms.TimeField(
                label=_("Time"), required=False, initial=hour, widget=widgets.TimeInput()
            )
            names = ("move", "date", "time")
            self.rows.append((match, [self[f"{name}_{match.pk}"] for name in names]))

    def ids(self) -> str:
        return ",".join(str(match.pk) for match in self.matches)

    def _moving(self) -> list[Match]:
        return [m for m in self.matches if self.cleaned_data.get(f"move_{m.pk}")]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        for match in self._moving():
            for name in ("date", "time"):
                key = f"{name}_{match.pk}"
                if not cleaned.get(key) and key not in self.errors:
                    self.add_error(key, _("Give its date and time to move it."))
        if not self._moving() and not self.errors:
            raise forms.ValidationError(_("Tick the matches to move."))
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "times": {
                m.pk: dt.datetime.combine(data[f"date_{m.pk}"], data[f"time_{m.pk}"], self.zone)
                for m in self._moving()
            }
        }


class MatchScheduleForm(forms.Form):
    """One match's date, time and venue."""

    date = forms.DateField(label=_("Date"), widget=widgets.DateInput())
    time = forms.TimeField(label=_("Time"), widget=widgets.TimeInput())
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
    """A match postponed: to when (and where), and why; with no new date, its date is to
    be fixed later."""

    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Public: shown on the match's page and in its postponement history."),
    )

    def __init__(self, *args: Any, match: Match, championship: Championship, **kwargs: Any):
        super().__init__(*args, match=match, championship=championship, **kwargs)
        self.fields["date"].label = _("New date")
        self.fields["date"].required = False
        self.fields["date"].help_text = _("Empty: postponed, the date to be fixed later.")
        self.fields["time"].label = _("New time")
        self.fields["time"].required = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("date") and not cleaned.get("time") and "time" not in self.errors:
            self.add_error("time", _("Give the time of the new date too."))
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        kwargs = super().service_kwargs() if self.cleaned_data.get("date") else {}
        kwargs.setdefault("venue_name", self.cleaned_data["venue_name"])
        kwargs.setdefault("venue_address", self.cleaned_data["venue_address"])
        return {
            "to": kwargs.pop("scheduled_at", None),
            "reason": self.cleaned_data["reason"],
            **kwargs,
        }
