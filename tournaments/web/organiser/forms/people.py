"""The organiser's forms of a person: his details, and a search of the people."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Person
from tournaments.web.shared.forms import OneLineMixin


class PersonForm(OneLineMixin, forms.Form):
    """What is known of a person: name, club, licence number, contact, how he is shown."""

    name = forms.CharField(label=_("Name"), max_length=200)
    club = forms.CharField(label=_("Club or city"), max_length=200, required=False)
    licence = forms.CharField(label=_("Licence number"), max_length=50, required=False)
    email = forms.EmailField(label=_("Email"), required=False)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    initial_only = forms.BooleanField(
        label=_("On public pages, only the first name and the surname's initial (“Ana R.”)"),
        required=False,
    )

    def __init__(self, *args: Any, person: Person, **kwargs: Any) -> None:
        initial = {field: getattr(person, field) for field in self.base_fields}
        super().__init__(*args, initial=initial, **kwargs)

    def service_kwargs(self) -> dict[str, Any]:
        return dict(self.cleaned_data)


class PeopleSearchForm(forms.Form):
    q = forms.CharField(
        label=_("Search by name, club or licence number"), max_length=200, required=False
    )
