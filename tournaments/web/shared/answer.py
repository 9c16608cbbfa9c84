"""A side's answer to its match's result, at the table or on the organiser's page: which
player confirms, or disputes and why. The results services check the rest."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.championships.words import words
from tournaments.models import Match, Player


class AnswerForm(forms.Form):
    """A side's answer at the table: which player confirms, or disputes and why."""

    player = forms.TypedChoiceField(label=_("Who answers"), choices=(), coerce=int)
    comment = forms.CharField(
        label=_("What is wrong (to dispute)"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, match: Match, side: str, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", f"side{side}")
        super().__init__(*args, **kwargs)
        self.side = side
        team = match.team_a if side == "A" else match.team_b
        members = sorted(team.memberships.all(), key=lambda m: (not m.is_captain, m.order))
        captain = words(match.stage.championship).captain
        self.players = {m.player_id: m.player for m in members}
        self.fields["player"].choices = [
            (
                m.player_id,
                _("%(name)s (%(captain)s)") % {"name": m.player.name, "captain": captain}
                if m.is_captain
                else m.player.name,
            )
            for m in members
        ]
        self.team = team

    def chosen(self) -> Player:
        return self.players[self.cleaned_data["player"]]
