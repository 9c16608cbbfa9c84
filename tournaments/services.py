"""Writes to championships."""

import datetime

from django.db import transaction

from tournaments.models import Championship


@transaction.atomic
def championships_finish_ended(*, today: datetime.date) -> int:
    """Mark as finished every running championship whose end date is before ``today``.

    Returns how many changed; running it again the same day changes nothing.
    """
    return Championship.objects.filter(
        status=Championship.Status.RUNNING, end_date__lt=today
    ).update(status=Championship.Status.FINISHED)
