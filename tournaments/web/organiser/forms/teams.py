"""A team's forms: entered by hand or by a CSV file, edited, a player substituted."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import widgets
from tournaments.models import SEED_MAX, WEEKDAYS, Championship, Person, Team
from tournaments.people.services import PersonDetails
from tournaments.stages import registry
from tournaments.web.shared.forms import OneLineMixin

# What more may be told of each player (optional): his person's, never shown publicly.
PLAYER_EXTRAS = ("licence", "email", "phone")


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
        form.fields[f"licence_{index}"] = forms.CharField(
            label=_("Licence number"), max_length=50, required=False
        )
        form.fields[f"email_{index}"] = forms.EmailField(label=_("Email"), required=False)
        form.fields[f"phone_{index}"] = forms.CharField(
            label=_("Phone"), max_length=40, required=False
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


class PeopleChoiceMixin:
    """The players' details as typed, and the organiser's answer, player by player, to
    "is this the same person as ...?" when a typed player has likely matches."""

    fields: dict[str, forms.Field]
    data: Any
    cleaned_data: dict[str, Any]
    size: int

    def player_groups(self) -> list[dict[str, Any]]:
        """Each player's fields, for the template: the name, then the optional rest."""
        groups = []
        for i in range(1, self.size + 1):
            extras = [self[f"{extra}_{i}"] for extra in PLAYER_EXTRAS]  # type: ignore[index]
            shown = any(field.value() or field.errors for field in extras)
            groups.append({"name": self[f"player_{i}"], "extras": extras, "open": shown})  # type: ignore[index]
        return groups

    def team_fields(self) -> list[Any]:
        """The team's own fields (name, seed, club, its cap de colla), not a player's."""
        prefixes = ("player_", "person_", *(f"{extra}_" for extra in PLAYER_EXTRAS))
        return [self[name] for name in self.fields if not name.startswith(prefixes)]  # type: ignore[index]

    def typed(self, indexes: list[int]) -> list[PersonDetails]:
        """The details typed for the players ``indexes`` (from 1)."""
        data = self.cleaned_data
        club = data.get("club", "") or ""
        return [
            PersonDetails(
                name=(data.get(f"player_{i}") or "").strip(),
                club=club,
                licence=data.get(f"licence_{i}", ""),
                email=data.get(f"email_{i}", ""),
                phone=data.get(f"phone_{i}", ""),
                person=getattr(self, "chosen", {}).get(i),
            )
            for i in indexes
        ]

    def ask_people(self, indexes: list[int], matches: list[list[Person]]) -> bool:
        """Add a choice for each player of ``indexes`` with likely ``matches`` (as
        ``people.selectors.person_likely_matches`` answers them); take the answers posted.
        Returns whether some are still to be given: the form then asks before creating.
        """
        self.chosen: dict[int, Person | None] = {}
        self.asked: list[str] = []
        pending = False
        for i, candidates in zip(indexes, matches, strict=True):
            if not candidates:
                continue
            name = f"person_{i}"
            choices = [(str(p.pk), _person_label(p)) for p in candidates]
            choices.append(("new", _("A new person")))
            self.fields[name] = forms.ChoiceField(
                label=_("Who is %(player)s?") % {"player": self.cleaned_data[f"player_{i}"]},
                choices=choices,
                widget=forms.RadioSelect,
                required=False,
            )
            self.asked.append(name)
            answer = self.data.get(name, "")
            if answer == "new":
                self.chosen[i] = None
            elif answer in {str(p.pk) for p in candidates}:
                self.chosen[i] = next(p for p in candidates if str(p.pk) == answer)
            else:
                pending = True
        return pending

    def asked_fields(self) -> list[Any]:
        return [self[name] for name in getattr(self, "asked", [])]  # type: ignore[index]


def _person_label(person: Person) -> str:
    who = f"{person.public_name} ({person.club})" if person.club else person.public_name
    played = ", ".join(c.name for c in getattr(person, "championships", []))
    label = _("The same person as %(person)s") % {"person": who}
    return f"{label} · {played}" if played else str(label)


class TeamForm(OneLineMixin, PeopleChoiceMixin, forms.Form):
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

    def indexes(self) -> list[int]:
        return list(range(1, self.size + 1))

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        players = self.typed(self.indexes())
        captain = players[data["captain"] - 1].name if self.needs_captain else None
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
            "UTF-8, one row per player with the columns team and player (seed, club,"
            " captain, licence, email and phone are optional); download the template"
            " above, in your language."
        ),
    )


class TeamEditForm(OneLineMixin, PeopleChoiceMixin, forms.Form):
    """A team's name, seed, club, its players' names (and their people's licence number,
    email and phone) and its cap de colla."""

    name = forms.CharField(label=_("Team name"), max_length=200)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=SEED_MAX, required=False)
    club = forms.CharField(label=_("Club or city"), max_length=200, required=False)

    venue_name = forms.CharField(label=_("Home venue"), max_length=200, required=False)
    venue_address = forms.CharField(label=_("Home venue's address"), max_length=300, required=False)
    home_weekday = forms.TypedChoiceField(
        label=_("Home weekday (league)"),
        choices=[("", _("The league's")), *WEEKDAYS],
        coerce=int,
        empty_value=None,
        required=False,
    )
    home_time = forms.TimeField(
        label=_("Home hour (league)"),
        required=False,
        widget=widgets.TimeInput(),
    )

    def __init__(self, *args: Any, team: Team, **kwargs: Any) -> None:
        members = list(team.memberships.all())
        self.members = members
        initial = {"name": team.name, "seed": team.seed, "club": team.club}
        for name in ("venue_name", "venue_address", "home_weekday", "home_time"):
            initial[name] = getattr(team, name)
        for index, membership in enumerate(members, start=1):
            initial[f"player_{index}"] = membership.player.name
            for extra in PLAYER_EXTRAS:
                initial[f"{extra}_{index}"] = getattr(membership.player.person, extra)
            if membership.is_captain:
                initial["captain"] = index
        super().__init__(*args, initial=initial, **kwargs)
        championship = team.championship
        self.size = max(championship.team_size, len(members))
        self.needs_captain = _add_player_fields(
            self, championship, required=len(members), new=False
        )

    def indexes(self) -> list[int]:
        """The seats where a new player is typed (the others keep their person)."""
        return [
            i
            for i in range(len(self.members) + 1, self.size + 1)
            if (self.cleaned_data.get(f"player_{i}") or "").strip()
        ]

    def contact_changes(self) -> list[tuple[int, Person, dict[str, str]]]:
        """For each player already in the team whose person's licence, email or phone was
        changed here: (his index, his person, the new values)."""
        changes = []
        for i, membership in enumerate(self.members, start=1):
            person = membership.player.person
            new = {
                extra: self.cleaned_data.get(f"{extra}_{i}", "").strip()
                for extra in PLAYER_EXTRAS
                if self.cleaned_data.get(f"{extra}_{i}", "").strip() != getattr(person, extra)
            }
            if new:
                changes.append((i, person, new))
        return changes

    def service_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        new = dict(zip(self.indexes(), self.typed(self.indexes()), strict=True))
        return {
            "name": data["name"],
            "seed": data.get("seed"),
            "club": data.get("club", ""),
            "players": [new.get(i) or data.get(f"player_{i}", "") for i in range(1, self.size + 1)],
            "captain": data.get("captain") or None,
        }

    def home_kwargs(self) -> dict[str, Any]:
        """The team's home venue, night and hour (``team_home_set``)."""
        data = self.cleaned_data
        return {
            "venue_name": data.get("venue_name", ""),
            "venue_address": data.get("venue_address", ""),
            "home_weekday": data.get("home_weekday"),
            "home_time": data.get("home_time"),
        }


class SubstitutionForm(OneLineMixin, forms.Form):
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
            # Each round as its stage names it ("Quarter-finals"); the next one by number.
            names = {r.number: r.name_in(stage) for r in stage.rounds.all()}
            for number in range(1, next_number + 1):
                label = _("%(stage)s, %(round)s") % {
                    "stage": registry.stage_name(stage),
                    "round": names.get(number) or stage.round_title(number),
                }
                choices.append((f"{stage.pk}:{number}", label))
        self.fields["from_round"].choices = choices
        if stages and all(stage.is_league for stage, _n in stages):
            self.fields["from_round"].label = _("From matchday")
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
