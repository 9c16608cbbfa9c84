"""A team's forms: entered by hand or by a CSV file, edited, a player substituted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import SEED_MAX, Championship, Team
from tournaments.stages import registry


def _add_player_fields(
    form: forms.Form, championship: Championship, *, required: int, new: bool
) -> bool:
    """Add ``player_1`` … ``player_<form.size>`` (the first ``required`` of them must have a
    name) and, in a Catalan championship of teams, the cap de colla among them: for a
    ``new`` team it is asked and starts at the first; when editing it may stay as it is.
    Returns whether the captain is asked."""
    for index in range(1, form.size + 1):
        form.fields[f"player_{index}"] = forms.CharField(
            label=_("Player %(number)s") % {"number": index},
            max_length=200,
            required=index <= required,
        )
    asked = championship.is_catalan and championship.team_size > 1
    if asked:
        form.fields["captain"] = forms.TypedChoiceField(
            label=_("Cap de colla"),
            choices=[
                (index, _("Player %(number)s") % {"number": index})
                for index in range(1, form.size + 1)
            ],
            coerce=int,
            initial=1 if new else None,
            required=new,
        )
    return asked


class TeamForm(forms.Form):
    """A team and its players, as many as the championship plays with."""

    name = forms.CharField(label=_("Team name"), max_length=200)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=SEED_MAX, required=False)
    club = forms.CharField(label=_("Club or city"), max_length=200, required=False)

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.size = championship.team_size
        self.needs_captain = _add_player_fields(self, championship, required=self.size, new=True)

    def player_field_names(self) -> list[str]:
        return [f"player_{index}" for index in range(1, self.size + 1)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        names = [cleaned.get(name, "").strip() for name in self.player_field_names()]
        seen: set[str] = set()
        for field, name in zip(self.player_field_names(), names, strict=True):
            if name and name.casefold() in seen:
                self.add_error(field, _("This player is already in the team."))
            seen.add(name.casefold())
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        players = [data[name].strip() for name in self.player_field_names()]
        captain = players[data["captain"] - 1] if self.needs_captain else None
        return {
            "name": data["name"],
            "seed": data.get("seed"),
            "club": data.get("club", ""),
            "players": players,
            "captain": captain,
        }


class TeamImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file of teams"),
        help_text=_(
            "UTF-8, one row per player with the columns team and player (seed, club and"
            " captain are optional); download the template above, in your language."
        ),
    )


class TeamEditForm(forms.Form):
    """A team's name, seed, club, its players' names and its cap de colla."""

    name = forms.CharField(label=_("Team name"), max_length=200)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=SEED_MAX, required=False)
    club = forms.CharField(label=_("Club or city"), max_length=200, required=False)

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        members = list(team.memberships.all())
        initial = {"name": team.name, "seed": team.seed, "club": team.club}
        for index, membership in enumerate(members, start=1):
            initial[f"player_{index}"] = membership.player.name
            if membership.is_captain:
                initial["captain"] = index
        super().__init__(*args, initial=initial, **kwargs)
        championship = team.championship
        self.size = max(championship.team_size, len(members))
        self.needs_captain = _add_player_fields(
            self, championship, required=len(members), new=False
        )

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "seed": data.get("seed"),
            "club": data.get("club", ""),
            "players": [data.get(f"player_{i}", "") for i in range(1, self.size + 1)],
            "captain": data.get("captain") or None,
        }


class SubstitutionForm(forms.Form):
    """Who leaves the team, who comes in, and from which round."""

    player_out = forms.TypedChoiceField(label=_("Player who leaves"), coerce=int, choices=())
    name = forms.CharField(label=_("Substitute"), max_length=200)
    from_round = forms.ChoiceField(label=_("From round"), choices=())

    def __init__(self, *args: Any, team: Team, stages: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player_out"].choices = [
            (m.player_id, m.player.name) for m in team.memberships.all()
        ]
        choices = []
        for stage, next_number in stages:
            for number in range(1, next_number + 1):
                label = _("%(stage)s, round %(number)s") % {
                    "stage": registry.stage_name(stage),
                    "number": number,
                }
                choices.append((f"{stage.pk}:{number}", label))
        self.fields["from_round"].choices = choices
        if choices:
            # The round about to be generated: the usual moment for a substitute.
            self.fields["from_round"].initial = choices[-1][0]
        self._stages = {stage.pk: stage for stage, _n in stages}

    def service_kwargs(self) -> dict[str, Any]:
        stage_id, number = self.cleaned_data["from_round"].split(":")
        return {
            "name": self.cleaned_data["name"],
            "stage": self._stages[int(stage_id)],
            "from_round": int(number),
        }
