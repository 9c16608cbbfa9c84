"""What is computed from results and kept for fast pages: standings and placements."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.stages import Group, Stage


class StandingsSnapshot(models.Model):
    """Standings of a stage (or one of its groups) as last computed, for fast pages."""

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="snapshots", verbose_name=_("stage")
    )
    group = models.ForeignKey(
        Group,
        on_delete=models.CASCADE,
        related_name="snapshots",
        null=True,
        blank=True,
        verbose_name=_("group"),
    )
    rows = models.JSONField(_("rows"), default=list)
    # The stage's results_version read before the rows were computed: the rows reflect at
    # least those results. Served only while it equals the stage's current version.
    version = models.PositiveIntegerField(_("results version"), default=0, editable=False)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        constraints = [
            models.UniqueConstraint(
                fields=["stage"], condition=Q(group__isnull=True), name="snapshot_stage_unique"
            ),
            models.UniqueConstraint(
                fields=["stage", "group"],
                condition=Q(group__isnull=False),
                name="snapshot_group_unique",
            ),
        ]

    def __str__(self) -> str:
        return str(self.group or self.stage)


class PlacementSnapshot(models.Model):
    """A championship's placements as last computed (``standings.placements``): every
    playing team's place, for the person's and team's pages of many championships at once."""

    championship = models.OneToOneField(
        Championship,
        on_delete=models.CASCADE,
        related_name="placement_snapshot",
        verbose_name=_("championship"),
    )
    # Best first: {"team", "place", "tied", "of", "stage", "group"} (Placement.to_row).
    rows = models.JSONField(_("rows"), default=list)
    # Each stage's results_version read before the rows were computed ({"<stage id>": n}):
    # served only while every stage of the championship still has that version.
    versions = models.JSONField(_("results versions"), default=dict)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("placements snapshot")
        verbose_name_plural = _("placements snapshots")

    def __str__(self) -> str:
        return str(self.championship)
