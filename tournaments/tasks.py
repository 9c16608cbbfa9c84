"""Celery tasks of the tournaments app: thin wrappers around services."""

from celery import shared_task
from django.utils import timezone

from tournaments import services


@shared_task
def championships_finish_ended() -> int:
    """Close the running championships whose end date has passed (idempotent, run daily)."""
    return services.championships_finish_ended(today=timezone.localdate())
