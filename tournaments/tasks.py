"""Celery tasks of the tournaments app: thin, idempotent wrappers around services."""

from celery import shared_task
from django.utils import timezone

from tournaments.championships import services as championship_services
from tournaments.models import Stage
from tournaments.standings import services as standing_services


@shared_task
def championships_finish_ended() -> int:
    """Close the running championships whose end date has passed (idempotent, run daily)."""
    return championship_services.championships_finish_ended(today=timezone.localdate())


@shared_task
def standings_refresh(stage_id: int) -> int:
    """Recompute the standings snapshots of a stage (queued after each result)."""
    stage = Stage.objects.select_related("championship").filter(pk=stage_id).first()
    if stage is None:  # deleted since the result was recorded: nothing to refresh
        return 0
    return standing_services.standings_refresh(stage=stage)
