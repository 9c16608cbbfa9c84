"""A stage and its rounds: the format and its settings, tables, times and referees,
walkovers.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import widgets
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Championship, Match, Team
from tournaments.stages import registry


class StageForm(forms.Form):
    """A new stage: its format and that format's settings, and its teams.

    The formats, their variants and their settings' fields come from the stage-format
    registry: a new format appears here without touching this form. Each setting knows the
    choices it belongs to (``setting_fields``), so the page shows only the chosen format's
    (static/js/stage_form.js). The tie-break chain is the championship's, chosen once on
    its page.
    """

    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        required=False,
        help_text=_("Empty: the name of the format."),
    )
    format = forms.ChoiceField(label=_("Format"), choices=())
    teams = forms.ModelMultipleChoiceField(
        label=_("Teams"), queryset=Team.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Tables of three are offered where single players play gallo (and only there).
        self._variants = {
            variant.key: (fmt, variant)
            for fmt, variant in registry.variants()
            if not fmt.has_tables or championship.plays_gallo
        }
        self.fields["format"].choices = [(key, v.label) for key, (_f, v) in self._variants.items()]
        self._settings: dict[str, list[str]] = {}
        for key, (fmt, _variant) in self._variants.items():
            for name, make in fmt.fields.items():
                if name not in self.fields:
                    field = make()
                    # Only the chosen format's settings matter; the others keep defaults.
                    field.required = False
                    self.fields[name] = field
                self._settings.setdefault(name, []).append(key)
        self.fields["teams"].queryset = championship.teams.playing()
        self.fields["teams"].initial = list(
            championship.teams.playing().values_list("pk", flat=True)
        )

    def main_fields(self) -> list[Any]:
        return [self["name"], self["format"]]

    def team_fields(self) -> list[Any]:
        return [self["teams"]]

    def setting_fields(self) -> list[tuple[list[Any], str]]:
        """Each setting (a list of its one bound field, as ``_fields.html`` takes) with the
        format choices (space-separated) it serves."""
        return [([self[name]], " ".join(keys)) for name, keys in self._settings.items()]

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        fmt, variant = self._variants[data["format"]]
        settings = dict(variant.settings)
        for name in fmt.fields:
            value = data.get(name)
            settings[name] = fmt.defaults[name] if value in (None, "") else value
        return {
            "format": fmt.key,
            "name": data.get("name", ""),
            "settings": settings,
            "teams": list(data["teams"]),
        }


class RefereeChoiceField(forms.ModelChoiceField):
    """A referee by his full name (and user name), not the bare user name."""

    def label_from_instance(self, obj: Any) -> str:
        return championship_selectors.person_name(obj)


class MatchAssignForm(forms.Form):
    """Table, time and referee of one match (one form of the round's formset)."""

    match = forms.IntegerField(widget=forms.HiddenInput)
    table = forms.CharField(label=_("Table"), max_length=50, required=False)
    scheduled_at = forms.DateTimeField(
        label=_("Time"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=widgets.DateTimeInput(),
    )
    referee = RefereeChoiceField(label=_("Referee"), queryset=None, required=False)
    entry = forms.ChoiceField(
        label=_("Hand entry on the tablet"),
        choices=Match.Entry.choices,
        initial=Match.Entry.QUICK,
        required=False,
    )

    def __init__(self, *args: Any, referees: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["referee"].queryset = referees


MatchAssignFormSet = forms.formset_factory(MatchAssignForm, extra=0)


class WalkoverForm(forms.Form):
    """A match decided without play: who wins, why, and whether it is a forfeit."""

    winner = forms.TypedChoiceField(label=_("Winner"), choices=(), coerce=int)
    reason = forms.CharField(label=_("Reason"), max_length=300)
    forfeit = forms.BooleanField(
        label=_("Forfeit (the other team gave up during the match)"), required=False
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.fields["winner"].choices = [
            (match.team_a_id, match.team_a.name),
            (match.team_b_id, match.team_b.name if match.team_b else ""),
        ]

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        winner = self.match.team_a if data["winner"] == self.match.team_a_id else self.match.team_b
        return {"winner": winner, "reason": data["reason"], "forfeit": data["forfeit"]}


class RoundRefereeForm(forms.Form):
    """One referee for every match of a round still to be played."""

    referee = RefereeChoiceField(label=_("Referee of the whole round"), queryset=None)

    def __init__(self, *args: Any, referees: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["referee"].queryset = referees
