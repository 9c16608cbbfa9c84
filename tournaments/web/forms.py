"""Forms of the organiser pages. They only shape input: every rule is checked by a service.

A form turns the fields into the keyword arguments of a service (``service_kwargs``);
the view calls the service and puts a ``TournamentError`` back on the form with
:func:`add_service_error`, on the field it names when there is one.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import PRESETS, RuleSet
from tournaments.championships import selectors as championship_selectors
from tournaments.models import SEED_MAX, Championship, Match, Team
from tournaments.stages import registry
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
# A championship seats two teams of 1 to 4 players: 2, 4, 6 or 8 at a table, never the
# three of a gallo.
TABLE_SIZES = (2, 4, 6, 8)


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
    sizes = TABLE_SIZES if team_size is None else (2 * team_size,)
    return [
        choice
        for choice in scoring.options_for(preset)
        if not choice.players or any(size in choice.players for size in sizes)
    ]


def _option_field(choice: scoring.Choice, initial: Any) -> forms.Field:
    label = OPTION_LABELS.get(choice.key, choice.key)
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


def add_service_error(form: forms.Form, error: ValidationError) -> None:
    """Show a service's error on ``form``: on the option it names, else above the form."""
    params = getattr(error, "params", None) or {}
    field = params.get("option") if isinstance(params, dict) else None
    if field in form.fields:
        form.add_error(field, error.messages)
    else:
        form.add_error(None, error.messages)


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
        self, preset: str, current: RuleSet | None = None, team_size: int | None = None
    ) -> None:
        defaults = current or PRESETS[preset]
        self.preset_name = preset
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rules"), choices=PRESET_CHOICES, initial=preset
        )
        self._rule_fields = []
        for choice in rule_choices(preset, team_size):
            self.fields[choice.key] = _option_field(choice, getattr(defaults, choice.key))
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
            if value != getattr(defaults, key):
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
    start_date = forms.DateField(
        label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
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
    start_date = forms.DateField(
        label=_("Start date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
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
            preset, current if preset == current.preset else None, championship.team_size
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
            " captain are optional); download the template below."
        ),
    )


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
        self._variants = {variant.key: (fmt, variant) for fmt, variant in registry.variants()}
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
        self.fields["teams"].queryset = championship.teams.all()
        self.fields["teams"].initial = list(championship.teams.values_list("pk", flat=True))

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
            settings[name] = fmt.defaults[name] if value is None else value
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
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
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


class RefereeInviteForm(forms.Form):
    """Who to invite: a name to recognise the invitation by, and an email to send it to."""

    name = forms.CharField(label=_("Name"), max_length=150, required=False)
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional: the link is also shown here, to send it any way you like."),
    )


class RefereeAddForm(forms.Form):
    """An existing account, by user name or email."""

    user = forms.CharField(
        label=_("User name or email"),
        max_length=254,
        help_text=_("Someone who already has an account on this site."),
    )

    def clean_user(self) -> Any:
        wanted = self.cleaned_data["user"].strip()
        users = get_user_model().objects.filter(is_active=True)
        found = users.filter(username__iexact=wanted).first()
        if found is None and "@" in wanted:
            matches = list(users.filter(email__iexact=wanted)[:2])
            found = matches[0] if len(matches) == 1 else None
        if found is None:
            raise ValidationError(_("No active account has this user name or email."))
        return found


class InvitationAcceptForm(forms.Form):
    """The invitee makes his account: his name, a user name and a password."""

    first_name = forms.CharField(label=_("First name"), max_length=150)
    last_name = forms.CharField(label=_("Last name"), max_length=150)
    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=_("What you will log in with: letters, digits and @ . + - _ only."),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            user = get_user_model()(
                username=cleaned.get("username", ""),
                first_name=cleaned.get("first_name", ""),
                last_name=cleaned.get("last_name", ""),
            )
            try:
                password_validation.validate_password(first, user)
            except ValidationError as error:
                self.add_error("password1", error)
        return cleaned


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
                label = _("%(stage)s, round %(number)s") % {"stage": stage.name, "number": number}
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
