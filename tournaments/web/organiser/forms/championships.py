"""A championship's forms: created, its details, its rules (the engine's options, named
for people) and its tie-break chain.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import PRESETS, RuleSet
from tournaments import widgets
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Championship
from tournaments.standings import selectors as standing_selectors

PRESET_CHOICES = [
    ("argentine", _("Argentine truco without flor")),
    ("argentine_flor", _("Argentine truco with flor")),
    ("trucardo", _("Trucardo")),
    ("catalan", _("Catalan truc")),
]

# The engine (``scoring.options_for``) says which options a preset has and which values
# each accepts; this page only names them for people.
OPTION_LABELS: dict[str, Any] = {
    "target": _("Points per game"),
    "best_of": _("Games per match"),
    "flor": _("Flor"),
    "hierarchy": _("Card hierarchy"),
    "envido_max_calls": _("Envido calls allowed in a chain"),
    "envido_chain": _("Order of the envido calls"),
    "falta_envido": _("Value of the falta envido"),
    "mazo_envido_point": _("One more point for going to the mazo at the start"),
    "contraflor_al_resto": _("Value of the contraflor al resto"),
    "contraflor_value": _("Value of the contraflor"),
    "pica_pica": _("Pica-pica (6 and 8 players)"),
    "pica_pica_until": _("Pica-pica until a side reaches"),
    "gallo": _("Gallo (3 players)"),
    "mestre_penalty": _("Penalty of the mestre"),
    "penalty_max": _("Most points of one penalty"),
}
VALUE_LABELS: dict[tuple[str, Any], Any] = {
    ("best_of", 1): _("A single game"),
    ("best_of", 3): _("Best of three games"),
    ("hierarchy", "traditional"): _("Traditional"),
    ("hierarchy", "inverse"): _("Inverse"),
    ("envido_chain", "ladder"): _("Envido, real envido, falta envido, in that order"),
    ("envido_chain", "free"): _("Any of the three, in any order"),
    ("falta_envido", "leader_to_target"): _("What the leader needs to win the game"),
    ("falta_envido", "rival_to_half"): _("What the losing side needs to reach 15 or 30"),
    ("falta_envido", "leader_to_half"): _("What the leader needs to reach 15 or 30"),
    ("falta_envido", "whole_chico"): _("The whole game"),
    ("contraflor_al_resto", "resto_plus_flores"): _("The rest of the game plus the flores"),
    ("contraflor_al_resto", "whole_chico"): _("The whole game"),
    ("contraflor_value", 6): _("6 points"),
    ("contraflor_value", "per_flor"): _("3 points for each flor sung"),
    ("gallo", "por_turno"): _("By turn"),
    ("gallo", "fijo"): _("Fixed"),
    ("mestre_penalty", "to_opponent"): _("Points to the opponent"),
    ("mestre_penalty", "from_mestre"): _("Points taken from the mestre"),
}
# A championship seats two teams of 1 to 4 players (2, 4, 6 or 8 at a table), or single
# players three to a table (gallo): the engine's option ``gallo`` is for 3 players only,
# so a form that offered the sizes of two teams alone never showed it.
TABLE_SIZES = (2, 3, 4, 6, 8)
# Chosen, the gallo option is always stored (even at the preset's default value): its
# presence is what makes a championship of tables of three (``Championship.plays_gallo``).
ALWAYS_STORED = ("gallo",)


def _token(value: Any) -> str:
    """How an option's value travels in a form."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _value_label(key: str, value: Any) -> Any:
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    return VALUE_LABELS.get((key, value), str(value))


def rule_choices(preset: str, team_size: int | None = None) -> list[scoring.Choice]:
    """The options an organiser may set for ``preset``, from the engine.

    With ``team_size``, only those that can matter at that table; without it, those that
    can matter at any table a championship can have.
    """
    if team_size is None:
        sizes: tuple[int, ...] = TABLE_SIZES
    else:
        sizes = (2, 3) if team_size == 1 else (2 * team_size,)
    return [
        choice
        for choice in scoring.options_for(preset)
        if not choice.players or any(size in choice.players for size in sizes)
    ]


def _option_field(choice: scoring.Choice, initial: Any) -> forms.Field:
    label = OPTION_LABELS.get(choice.key, choice.key)
    if choice.key in ALWAYS_STORED:
        # Left empty: two sides at the table (no gallo).
        by_value = {_token(v): v for v in choice.values}
        return forms.TypedChoiceField(
            label=label,
            choices=[("", _("No: two sides at each table"))]
            + [(_token(v), _value_label(choice.key, v)) for v in choice.values],
            coerce=by_value.__getitem__,
            empty_value=None,
            initial="" if initial is None else _token(initial),
            required=False,
            help_text=_("Single players three to a table: choose teams of 1."),
        )
    if (
        all(isinstance(v, int) and not isinstance(v, bool) for v in choice.values)
        and len(choice.values) > 6
    ):
        # A range (the penalty cap: 1 to the target) is typed, within the engine's bounds.
        return forms.IntegerField(
            label=label,
            min_value=min(choice.values),
            max_value=max(choice.values),
            initial=initial,
            required=False,
        )
    by_token = {_token(v): v for v in choice.values}
    return forms.TypedChoiceField(
        label=label,
        choices=[(_token(v), _value_label(choice.key, v)) for v in choice.values],
        coerce=by_token.__getitem__,
        initial=_token(initial),
        required=False,
    )


class TieBreakChainMixin:
    """Fields ``tiebreak_1``... picking the tie-break chain in order (blank ends it)."""

    def add_tiebreak_fields(self, chain: list[str]) -> None:
        choices = [("", "—"), *standing_selectors.tiebreak_choices()]
        # Room for the chain plus one more, at least six: a longer chain is never needed.
        count = min(len(choices) - 1, max(len(chain) + 1, 6))
        for index in range(count):
            self.fields[f"tiebreak_{index + 1}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": index + 1},
                choices=choices,
                required=False,
                initial=chain[index] if index < len(chain) else "",
            )

    def _bound(self, names: Any) -> list[Any]:
        return [self[name] for name in names if name in self.fields]

    def tiebreak_field_names(self) -> list[str]:
        return [name for name in self.fields if name.startswith("tiebreak_")]

    def tiebreak_chain(self) -> list[str]:
        """The chosen keys in order; blanks are skipped (the service checks the chain)."""
        values = [self.cleaned_data.get(name) for name in self.tiebreak_field_names()]
        return [value for value in values if value]


class RulesMixin(TieBreakChainMixin):
    """The preset select and the options of its family, initially the preset's defaults."""

    def add_rule_fields(
        self,
        preset: str,
        current: RuleSet | None = None,
        team_size: int | None = None,
        spec: Any = None,
    ) -> None:
        """``spec``: the stored rules, which say whether an always-stored option (gallo)
        was chosen at all (a ``RuleSet`` has every option at some value)."""
        defaults = current or PRESETS[preset]
        chosen = spec if isinstance(spec, dict) else {}
        self.preset_name = preset
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rules"), choices=PRESET_CHOICES, initial=preset
        )
        self._rule_fields = []
        for choice in rule_choices(preset, team_size):
            initial = getattr(defaults, choice.key)
            if choice.key in ALWAYS_STORED and choice.key not in chosen:
                initial = None
            self.fields[choice.key] = _option_field(choice, initial)
            self._rule_fields.append(choice.key)

    def rule_field_names(self) -> list[str]:
        return list(self._rule_fields)

    def rules_fieldsets(self) -> list[tuple[Any, list[Any]]]:
        return [
            (_("Rules"), self._bound(["preset", *self.rule_field_names()])),
            (_("Tie-breaks, in order"), self._bound(self.tiebreak_field_names())),
        ]

    def rule_options(self) -> dict[str, Any]:
        """The options that differ from the preset's defaults (what the rules store)."""
        preset = self.cleaned_data["preset"]
        defaults = PRESETS[preset]
        options = {}
        for key in self.rule_field_names():
            value = self.cleaned_data.get(key)
            if value in (None, ""):
                continue
            if key in ALWAYS_STORED or value != getattr(defaults, key):
                options[key] = value
        return options


def _preset_from(data: Any, initial: str) -> str:
    preset = data.get("preset") if data is not None else None
    return preset if preset in PRESETS else initial


def _time_zone_field() -> forms.Field:
    zones = sorted(zoneinfo.available_timezones())
    return forms.ChoiceField(
        label=_("Time zone"),
        choices=[(zone, zone.replace("_", " ")) for zone in zones],
        initial=settings.TIME_ZONE,
        # Left out (an older form, a script): the site's zone, or the one already set.
        required=False,
        help_text=_("Match times are shown and exported in this zone."),
    )


class ChampionshipCreateForm(RulesMixin, forms.Form):
    """A new championship: details, a preset and its options, the tie-break chain."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Short name (in the address)"),
        max_length=100,
        required=False,
        help_text=_("Letters, digits and hyphens. Empty: made from the name."),
    )
    start_date = forms.DateField(label=_("Start date"), widget=widgets.DateInput())
    end_date = forms.DateField(label=_("End date"), required=False, widget=widgets.DateInput())
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    time_zone = _time_zone_field()
    team_size = forms.TypedChoiceField(
        label=_("Players per team"),
        choices=[(1, "1"), (2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=2,
    )

    def __init__(self, *args: Any, preset: str = "argentine", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_rule_fields(_preset_from(self.data if self.is_bound else None, preset))
        if self.preset_name == "catalan":
            # Catalan truc is played by squads of three (docs/rules.md), each with its cap.
            self.fields["team_size"].initial = 3
        self.add_tiebreak_fields(list(standing_selectors.default_tiebreaks()))

    def fieldsets(self) -> list[tuple[Any, list[Any]]]:
        details = ["name", "slug", "start_date", "end_date", "venue", "time_zone", "team_size"]
        return [(_("Details"), self._bound(details)), *self.rules_fieldsets()]

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.data.get("name", ""))[:100]
        if not slug:
            raise ValidationError(_("Give a short name made of letters and digits."))
        if championship_selectors.slug_taken(slug):
            raise ValidationError(_("Another championship already uses this short name."))
        return slug

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("A championship cannot end before it starts."))
        if cleaned.get("gallo") and cleaned.get("team_size") != 1:
            self.add_error(
                "gallo",
                _("Tables of three (gallo) are played by single players: choose teams of 1."),
            )
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "slug": data["slug"],
            "start_date": data["start_date"],
            "end_date": data.get("end_date"),
            "venue": data.get("venue", ""),
            "time_zone": data.get("time_zone") or "",
            "team_size": data["team_size"],
            "preset": data["preset"],
            "options": self.rule_options(),
            "tiebreaks": self.tiebreak_chain(),
        }


class ChampionshipDetailsForm(forms.Form):
    """A championship's name, dates and venue."""

    name = forms.CharField(label=_("Name"), max_length=200)
    start_date = forms.DateField(label=_("Start date"), widget=widgets.DateInput())
    end_date = forms.DateField(label=_("End date"), required=False, widget=widgets.DateInput())
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    absent_teams = forms.ChoiceField(
        label=_("Teams absent at check-in"),
        choices=Championship.AbsentTeams.choices,
        initial=Championship.AbsentTeams.WALKOVER,
        help_text=Championship._meta.get_field("absent_teams").help_text,
        widget=forms.RadioSelect,
        required=False,  # left out: unchanged
    )
    time_zone = _time_zone_field()

    @classmethod
    def for_championship(
        cls, championship: Championship, data: Any = None
    ) -> ChampionshipDetailsForm:
        initial = {
            "name": championship.name,
            "start_date": championship.start_date,
            "end_date": championship.end_date,
            "venue": championship.venue,
            "absent_teams": championship.absent_teams,
            "time_zone": championship.time_zone,
        }
        return cls(data, initial=initial)

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "start_date": data["start_date"],
            "end_date": data.get("end_date"),
            "venue": data.get("venue", ""),
            "absent_teams": data.get("absent_teams") or None,
            "time_zone": data.get("time_zone") or None,
        }


class ChampionshipRulesForm(RulesMixin, forms.Form):
    """Change the rules and tie-breaks of a championship (until hands are recorded)."""

    def __init__(self, *args: Any, championship: Championship, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = championship_selectors.rule_set(championship)
        preset = _preset_from(self.data if self.is_bound else None, current.preset)
        self.add_rule_fields(
            preset,
            current if preset == current.preset else None,
            championship.team_size,
            championship.rules if preset == current.preset else None,
        )
        self.add_tiebreak_fields(list(championship.tiebreaks))

    def fieldsets(self) -> list[tuple[Any, list[Any]]]:
        return self.rules_fieldsets()

    def service_kwargs(self) -> dict[str, Any]:
        return {
            "preset": self.cleaned_data["preset"],
            "options": self.rule_options(),
            "tiebreaks": self.tiebreak_chain(),
        }
