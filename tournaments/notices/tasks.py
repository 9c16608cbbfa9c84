"""The notices' Celery tasks: thin, idempotent (a notice is sent only while queued, under
its lock), and queued only once the act that told has committed."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from tournaments.models import Notice
from tournaments.notices.delivery import MAX_ATTEMPTS, notice_deliver

logger = logging.getLogger(__name__)

# Notices per task: a round of 400 teams is eight tasks, the workers share them out.
CHUNK = 50


# Late acknowledgement: a worker lost mid-chunk leaves it queued, and running it again
# sends only what is still queued.
@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def send_notices(notice_ids: list[int]) -> int:
    """Send the notices ``notice_ids`` still queued; the number sent."""
    return sum(notice_deliver(notice_id=pk) == Notice.State.SENT for pk in notice_ids)


@shared_task(ignore_result=True)
def resend_notices() -> int:
    """Send again the notices left queued (a mail server that failed, a broker that was
    away when they were queued): scheduled by beat."""
    before = timezone.now() - dt.timedelta(minutes=1)
    waiting = Notice.objects.filter(
        state=Notice.State.QUEUED, created_at__lt=before, attempts__lt=MAX_ATTEMPTS
    ).order_by("pk")
    return send_notices(list(waiting.values_list("pk", flat=True)[:500]))


def send_on_commit(notice_ids: Sequence[int]) -> None:
    """Queue :func:`send_notices` by chunks once the current transaction commits. A
    broker away is logged, never raised: the notices stay queued for
    :func:`resend_notices`. Without a broker they are sent here, after the commit."""
    ids = list(notice_ids)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        transaction.on_commit(lambda chunk=chunk: _publish(chunk))


def _publish(chunk: list[int]) -> None:
    try:
        send_notices.delay(chunk)
    except Exception:  # the act is done: its notices wait for resend_notices
        logger.exception("Could not queue %s notices: resend_notices will.", len(chunk))
