"""Stages, their groups and rounds, and a round's name for people."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship, Scorekeeping
from tournaments.models.teams import Team


class Stage(models.Model):
    """One phase of a championship, played in one format."""

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="stages",
        verbose_name=_("championship"),
    )
    # Empty when the organiser typed none: the stage is then called by its format's name,
    # in each reader's language (tournaments.stages.registry.stage_name), not in the one
    # its creator happened to use.
    name = models.CharField(_("name"), max_length=200, blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    # A key of tournaments.stages.registry.FORMATS: the registry, not the database, lists
    # the formats, so adding one needs no migration.
    format = models.CharField(_("format"), max_length=30)
    # Format options (see docs/tournaments.md) and, once generated, the bracket positions
    # and group schedules the formats returned.
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    teams = models.ManyToManyField(Team, related_name="stages", verbose_name=_("teams"))
    # Bumped in the same transaction as every change of a decided result of the stage: a
    # standings snapshot computed at an older version is stale (see StandingsSnapshot).
    results_version = models.PositiveIntegerField(_("results version"), default=0, editable=False)
    # Who keeps the score in this stage when it differs from the championship's (empty: as
    # the championship says): ``scorekeeping_in_force``.
    scorekeeping = models.CharField(
        _("who keeps the score"), max_length=10, choices=Scorekeeping.choices, blank=True
    )

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["championship", "order"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "order"], name="stage_order_unique"),
        ]

    def __str__(self) -> str:
        # Pages name a stage through the registry (the "stage_name" filter); the admin and
        # logs make do with the format's key.
        return self.name or self.format

    # The league's format key (tournaments.stages.pair_formats.League.key): a league plays
    # dated matchdays at the clubs' venues, not rounds at tables.
    LEAGUE = "league"

    @property
    def is_league(self) -> bool:
        return self.format == self.LEAGUE

    def round_title(self, number: int) -> str:
        """The name of this stage's round ``number`` when only its number is known (a
        substitution from it, a check-in for it): "Matchday 3" in a league."""
        return round_name(number=number, label="", settings=self.settings, dated=self.is_league)

    @property
    def scorekeeping_in_force(self) -> str:
        """Who keeps the score in this stage: its own choice, else its championship's."""
        return self.scorekeeping or self.championship.scorekeeping


class Group(models.Model):
    """A group of a groups-then-knockout stage (A, B, ...)."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="groups", verbose_name=_("stage")
    )
    name = models.CharField(_("name"), max_length=20)
    teams = models.ManyToManyField(Team, related_name="stage_groups", verbose_name=_("teams"))

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["stage", "name"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "name"], name="group_name_unique"),
        ]

    def __str__(self) -> str:
        return _("Group %(name)s") % {"name": self.name}


class Round(models.Model):
    """A round of a stage: a Swiss or round-robin round, or a round of a bracket."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("stage")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    # Bracket rounds: "W1", "L2", "GF"...; empty for Swiss and round-robin rounds.
    label = models.CharField(_("label"), max_length=20, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The teams (ids) absent at check-in when the round was generated: their walkovers
    # came from the check-in, not from a referee, so the round may still be removed.
    absent = models.JSONField(_("absent teams"), default=list, blank=True)
    # A league's matchday: the league's night of that week (its matches are placed in the
    # week from it); empty for the rounds of a championship played in a day.
    date = models.DateField(_("matchday date"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["stage", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique"),
            # One round per bracket label ("W2", "GF"...): bracket_sync looks it up by label.
            models.UniqueConstraint(
                fields=["stage", "label"], condition=~Q(label=""), name="round_label_unique"
            ),
        ]

    def __str__(self) -> str:
        # The stage tells a final from a first round; without it loaded (no query from a
        # __str__), a bracket round is named by its section only.
        cached = Round._meta.get_field("stage").is_cached(self)
        return round_name(
            number=self.number,
            label=self.label,
            settings=self.stage.settings if cached else None,
            dated=self.date is not None or (cached and self.stage.is_league),
        )

    def name_in(self, stage: Stage) -> str:
        """The round's name for people, ``stage`` being its stage (already loaded): a
        league's rounds are its matchdays, dated or not."""
        return round_name(
            number=self.number,
            label=self.label,
            settings=stage.settings,
            dated=self.date is not None or stage.is_league,
        )


# Knockout rounds counted from the final: the final, semi-finals, quarter-finals...
_FROM_FINAL = (
    _("Final"),
    _("Semi-finals"),
    _("Quarter-finals"),
    _("Round of 16"),
    _("Round of 32"),
)


def round_name(*, number: int, label: str, settings: dict | None, dated: bool = False) -> str:
    """A round's name for people: the one place every page, export and API label asks.

    Rounds without a label (round robin, Swiss, the groups of a groups stage) are numbered.
    Bracket rounds are named by stage from the bracket's size in the stage ``settings``
    (``bracket.positions``): final, semi-finals, quarter-finals, round of 16...; in a double
    elimination the winners' and losers' rounds are numbered, with their finals named;
    ``GF``/``GF2``/``P3`` are the grand final, its reset and the third-place match.
    ``settings`` None (stage not loaded): bracket rounds are named by section only.

    >>> str(round_name(number=2, label="", settings=None))
    'Round 2'
    >>> str(round_name(number=5, label="W2", settings={"bracket": {"positions": [1] * 8}}))
    'Semi-finals'

    A league's dated rounds (``dated``) are its matchdays:

    >>> str(round_name(number=3, label="", settings=None, dated=True))
    'Matchday 3'
    """
    if not label and dated:
        return _("Matchday %(number)s") % {"number": number}
    if not label:
        return _("Round %(number)s") % {"number": number}
    if label == "GF":
        return str(_("Grand final"))
    if label == "GF2":
        return str(_("Reset final"))
    if label == "P3":
        return str(_("Third-place match"))
    bracket = (settings or {}).get("bracket") or {}
    size = len(bracket.get("positions") or ())
    rounds = size.bit_length() - 1 if size else 0
    double = bool(bracket.get("double"))
    section, step = label[0], label[1:]
    if not step.isdigit():
        return label
    step_number = int(step)
    if section == "L":
        if rounds and step_number == 2 * (rounds - 1):
            return str(_("Losers' final"))
        return _("Losers' round %(number)s") % {"number": step_number}
    if section != "W":
        return label
    if not rounds:
        return _("Knockout round %(number)s") % {"number": step_number}
    if double:
        if step_number == rounds:
            return str(_("Winners' final"))
        return _("Winners' round %(number)s") % {"number": step_number}
    from_final = rounds - step_number
    if 0 <= from_final < len(_FROM_FINAL):
        return str(_FROM_FINAL[from_final])
    return _("Knockout round %(number)s") % {"number": step_number}
