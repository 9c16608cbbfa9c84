"""Forms of who keeps the score (a championship's, a stage's) and of changing how a match
is recorded; the result itself is typed in ``tournaments.web.shared.result_form``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.championships.services.scorekeeping import CONFIRM_WITHIN_MAX
from tournaments.models import Championship, Match, Scorekeeping, Stage


class ScorekeepingForm(forms.Form):
    """Who keeps the score in a championship, and the time a team has to answer."""

    scorekeeping = forms.ChoiceField(
        label=_("Who keeps the score"),
        choices=Scorekeeping.choices,
        widget=forms.RadioSelect,
    )
    confirm_within = forms.IntegerField(
        label=_("Minutes a team has to answer the result the other team reported"),
        min_value=1,
        max_value=CONFIRM_WITHIN_MAX,
        help_text=_("Past it, the match waits for you among the results to settle."),
    )

    @classmethod
    def for_championship(cls, championship: Championship, data: Any = None) -> ScorekeepingForm:
        initial = {
            "scorekeeping": championship.scorekeeping,
            "confirm_within": championship.confirm_within,
        }
        return cls(data, initial=initial)


class StageScorekeepingForm(forms.Form):
    """Who keeps the score in one stage, where it differs from its championship."""

    scorekeeping = forms.ChoiceField(label=_("Who keeps the score in this stage"), required=False)

    def __init__(self, *args: Any, stage: Stage, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"scorekeeping": stage.scorekeeping})
        super().__init__(*args, **kwargs)
        current = Scorekeeping(stage.championship.scorekeeping).label
        self.fields["scorekeeping"].choices = [
            ("", _("As the championship: %(choice)s") % {"choice": current}),
            *Scorekeeping.choices,
        ]


class RecordingForm(forms.Form):
    """Change how a match is recorded, saying why."""

    to = forms.ChoiceField(choices=Match.Recorded.choices, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the match's history with your name."),
    )
