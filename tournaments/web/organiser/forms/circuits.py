"""Forms of the organiser's circuit pages: the circuit and its rules, an event, a move.

They only shape input (the points table typed as "100, 70, 50, 40", the towns as
"Inca, Binissalem"); whether it makes sense is said by ``tournaments.circuits.services``,
whose sentences go back beside the field they name (``params["field"]``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments import widgets
from tournaments.models import Championship, Circuit, CircuitEvent, RatingFamily

# What separates the numbers of a typed table: commas, semicolons, spaces; a trailing
# ellipsis ("100, 70, 50…") is the organiser saying "and so on", not a number.
_SEPARATORS = re.compile(r"[,;\s]+")


def split_list(text: str, *, numbers: bool) -> list[str]:
    """The items of a typed list: numbers split on commas and spaces, towns (which may
    hold spaces, "Sant Llorenç") on commas and semicolons only.

    >>> split_list("100, 70 ,50…", numbers=True)
    ['100', '70', '50']
    >>> split_list("Inca; Sant Llorenç des Cardassar,", numbers=False)
    ['Inca', 'Sant Llorenç des Cardassar']
    """
    text = text.replace("…", " ").replace("...", " ")
    parts = _SEPARATORS.split(text) if numbers else re.split(r"[,;\n]+", text)
    return [part.strip() for part in parts if part.strip()]


def add_errors(form: forms.Form, error: ValidationError) -> None:
    """A service's sentence beside the field it names, else above the form."""
    params = getattr(error, "params", None) or {}
    field = params.get("field") if isinstance(params, dict) else None
    form.add_error(field if field in form.fields else None, error.messages)


def _date_input() -> forms.DateInput:
    return widgets.DateInput()


class CircuitForm(forms.Form):
    """A circuit's name, dates and rules; its short name only when it is created (the
    public address stays)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Short name"),
        max_length=100,
        help_text=_("In the circuit's address: letters, numbers and hyphens."),
    )
    family = forms.ChoiceField(label=_("Rules family"), choices=RatingFamily.choices)
    start_date = forms.DateField(label=_("Start date"), widget=_date_input())
    end_date = forms.DateField(label=_("End date"), widget=_date_input())
    points = forms.CharField(
        label=_("Points per placement"),
        max_length=500,
        help_text=_("For the 1st, 2nd, 3rd... as 100, 70, 50, 40: a place past the end scores 0."),
    )
    best_of = forms.IntegerField(
        label=_("Results that count (best N)"),
        required=False,
        help_text=_("Empty: every result counts."),
    )
    qualify_per_event = forms.IntegerField(
        label=_("Teams qualified by each qualifier"), min_value=0, max_value=100, initial=1
    )
    qualify_by_points = forms.IntegerField(
        label=_("Other teams qualified by circuit points"), min_value=0, max_value=1000, initial=0
    )
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, circuit: Circuit | None = None, **kwargs: Any) -> None:
        bound = bool(args and args[0] is not None) or kwargs.get("data") is not None
        if circuit is not None and not bound:
            kwargs.setdefault(
                "initial",
                {
                    "name": circuit.name,
                    "family": circuit.family,
                    "start_date": circuit.start_date,
                    "end_date": circuit.end_date,
                    "points": ", ".join(str(p) for p in circuit.points),
                    "best_of": circuit.best_of,
                    "qualify_per_event": circuit.qualify_per_event,
                    "qualify_by_points": circuit.qualify_by_points,
                    "description": circuit.description,
                },
            )
        elif circuit is None and not bound:
            kwargs.setdefault(
                "initial", {"points": "100, 70, 50, 40, 30, 25, 20, 15, 10, 5", "best_of": None}
            )
        super().__init__(*args, **kwargs)
        self.circuit = circuit
        if circuit is not None:
            del self.fields["slug"]

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        kwargs = {
            "name": data["name"],
            "family": data["family"],
            "start_date": data["start_date"],
            "end_date": data["end_date"],
            "points": split_list(data["points"], numbers=True),
            "best_of": data["best_of"],
            "qualify_per_event": data["qualify_per_event"],
            "qualify_by_points": data["qualify_by_points"],
            "description": data["description"],
        }
        if self.circuit is None:
            kwargs["slug"] = data["slug"]
        return kwargs


class EventForm(forms.Form):
    """An event's kind, weight, place and towns; ``championships`` (the organiser's, in
    no circuit yet) adds the choice of which championship, for a new event."""

    kind = forms.ChoiceField(label=_("Kind"), choices=CircuitEvent.Kind.choices)
    weight = forms.DecimalField(
        label=_("Weight"),
        max_digits=5,
        decimal_places=2,
        initial=1,
        help_text=_("Its points are the table's times this: 2 for a major event, 0.5 a minor."),
    )
    place = forms.CharField(
        label=_("Town or region"),
        max_length=200,
        required=False,
        help_text=_("What the public reads: Inca, Llevant..."),
    )
    towns = forms.CharField(
        label=_("Only teams from these towns"),
        max_length=2000,
        required=False,
        help_text=_(
            "A qualifier's entry form then asks each team's town. Separate them with commas;"
            " empty: any team may enter."
        ),
    )

    def __init__(
        self,
        *args: Any,
        event: CircuitEvent | None = None,
        championships: Iterable[Championship] | None = None,
        **kwargs: Any,
    ) -> None:
        bound = bool(args and args[0] is not None) or kwargs.get("data") is not None
        if event is not None and not bound:
            kwargs.setdefault(
                "initial",
                {
                    "kind": event.kind,
                    "weight": event.weight.normalize(),
                    "place": event.place,
                    "towns": ", ".join(event.towns),
                },
            )
        super().__init__(*args, **kwargs)
        if championships is not None:
            self.fields = {
                "championship": forms.ModelChoiceField(
                    label=_("Championship"),
                    queryset=championships,
                    empty_label=None,
                ),
                **self.fields,
            }

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        kwargs = {
            "kind": data["kind"],
            "weight": data["weight"],
            "place": data["place"],
            "towns": split_list(data["towns"], numbers=False),
        }
        if "championship" in data:
            kwargs["championship"] = data["championship"]
        return kwargs


class MoveForm(forms.Form):
    """Which qualifier a team moves to: the circuit's others."""

    event = forms.ModelChoiceField(
        label=_("Move to"), queryset=CircuitEvent.objects.none(), empty_label=None
    )

    def __init__(self, *args: Any, events: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["event"]
        field.queryset = events
        field.label_from_instance = lambda event: (
            f"{event.championship.name} ({event.place})" if event.place else event.championship.name
        )
