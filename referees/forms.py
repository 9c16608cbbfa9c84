"""Forms of the referee pages: seating, penalty, void, declared points, pica-pica pairs.

They only check what a referee typed or chose; the engine judges whether it may happen.
:func:`posted_json` holds the page's hidden fields to the same bounds, so a tampered post
is refused here, before the engine or the database sees it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.core import validators
from django.utils.translation import gettext_lazy as _

from referees.entry import damaged, parse_json
from scoring import RuleSet

# What a referee may type as declared points (the engine takes 0–38 for both).
ENVIDO_POINTS = (0, 33)
FLOR_POINTS = (20, 38)


def _bad_text(text: str) -> bool:
    # A lone surrogate (JSON "\ud800") cannot be encoded to UTF-8: the page would fail to
    # render and PostgreSQL would refuse it; nor does PostgreSQL store a NUL.
    return "\x00" in text or any("\ud800" <= char <= "\udfff" for char in text)


def _bad_points(node: dict[str, Any], rules: RuleSet) -> bool:
    penalty = node.get("penalty")
    if isinstance(penalty, dict):
        points = penalty.get("points")
        if type(points) is int and not 1 <= points <= rules.max_penalty:
            return True
    for what, (low, high) in (("envido", ENVIDO_POINTS), ("flor", FLOR_POINTS)):
        declared = node.get(what)
        if isinstance(declared, dict) and any(
            type(n) is int and not low <= n <= high for n in declared.values()
        ):
            return True
    return False


def posted_json(raw: str, *, rules: RuleSet) -> Any:
    """A hidden field of the tablet (the hand so far, or one action) parsed and held to what
    the page's own forms allow, or the "damaged" error: text the database could not store
    (NUL, lone surrogates), fractions, NaN or infinities (no event has one), and penalty
    or declared points out of their bounds."""
    if _bad_text(raw):
        raise damaged()
    data = parse_json(raw)
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if any(_bad_text(k) for k in node) or _bad_points(node, rules):
                raise damaged()
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, str):
            if _bad_text(node):
                raise damaged()
        elif isinstance(node, float):
            raise damaged()
    return data


def _player_choices(players: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    return [("", "—"), *players]


class SeatingForm(forms.Form):
    """Every player once, counter-clockwise from the first hand's mano."""

    def __init__(
        self, *args: Any, players: Sequence[tuple[str, str]], initial_seats: Sequence[str], **kw
    ) -> None:
        super().__init__(*args, **kw)
        self.count = len(players)
        for index in range(self.count):
            label = (
                _("Seat 1: the first mano")
                if index == 0
                else _("Seat %(number)s") % {"number": index + 1}
            )
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=label,
                choices=_player_choices(players),
                initial=initial_seats[index] if index < len(initial_seats) else "",
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seats = [data.get(f"seat_{i}") for i in range(self.count)]
        if all(seats) and len(set(seats)) != len(seats):
            raise forms.ValidationError(_("Each player must sit in exactly one seat."))
        data["seats"] = seats
        return data


class PenaltyForm(forms.Form):
    """Points to one side, from 1 to :func:`penalty_max` of the match's rule set."""

    side = forms.ChoiceField(label=_("To"), widget=forms.RadioSelect)
    points = forms.IntegerField(label=_("Points"), min_value=1, initial=1)
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(
        self, *args: Any, sides: Sequence[tuple[str, str]], rules: RuleSet, **kw: Any
    ) -> None:
        super().__init__(*args, prefix="penalty", **kw)
        self.fields["side"].choices = list(sides)
        points = self.fields["points"]
        points.max_value = rules.max_penalty
        points.validators.append(validators.MaxValueValidator(points.max_value))
        points.widget.attrs["max"] = points.max_value

    def event(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"penalty": {"to": data["side"], "points": data["points"], "reason": data["reason"]}}


class VoidForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, prefix="void", **kw)

    def event(self) -> dict[str, Any]:
        return {"void": self.cleaned_data["reason"]}


class PointsForm(forms.Form):
    """Declared envido (0–33) or flor (20–38) points, one optional number per player."""

    def __init__(
        self, *args: Any, what: str, players: Sequence[tuple[str, str]], **kw: Any
    ) -> None:
        super().__init__(*args, prefix=what, **kw)
        self.what = what
        low, high = ENVIDO_POINTS if what == "envido" else FLOR_POINTS
        for key, name in players:
            self.fields[key] = forms.IntegerField(
                label=name,
                min_value=low,
                max_value=high,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors and all(value is None for value in data.values()):
            raise forms.ValidationError(_("Write the points of at least one player."))
        return data

    def event(self) -> dict[str, Any]:
        values = {key: value for key, value in self.cleaned_data.items() if value is not None}
        return {self.what: values}


class PairsForm(forms.Form):
    """Pica-pica: who faces whom, each pair's mano first, in the order they are entered."""

    def __init__(
        self,
        *args: Any,
        players: Sequence[tuple[str, str]],
        initial_pairs: Sequence[Sequence[str]],
        **kw: Any,
    ) -> None:
        super().__init__(*args, prefix="pairs", **kw)
        self.count = len(players) // 2
        for index in range(self.count):
            first, second = initial_pairs[index] if index < len(initial_pairs) else ("", "")
            self.fields[f"mano_{index}"] = forms.ChoiceField(
                label=_("Pair %(number)s: mano") % {"number": index + 1},
                choices=_player_choices(players),
                initial=first,
            )
            self.fields[f"rival_{index}"] = forms.ChoiceField(
                label=_("Pair %(number)s: opponent") % {"number": index + 1},
                choices=_player_choices(players),
                initial=second,
            )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"mano_{i}"], self[f"rival_{i}"]) for i in range(self.count)]

    def pairs(self) -> list[list[str]]:
        data = self.cleaned_data
        return [[data[f"mano_{i}"], data[f"rival_{i}"]] for i in range(self.count)]


_CARD = re.compile(r"(1[0-2]|[1-9])[EBOC]")


class CardsForm(forms.Form):
    """Card-by-card entry: the three cards dealt to each player, written like ``1E 7O 4C``
    (rank, then E espadas, B bastos, O oros, C copas); a player left empty plays any card
    not yet seen. The engine judges the cards (the deck, a card given twice)."""

    def __init__(
        self,
        *args: Any,
        players: Sequence[tuple[str, str]],
        initial: dict[str, list[str]],
        **kw: Any,
    ) -> None:
        super().__init__(*args, prefix="cards", **kw)
        for key, name in players:
            self.fields[key] = forms.CharField(
                label=name,
                required=False,
                max_length=20,
                initial=" ".join(initial.get(key, [])),
                widget=forms.TextInput(
                    attrs={"autocapitalize": "characters", "placeholder": "1E 7O 4C"}
                ),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for key, value in list(data.items()):
            cards = (value or "").replace(",", " ").upper().split()
            if cards and (len(cards) != 3 or not all(_CARD.fullmatch(c) for c in cards)):
                self.add_error(key, _("Write three cards like 1E 7O 4C (E, B, O, C: the suit)."))
            data[key] = cards
        return data

    def cards(self) -> dict[str, list[str]]:
        return {key: cards for key, cards in self.cleaned_data.items() if cards}


class CorrectionForm(forms.Form):
    """Why the hand changes, and the match's last result change when the page was shown
    (a change made meanwhile by someone else is refused: ``stale_result``)."""

    # The reason sits in the editor's form with its step buttons: a browser's own check of
    # a required field would block every tap until it is typed; the save checks it.
    use_required_attribute = False

    reason = forms.CharField(
        label=_("Why does the hand change?"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Kept in the match's history with your name."),
    )
    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
