"""The stage formats of tables of three (gallo): a Swiss system of tables, a round robin
of tables and the final table of the best three (docs/tournaments.md "Tables of three").

Listed in ``stages.registry`` like every format; the
seating itself is pure (``tournaments.formats.tables``, ``tables_schedule``).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import formats
from tournaments.errors import TournamentError
from tournaments.models import Match, Stage
from tournaments.stages import rounds
from tournaments.stages.format_base import StageFormat, check_swiss_round_left, rounds_field
from tournaments.standings.selectors import stage_standings


def _remainder_field() -> forms.Field:
    return forms.ChoiceField(
        label=_("Players left over (not a multiple of three)"),
        choices=[
            ("table_of_two", _("They play at tables of two (the two-player game)")),
            ("bye", _("They sit out with a bye")),
        ],
        initial="table_of_two",
    )


def _bye_points_field() -> forms.Field:
    return forms.FloatField(
        label=_("Placement points of a bye"), min_value=0, max_value=10, initial=1
    )


def _check_table_championship(stage: Stage) -> None:
    if not stage.championship.plays_gallo:
        raise TournamentError(
            _(
                "Tables of three need a championship of single players with gallo rules:"
                " choose the gallo in its rules first."
            ),
            code="not_gallo",
        )


def _table_history(stage: Stage) -> tuple[dict[int, set[int]], list[int]]:
    """Who sat with whom in the stage, and the byes (a player once per bye); a player
    absent at check-in sat out, which is not a bye."""
    met: dict[int, set[int]] = {}
    byes: list[int] = []
    rows = stage.matches.values_list("team_a_id", "team_b_id", "team_c_id", "outcome")
    for a, b, c, outcome in rows:
        if b is None:
            if outcome == Match.Outcome.BYE:
                byes.append(a)
            continue
        seated = [t for t in (a, b, c) if t is not None]
        for team in seated:
            met.setdefault(team, set()).update(t for t in seated if t != team)
    return met, byes


class TablesSwiss(StageFormat):
    """Tables of three by the standings, nobody meeting again while it can be avoided
    (``formats.tables_swiss``); a round once the previous one is decided."""

    key = "tables_swiss"
    label = _("Tables of three, Swiss")
    defaults = {"rounds": 4, "remainder": "table_of_two", "bye_points": 1, "points": [3, 1, 0]}
    has_tables = True
    uses_check_in = True
    waits_for_results = True
    fields = {
        "rounds": rounds_field,
        "remainder": _remainder_field,
        "bye_points": _bye_points_field,
    }

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        _check_table_championship(stage)
        check_swiss_round_left(stage, default=4)
        rounds.check_all_decided(stage)
        standing = stage_standings(stage=stage, use_snapshot=False)
        if not stage.rounds.exists():
            # No result yet: the seeds order the field (then the lots, as the standings).
            seeded = rounds.seeded_team_ids(line.team for line in standing)
            standing = sorted(standing, key=lambda line: seeded.index(line.team.pk))
        present = [line for line in standing if line.team.pk not in absent]
        if len(present) < 3:
            raise TournamentError(
                _("Fewer than three players are checked in: no round of tables can be seated."),
                code="too_few_present",
            )
        met, byes = _table_history(stage)
        seating = formats.tables_swiss(
            [line.team.pk for line in present],
            {line.team.pk: line.points for line in standing},
            met,
            remainder=stage.settings.get("remainder", "table_of_two"),
            byes=byes,
        )
        # Players absent at check-in sit the round out, without a result.
        round_ = rounds.new_round(stage, absent=absent)
        return rounds.create_tables(stage, round_, seating.tables, seating.byes)


class TablesRoundRobin(StageFormat):
    """The fixed schedule of tables of three for 3, 6, 7, 9, 12 or 15 players
    (``formats.tables_round_robin``), in seed order."""

    key = "tables_round_robin"
    label = _("Tables of three, round robin")
    defaults = {"bye_points": 1, "points": [3, 1, 0]}
    has_tables = True
    fields = {"bye_points": _bye_points_field}

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        _check_table_championship(stage)
        if "teams" not in stage.settings:
            stage.settings["teams"] = rounds.seeded_team_ids(stage.teams.all())
            stage.save(update_fields=["settings"])
        schedule = formats.tables_round_robin(stage.settings["teams"])
        played = stage.rounds.count()
        if played >= len(schedule):
            raise TournamentError(
                _("Every round of this stage has already been generated."), code="no_round_left"
            )
        planned = schedule[played]
        round_ = rounds.new_round(stage)
        return rounds.create_tables(stage, round_, planned.tables, planned.byes)


class FinalTable(StageFormat):
    """One table of the best three (``formats.final_table``): by the standings of the
    stage before it, among this stage's players (else by their seeds)."""

    key = "final_table"
    label = _("Final table")
    defaults = {"points": [3, 1, 0]}
    has_tables = True

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        _check_table_championship(stage)
        if stage.rounds.exists():
            raise TournamentError(
                _("Every round of this stage has already been generated."), code="no_round_left"
            )
        members = set(stage.teams.values_list("pk", flat=True))
        previous = (
            Stage.objects.filter(championship=stage.championship_id, order__lt=stage.order)
            .select_related("championship")
            .order_by("-order")
            .first()
        )
        if previous is not None:
            rounds.check_all_decided(previous)
            ranked = [line.team.pk for line in stage_standings(stage=previous)]
        else:
            ranked = rounds.seeded_team_ids(stage.teams.all())
        order = [t for t in ranked if t in members]
        order += [t for t in rounds.seeded_team_ids(stage.teams.all()) if t not in order]
        round_ = rounds.new_round(stage)
        return rounds.create_tables(stage, round_, [formats.final_table(order)])


# In the order the stage form offers them.
FORMATS: tuple[type[StageFormat], ...] = (
    TablesSwiss,
    TablesRoundRobin,
    FinalTable,
)
