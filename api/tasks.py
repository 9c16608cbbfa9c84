"""Celery tasks of the API: thin wrappers, as ``tournaments.tasks``."""

from __future__ import annotations

from celery import shared_task

from api import idempotency


@shared_task(ignore_result=True)
def purge_idempotency_keys() -> int:
    """Forget the ``Idempotency-Key`` answers past their window (run daily)."""
    return idempotency.keys_purge()
