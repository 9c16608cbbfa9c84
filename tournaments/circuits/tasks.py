"""The circuits' Celery task and the receiver that queues it.

A change of an event's results, teams, rounds or status (``tournaments.signals.changed``,
sent on commit) queues :func:`refresh_circuit_event` for its championship, when that
championship is an event of a circuit: the task stores the event's placements and brings
the final's qualified teams up to date (``circuits.qualification.circuit_event_refresh``),
then announces the circuit (``what="circuit"``), so its page and the persons' pages
follow. The receiver is connected in ``TournamentsConfig.ready``; importing this module
there also registers the task with Celery (autodiscovery looks at ``tournaments.tasks``
only, which sits below the circuits in the layers).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from tournaments.circuits import qualification
from tournaments.models import CircuitEvent

logger = logging.getLogger(__name__)

# The announcements that may change an event's placements or the final's entries.
REFRESHING = ("result", "round", "team", "championship")


# Late acknowledgement: running it again is harmless (it changes nothing the second time).
@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def refresh_circuit_event(championship_id: int) -> bool:
    """Store the placements of the circuit event of ``championship_id`` and sync the
    final's qualified teams (``qualification.circuit_event_refresh``)."""
    event = (
        CircuitEvent.objects.select_related("circuit")
        .filter(championship_id=championship_id)
        .first()
    )
    if event is None:  # not (or no longer) an event of a circuit
        return False
    return qualification.circuit_event_refresh(event=event)


def on_changed(sender: Any, *, championship_id: int, what: str, **kwargs: Any) -> None:
    """Receiver of ``tournaments.signals.changed``: queue the refresh of a circuit event
    whose championship changed (one small query for any other championship)."""
    if what not in REFRESHING or not championship_id:
        return
    if not CircuitEvent.objects.filter(championship_id=championship_id).exists():
        return
    try:
        refresh_circuit_event.delay(championship_id)
    except Exception:  # the change is stored: a lost publish must not turn it into an error
        logger.exception(
            "Could not queue the circuit refresh of championship %s: run it again "
            "(tasks.refresh_circuit_event) or change a result.",
            championship_id,
        )
