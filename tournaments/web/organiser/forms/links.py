"""The organiser's self check-in window: until when teams check in through their links."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import widgets
from tournaments.models import Championship


class SelfCheckInForm(forms.Form):
    """A time of the championship's day, read in the championship's time zone (where the
    organiser and the teams are), whatever the server's."""

    until = forms.DateTimeField(
        label=_("Until"),
        widget=widgets.DateTimeInput(),
    )

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.championship = championship

    def full_clean(self) -> None:
        # A naive time typed in is made aware in the championship's zone.
        with timezone.override(self.championship.zone):
            super().full_clean()

    def until_value(self) -> datetime.datetime:
        return self.cleaned_data["until"]
