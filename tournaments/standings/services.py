"""Writes of standings: the snapshot each stage's public table is read from, and the
championship's placements computed from them (``placements``).

A snapshot is replaced, never dropped first: each carries the stage's ``results_version``
it was computed at, and pages serve it only while that is still the stage's version
(``selectors.stage_standings``). A result change bumps the version (``standings_outdate``)
in its own transaction; the refresh queued after it, or the periodic repair
(``standings_repair``) if that refresh was lost, writes the new snapshot.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from tournaments.models import Championship, Group, PlacementSnapshot, Stage, StandingsSnapshot
from tournaments.standings.placements import championship_placements, stage_versions
from tournaments.standings.selectors import stage_standings, stages_needing_refresh

logger = logging.getLogger(__name__)


def standings_outdate(*, stage: Stage) -> None:
    """Mark the stage's snapshots stale: call inside the transaction changing a result.

    The old snapshots stay stored (a refresh replaces them) but are no longer served.
    Updating the stage row locks it until commit; results lock match → stage, as the
    bracket does, so this adds no deadlock.
    """
    Stage.objects.filter(pk=stage.pk).update(results_version=F("results_version") + 1)


@transaction.atomic
def standings_refresh(*, stage: Stage) -> int:
    """Recompute and store the standings snapshots of a stage (and of each group).

    Idempotent, and safe against concurrent refreshes: a snapshot is written only over one
    of the same or an older version, so a slow refresh never replaces a newer snapshot.
    Returns how many snapshots were written.
    """
    # The version first, the results after: a snapshot may then reflect more results than
    # its version says (it is merely stale sooner), never fewer.
    version = Stage.objects.filter(pk=stage.pk).values_list("results_version", flat=True).first()
    if version is None:  # deleted meanwhile
        return 0
    written = 0
    targets: list[Group | None] = list(stage.groups.all()) or [None]
    for group in targets:
        lines = stage_standings(stage=stage, group=group, use_snapshot=False)
        rows = [line.to_row() for line in lines]
        written += _snapshot_store(stage=stage, group=group, version=version, rows=rows)
    placements_refresh(championship=stage.championship)
    return written


@transaction.atomic
def placements_refresh(*, championship: Championship) -> bool:
    """Recompute and store the championship's placements (after a stage's standings).

    As the standings' snapshots, never replaced by an older computation: the stages'
    versions are read first, and a snapshot computed from a newer version of any stage is
    left alone. Returns whether it was written.
    """
    versions = stage_versions(championship=championship)
    rows = [p.to_row() for p in championship_placements(championship=championship)]
    snapshot, created = PlacementSnapshot.objects.select_for_update().get_or_create(
        championship=championship, defaults={"rows": rows, "versions": versions}
    )
    if created:
        return True
    if any(snapshot.versions.get(stage, -1) > version for stage, version in versions.items()):
        return False
    snapshot.rows, snapshot.versions = rows, versions
    snapshot.save(update_fields=["rows", "versions", "computed_at"])
    return True


def _snapshot_store(*, stage: Stage, group: Group | None, version: int, rows: list) -> bool:
    """Write the snapshot unless a newer one is stored; whether it was written."""
    stored = StandingsSnapshot.objects.filter(stage=stage, group=group)

    def replace() -> bool:
        # One conditional UPDATE: on PostgreSQL it waits for a concurrent refresh of the
        # same row and re-checks the version on what that one wrote.
        return bool(
            stored.filter(version__lte=version).update(
                rows=rows, version=version, computed_at=timezone.now()
            )
        )

    if replace():
        return True
    if stored.exists():  # a newer snapshot: leave it
        return False
    try:
        with transaction.atomic():
            StandingsSnapshot.objects.create(stage=stage, group=group, rows=rows, version=version)
    except IntegrityError:  # a concurrent refresh inserted it first: compare versions again
        return replace()
    return True


def standings_repair(*, limit: int = 50) -> int:
    """Refresh the stages whose snapshots are missing or stale (the periodic repair).

    Catches what a lost refresh left behind: a broker that was down when the result was
    saved, a worker killed mid-task. Idempotent: a second run finds nothing to do. Each
    stage is refreshed in its own transaction; one that fails is logged and retried on
    the next run. Returns how many stages were refreshed.
    """
    repaired = 0
    for stage_id in stages_needing_refresh(limit=limit):
        stage = Stage.objects.select_related("championship").filter(pk=stage_id).first()
        if stage is None:
            continue
        try:
            standings_refresh(stage=stage)
        except Exception:  # one broken stage must not stop the others being repaired
            logger.exception("Standings repair failed for stage %s (%s).", stage.pk, stage)
            continue
        repaired += 1
    if repaired:
        logger.info("Standings repair refreshed %s stage(s).", repaired)
    return repaired
