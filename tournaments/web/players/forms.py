"""The public entry form: a team entered by its players.

As the other forms, they only shape input: which team can be entered, which policy makes
sense, is said by ``tournaments.entries.services`` (``entry_problems``,
``entry_policy_set``), whose sentences go back beside the field they name.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.championships.words import words
from tournaments.entries.towns import TownRule
from tournaments.models import Championship
from tournaments.people.services import PersonDetails
from tournaments.web.shared.forms import OneLineMixin


def new_form_key() -> str:
    """The one-time key of an entry form as served: the same form posted twice enters
    one team."""
    return secrets.token_urlsafe(24)


class EntryForm(OneLineMixin, forms.Form):
    """A team entered by its players: its name, one row per player of the rules' team
    size, and exactly the questions the organiser asks. Nothing is required here: the
    service's sentences say what is missing."""

    form_key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    team_name = forms.CharField(label=_("Team name"), max_length=200, required=False)

    def __init__(
        self,
        *args: Any,
        championship: Championship,
        asks: Iterable[str],
        towns: TownRule | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.championship = championship
        self.asks = set(asks)
        self.size = championship.team_size
        self.towns = towns
        if towns is not None:
            # Typed text with the circuit's towns suggested: a town outside the list may
            # be typed, and is answered with the qualifier it belongs to.
            self.fields["town"] = forms.CharField(
                label=_("Your team's town"),
                max_length=200,
                required=False,
                help_text=_("This qualifier is for teams from %(towns)s.")
                % {"towns": ", ".join(towns.towns)},
                widget=forms.TextInput(attrs={"list": "town-list", "autocomplete": "off"}),
            )
        if "club" in self.asks:
            self.fields["club"] = forms.CharField(
                label=_("Club or city"), max_length=200, required=False
            )
        for number in range(1, self.size + 1):
            label = _("Player %(number)s") % {"number": number} if self.size > 1 else _("Name")
            self.fields[f"player_{number}"] = forms.CharField(
                label=label,
                max_length=200,
                required=False,
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )
            if "licence" in self.asks:
                self.fields[f"licence_{number}"] = forms.CharField(
                    label=_("Licence number"), max_length=50, required=False
                )
        self.asks_captain = championship.is_catalan and self.size > 1
        if self.asks_captain:
            self.fields["captain"] = forms.TypedChoiceField(
                label=words(championship).captain,
                choices=[(n, str(n)) for n in range(1, self.size + 1)],
                coerce=int,
                required=False,
                widget=forms.RadioSelect,
            )
        if "email" in self.asks:
            self.fields["email"] = forms.CharField(
                label=_("Email"),
                max_length=254,
                required=False,
                help_text=_("The team's personal link is sent to this address."),
                widget=forms.TextInput(
                    attrs={"type": "email", "inputmode": "email", "autocomplete": "email"}
                ),
            )
        if "phone" in self.asks:
            self.fields["phone"] = forms.CharField(
                label=_("Phone"),
                max_length=40,
                required=False,
                widget=forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
            )

    def player_rows(self) -> list[dict[str, Any]]:
        """One row per player for the template: his name field, his licence field, and
        whether he is the one chosen as cap de colla."""
        chosen = str(self["captain"].value() or "") if self.asks_captain else ""
        return [
            {
                "number": number,
                "name": self[f"player_{number}"],
                "licence": self[f"licence_{number}"] if "licence" in self.asks else None,
                "captain": chosen == str(number),
            }
            for number in range(1, self.size + 1)
        ]

    def renew_key(self) -> None:
        """Serve the form again under a new one-time key (its own entered a team already)."""
        self.data = self.data.copy()
        self.data["form_key"] = new_form_key()

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments of ``entry_problems`` / ``entry_submit`` (the contact's email and
        phone are the first player's)."""
        data = self.cleaned_data
        email = data.get("email", "").strip()
        phone = data.get("phone", "").strip()
        players = []
        for number in range(1, self.size + 1):
            first = number == 1
            players.append(
                PersonDetails(
                    name=data.get(f"player_{number}", "").strip(),
                    licence=data.get(f"licence_{number}", "").strip(),
                    email=email if first else "",
                    phone=phone if first else "",
                )
            )
        captain = data.get("captain") if self.asks_captain else None
        return {
            "team_name": data.get("team_name", ""),
            "players": players,
            "captain": players[captain - 1].name if captain else None,
            "club": data.get("club", ""),
            "email": email,
            "town": data.get("town", ""),
        }
