"""Writes of standings: the snapshot each stage's public table is read from."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from tournaments.models import Group, Stage, StandingsSnapshot
from tournaments.standings.selectors import stage_standings


@transaction.atomic
def standings_refresh(*, stage: Stage) -> int:
    """Recompute and store the standings snapshots of a stage (and of each group).

    Idempotent; returns how many snapshots were written.
    """

    written = 0
    targets: list[Group | None] = list(stage.groups.all()) or [None]
    for group in targets:
        lines = stage_standings(stage=stage, group=group, use_snapshot=False)
        rows = [line.to_row() for line in lines]
        try:
            with transaction.atomic():
                StandingsSnapshot.objects.update_or_create(
                    stage=stage, group=group, defaults={"rows": rows}
                )
        except IntegrityError:  # a concurrent refresh wrote it first: same content
            continue
        written += 1
    return written
