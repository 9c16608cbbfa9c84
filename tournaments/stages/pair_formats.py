"""The stage formats of matches between two sides: round robin (single or double), a
league over dated matchdays, Swiss, single and double elimination, and groups then a
knockout (Tabbycat's draw generators). Listed in ``registry``; the pairing itself is pure
(``tournaments.formats``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import formats, widgets
from tournaments.errors import TournamentError
from tournaments.models import WEEKDAYS, Championship, Group, Match, Stage
from tournaments.stages import league, rounds
from tournaments.stages.format_base import (
    StageFormat,
    Variant,
    check_swiss_round_left,
    rounds_field,
)
from tournaments.standings.selectors import stage_standings


def _group_count_field() -> forms.Field:
    return forms.IntegerField(label=_("Number of groups"), min_value=1, max_value=64, initial=2)


def _advance_field() -> forms.Field:
    return forms.IntegerField(
        label=_("Teams advancing from each group (K)"), min_value=1, max_value=64, initial=2
    )


def _third_place_field() -> forms.Field:
    return forms.BooleanField(label=_("Third-place match"), required=False)


class RoundRobin(StageFormat):
    """Everyone against everyone (the circle method), once or twice."""

    key = "round_robin"
    label = _("Round robin")
    defaults = {"cycles": 1}
    uses_check_in = True

    @classmethod
    def variants(cls) -> list[Variant]:
        return [
            Variant("round_robin", _("Round robin, single"), {"cycles": 1}),
            Variant("round_robin_double", _("Round robin, double"), {"cycles": 2}),
        ]

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        if "teams" not in stage.settings:
            stage.settings["teams"] = rounds.seeded_team_ids(stage.teams.all())
            stage.save(update_fields=["settings"])
        schedule = rounds.schedule(stage.settings["teams"], stage.settings.get("cycles", 1))
        played = stage.rounds.count()
        if played >= len(schedule):
            raise TournamentError(
                _("Every round of this stage has already been generated."), code="no_round_left"
            )
        planned = schedule[played]
        round_ = rounds.new_round(stage, absent=absent)
        # The schedule is fixed: an absent team's match is its opponent's walkover.
        return rounds.create_pairings(stage, round_, planned.pairings, planned.bye, absent=absent)


class _IsoDateField(forms.DateField):
    """A date kept in the stage's settings (JSON) as ``YYYY-MM-DD``."""

    widget = widgets.DateInput

    def clean(self, value: Any) -> str | None:
        day = super().clean(value)
        return day.isoformat() if day else None


class _IsoTimeField(forms.TimeField):
    """An hour kept in the stage's settings (JSON) as ``HH:MM``."""

    widget = widgets.TimeInput

    def clean(self, value: Any) -> str | None:
        hour = super().clean(value)
        return hour.strftime("%H:%M") if hour else None


def _first_date_field() -> forms.Field:
    return _IsoDateField(label=_("First matchday's date (league)"))


def _interval_field() -> forms.Field:
    return forms.IntegerField(
        label=_("Days between matchdays"), min_value=1, max_value=60, initial=7
    )


def _weekday_field() -> forms.Field:
    return forms.TypedChoiceField(
        label=_("League's weekday"),
        choices=[("", _("The first matchday's")), *WEEKDAYS],
        coerce=int,
        empty_value=None,
    )


def _time_field() -> forms.Field:
    return _IsoTimeField(label=_("League's hour"), initial="21:00")


class _SkipDatesField(forms.CharField):
    """A league's blackout dates, typed day/month (every year) or day/month/year and
    separated by commas ("25/12, 1/1"), kept as ``league.skip_dates`` reads them ("12-25",
    "2027-04-03"). Empty: no date skipped."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return ", ".join(_day_month(entry) for entry in value)
        return value

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value) or ""
        found = []
        for part in (p.strip() for p in text.replace(";", ",").split(",")):
            if not part:
                continue
            entry = _parse_skip(part)
            if entry is None:
                raise forms.ValidationError(
                    _("%(date)s is not a day/month nor a day/month/year."),
                    code="bad_skip_date",
                    params={"date": part},
                )
            found.append(entry)
        return found


def _day_month(entry: str) -> str:
    """ "12-25" as "25/12", "2027-04-03" as "3/4/2027"."""
    parts = [int(p) for p in entry.split("-")]
    return "/".join(str(p) for p in reversed(parts))


def _parse_skip(text: str) -> str | None:
    """ "25/12" as "12-25", "3/4/2027" (or "2027-04-03") as "2027-04-03"; None if neither.

    >>> _parse_skip("25/12"), _parse_skip("3/4/2027"), _parse_skip("2027-04-03")
    ('12-25', '2027-04-03', '2027-04-03')
    >>> _parse_skip("31/2"), _parse_skip("tomorrow")
    (None, None)
    """
    try:
        if "-" in text:
            return dt.date.fromisoformat(text).isoformat()
        numbers = [int(p) for p in text.split("/")]
        if len(numbers) == 2:
            return dt.date(2000, numbers[1], numbers[0]).strftime("%m-%d")  # 2000: 29/2 too
        if len(numbers) == 3:
            return dt.date(numbers[2], numbers[1], numbers[0]).isoformat()
    except ValueError:
        return None
    return None


def _skip_dates_field() -> forms.Field:
    return _SkipDatesField(
        label=_("Dates without a matchday (league)"),
        required=False,
        initial=list(league.DEFAULT_SKIP_DATES),
        help_text=_(
            "Day/month (every year) or day/month/year, separated by commas. A matchday "
            "that would fall on one moves on to the next week. Empty: none skipped."
        ),
    )


class League(StageFormat):
    """A round robin played over a season, a matchday a week or so, at the clubs' venues.

    Every matchday is generated at once (the fixtures are published for the season), each
    dated; its matches get their day, hour and venue from the home team
    (:mod:`tournaments.stages.league`). Home and away: the second round mirrors the first.
    """

    key = Stage.LEAGUE
    label = _("League")
    defaults = {
        "cycles": 2,
        "first_date": None,
        "interval": 7,
        "weekday": None,
        "time": "21:00",
        "skip_dates": list(league.DEFAULT_SKIP_DATES),
    }
    fields = {
        "first_date": _first_date_field,
        "interval": _interval_field,
        "weekday": _weekday_field,
        "time": _time_field,
        "skip_dates": _skip_dates_field,
    }

    @classmethod
    def variants(cls) -> list[Variant]:
        return [
            Variant("league", _("League, single round"), {"cycles": 1}),
            Variant("league_home_away", _("League, home and away"), {"cycles": 2}),
        ]

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        return league.league_generate(stage)


class Swiss(StageFormat):
    """Teams on equal points meet, no rematch; a round once the previous one is decided."""

    key = "swiss"
    label = _("Swiss")
    defaults = {"rounds": 5}
    uses_check_in = True
    waits_for_results = True
    fields = {"rounds": rounds_field}

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        check_swiss_round_left(stage, default=5)
        rounds.check_all_decided(stage)
        standing = stage_standings(stage=stage, use_snapshot=False)
        if not stage.rounds.exists() and any(line.team.seed for line in standing):
            # No result yet: the seeds (the organiser's, or by rating) order the field, so
            # the first round pairs seed 1 with the first of the bottom half; not the lots.
            seeded = rounds.seeded_team_ids(line.team for line in standing)
            standing = sorted(standing, key=lambda line: seeded.index(line.team.pk))
        opponents: dict[int, set[int]] = {line.team.pk: set() for line in standing}
        byes: set[int] = set()
        for a, b, outcome in stage.matches.values_list("team_a_id", "team_b_id", "outcome"):
            if b is None and outcome == Match.Outcome.WALKOVER:
                continue  # absent at check-in: a loss, not a bye
            if b is None:
                byes.add(a)
            else:
                opponents[a].add(b)
                opponents[b].add(a)
        present = [line for line in standing if line.team.pk not in absent]
        if len(present) < 2:
            raise TournamentError(
                _("Fewer than two teams are checked in: no round can be paired."),
                code="too_few_present",
            )
        teams = formats.swiss_teams(
            [line.team.pk for line in present],
            {line.team.pk: line.points for line in standing},
            opponents,
            byes,
        )
        pairing = formats.swiss_pairings(teams)
        round_ = rounds.new_round(stage, absent=absent)
        created = rounds.create_pairings(stage, round_, pairing.pairings, pairing.bye)
        missing = sorted(absent & {line.team.pk for line in standing})
        if missing and stage.championship.absent_teams == Championship.AbsentTeams.WALKOVER:
            created += rounds.absence_losses(stage, round_, missing)
        return created


def _bracket_next(stage: Stage, *, double: bool) -> list[Match]:
    """Build the bracket from the seeds on the first call, then create the ready matches."""
    if "bracket" not in stage.settings:
        positions = formats.seeded_positions(rounds.seeded_team_ids(stage.teams.all()))
        stage.settings["bracket"] = {
            "positions": positions,
            "double": double,
            "reset": bool(stage.settings.get("reset", True)),
            "third_place": bool(stage.settings.get("third_place", False)),
        }
        stage.save(update_fields=["settings"])
    return _ready_bracket_matches(stage)


def _ready_bracket_matches(stage: Stage) -> list[Match]:
    created = rounds.bracket_sync(stage=stage)
    if not created:
        raise TournamentError(
            _("No match can be generated now: the bracket waits for results, or is finished."),
            code="nothing_to_generate",
        )
    return created


class SingleElimination(StageFormat):
    """A knockout bracket from the seeds; winners advance as results come in."""

    key = "single_elimination"
    label = _("Single elimination")
    defaults = {"third_place": False}
    has_bracket = True
    fields = {"third_place": _third_place_field}

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        return _bracket_next(stage, double=False)


class DoubleElimination(StageFormat):
    """Winners' and losers' brackets, a grand final and, by default, its reset."""

    key = "double_elimination"
    label = _("Double elimination")
    defaults = {"reset": True}
    has_bracket = True

    @classmethod
    def variants(cls) -> list[Variant]:
        return [
            Variant("double_elimination", _("Double elimination, with a reset final"), {}),
            Variant(
                "double_elimination_no_reset",
                _("Double elimination, without a reset final"),
                {"reset": False},
            ),
        ]

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        return _bracket_next(stage, double=True)


class GroupsKnockout(StageFormat):
    """Round-robin groups (snake seeding), then a knockout of the best K of each group."""

    key = "groups_knockout"
    label = _("Groups then knockout")
    defaults = {
        "group_count": 2,
        "advance": 2,
        "cycles": 1,
        "double": False,
        "reset": True,
        "third_place": False,
    }
    has_bracket = True
    has_groups = True
    uses_check_in = True  # the group rounds
    fields = {
        "group_count": _group_count_field,
        "advance": _advance_field,
        "third_place": _third_place_field,
    }

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        settings = stage.settings
        if "groups" not in settings:
            seeds = rounds.seeded_team_ids(stage.teams.all())
            split = formats.snake_groups(seeds, int(settings.get("group_count", 2)))
            settings["groups"] = {}
            for index, members in enumerate(split):
                name = chr(ord("A") + index)
                group = Group.objects.create(stage=stage, name=name)
                group.teams.set(members)
                settings["groups"][name] = members
            stage.save(update_fields=["settings"])
        if "bracket" in settings:
            return _ready_bracket_matches(stage)

        groups = {g.name: g for g in stage.groups.all()}
        cycles = settings.get("cycles", 1)
        schedules = {name: rounds.schedule(ids, cycles) for name, ids in settings["groups"].items()}
        played = stage.rounds.count()
        remaining = [name for name, planned in schedules.items() if played < len(planned)]
        if remaining:
            round_ = rounds.new_round(stage, absent=absent)
            created: list[Match] = []
            for name in remaining:
                planned = schedules[name][played]
                created += rounds.create_pairings(
                    stage, round_, planned.pairings, planned.bye, groups[name], absent=absent
                )
            return created

        rounds.check_all_decided(stage)
        rankings = [
            [line.team.pk for line in stage_standings(stage=stage, group=groups[name])]
            for name in sorted(groups)
        ]
        positions = formats.knockout_positions(rankings, int(settings.get("advance", 2)))
        settings["bracket"] = {
            "positions": positions,
            "double": bool(settings.get("double", False)),
            "reset": bool(settings.get("reset", True)),
            "third_place": bool(settings.get("third_place", False)),
        }
        stage.save(update_fields=["settings"])
        return _ready_bracket_matches(stage)


# In the order the stage form offers them.
FORMATS: tuple[type[StageFormat], ...] = (
    RoundRobin,
    League,
    Swiss,
    SingleElimination,
    DoubleElimination,
    GroupsKnockout,
)
