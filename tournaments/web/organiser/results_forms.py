"""Forms of the result pages: correcting or removing a hand, a side's answer, the audit
filter. They check the shape of what is typed; the results services check the rest."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.io import jsonbody
from tournaments.models import HandRevision, TeamAct
from tournaments.stages import registry

# A hand record is a few hundred characters; a bigger paste is a mistake, not a hand.
RECORD_MAX_CHARS = 20_000


class _RevisionForm(forms.Form):
    # The match's last result change when the page was shown: a change made meanwhile by
    # someone else makes the service refuse this one (``stale_result``).
    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the match's history with your name."),
    )


class HandCorrectionForm(_RevisionForm):
    """The hand's record as JSON (docs/hand-record.md), and why it changes."""

    record = forms.CharField(
        label=_("Hand record"),
        max_length=RECORD_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "code"}),
        help_text=_(
            "The hand's cards and events in the hand-record format; the rules engine checks "
            "the whole match again with it."
        ),
    )
    field_order = ["record", "reason", "revision"]

    def clean_record(self) -> dict[str, Any]:
        try:
            value = jsonbody.loads(self.cleaned_data["record"])
        except ValueError:
            raise forms.ValidationError(
                _("This is not a valid hand record: check the brackets and quotes."),
                code="bad_json",
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(
                _("A hand record is an object with the list of its events."), code="bad_record"
            )
        return value


class HandRemovalForm(_RevisionForm):
    """Why a hand is removed."""


class AuditFilterForm(forms.Form):
    """Narrow the audit log to a stage, a round of it, a match, or a kind of change."""

    stage = forms.TypedChoiceField(label=_("Stage"), choices=(), coerce=int, required=False)
    round = forms.IntegerField(label=_("Round"), min_value=1, required=False)
    match = forms.IntegerField(label=_("Match"), min_value=1, required=False)
    action = forms.ChoiceField(
        label=_("Change"), choices=[("", "—"), *HandRevision.Action.choices], required=False
    )

    def __init__(self, *args: Any, stages: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["stage"].choices = [
            ("", "—"),
            *[(s.pk, registry.stage_name(s)) for s in stages],
        ]
        self.fields["stage"].empty_value = None

    def filters(self) -> dict[str, Any]:
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {
            "stage_id": data.get("stage") or None,
            "round_number": data.get("round"),
            "match_id": data.get("match"),
            "action": data.get("action") or None,
        }


class TeamActFilterForm(forms.Form):
    """Narrow the audit log of the teams to a kind of act, or to the acts through one way
    in (the entry form, a personal link, the organiser, the API)."""

    prefix = "team"

    action = forms.ChoiceField(
        label=_("Team act"), choices=[("", "—"), *TeamAct.Action.choices], required=False
    )
    via = forms.ChoiceField(
        label=_("Through"), choices=[("", "—"), *TeamAct.Via.choices], required=False
    )

    def filters(self) -> dict[str, Any]:
        if not self.is_valid():
            return {}
        return {
            "action": self.cleaned_data.get("action") or None,
            "via": self.cleaned_data.get("via") or None,
        }
