"""Celery tasks of the tournaments app: thin, idempotent wrappers around services.

A task is named for what it does (``refresh_standings``), the service it calls for its
entity and action (``standings.services.standings_refresh``): one name, one thing.

Tasks are queued from web requests only through :func:`refresh_standings_on_commit`,
which never lets a broker failure reach the request: the result is already committed,
and the periodic ``repair_standings`` catches up on whatever a failed publish left.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
from collections.abc import Callable, Iterator

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from tournaments.championships import services as championship_services
from tournaments.models import Match, Stage
from tournaments.ratings import services as rating_services
from tournaments.standings import services as standing_services

logger = logging.getLogger(__name__)


@shared_task
def championships_finish_ended() -> int:
    """Close the running championships whose end date has passed (idempotent, run daily)."""
    return championship_services.championships_finish_ended(today=timezone.localdate())


# No result is stored: nobody reads it, and asking for one makes the caller subscribe to
# the result backend, which retries for many seconds when Redis is down.
@shared_task(ignore_result=True)
def refresh_standings(stage_id: int) -> int:
    """Recompute the standings snapshots of a stage (queued after each result)."""
    stage = Stage.objects.select_related("championship").filter(pk=stage_id).first()
    if stage is None:  # deleted since the result was recorded: nothing to refresh
        return 0
    return standing_services.standings_refresh(stage=stage)


@shared_task(ignore_result=True)
def repair_standings() -> int:
    """Refresh every stage whose snapshot is missing or stale (scheduled by beat)."""
    return standing_services.standings_repair()


# Late acknowledgement: a worker lost mid-update leaves the task queued, and running it
# again is harmless (a match rated as it stands is left alone).
@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def rate_match(match_id: int) -> int:
    """Rate a match whose result was decided, corrected, voided or walked over (and the
    family's later matches if it changed the past): ``ratings.services.rating_update``."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:  # deleted since: a rebuild forgets it
        return 0
    return rating_services.rating_update(match=match)


# Set while a batch of results is loaded whose ratings are rebuilt once at its end
# (:func:`ratings_deferred`): no match is rated on its own meanwhile.
_ratings_deferred: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ratings_deferred", default=False
)


def rate_match_on_commit(*, match_id: int) -> None:
    """Queue :func:`rate_match` once the current transaction commits, never failing the
    result (as :func:`refresh_standings_on_commit`; ``manage.py ratings_rebuild`` repairs
    what a lost publish left); once per match however often it changed meanwhile."""
    if _ratings_deferred.get():
        return
    _on_commit_once(("rate", match_id), lambda: _publish_safely(rate_match, match_id, what="match"))


@contextlib.contextmanager
def ratings_deferred() -> Iterator[None]:
    """Rate nothing match by match inside the block, then rebuild every family's ratings
    once from the stored results (the demo's load: the same ratings, in one pass)."""
    token = _ratings_deferred.set(True)
    try:
        yield
    finally:
        _ratings_deferred.reset(token)
    rating_services.ratings_rebuild()


@shared_task(ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def rebuild_ratings() -> dict[str, int]:
    """Rate every family again from the stored results (``ratings.services.
    ratings_rebuild``): after two people were merged, whose matches now rate one person."""
    return rating_services.ratings_rebuild()


def rebuild_ratings_on_commit() -> None:
    """Queue :func:`rebuild_ratings` once the current transaction commits, never failing
    the request (a lost publish is repaired by ``manage.py ratings_rebuild``)."""

    def publish() -> None:
        try:
            rebuild_ratings.delay()
        except Exception:  # the merge is stored: its side effect must not undo the answer
            logger.exception("Could not queue the ratings' rebuild: run ratings_rebuild.")

    transaction.on_commit(publish)


def refresh_standings_on_commit(*, stage_id: int) -> None:
    """Queue the stage's standings refresh once the current transaction commits.

    Publishing waits at most the broker timeouts of ``config/settings.py`` and never
    raises: a failure is logged, naming the stage, and left to ``repair_standings``.
    Without a broker the refresh runs here, after the commit (eager mode).
    """
    _on_commit_once(("standings", stage_id), lambda: _publish_safely(refresh_standings, stage_id))


def _on_commit_once(key: tuple, callback: Callable[[], None]) -> None:
    """Run ``callback`` once the current transaction commits, unless the same ``key`` is
    already waiting in it: a stage's refresh asked by every hand of a batch (an import,
    the demo) runs once, after them all, and reads them all. Outside a transaction it runs
    at once, as ``on_commit`` does."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        for _savepoints, waiting, _robust in connection.run_on_commit:
            # A callback already run (tests run them inside the test's transaction)
            # does not stand for this one.
            if getattr(waiting, "tanteo_key", None) == key and not waiting.tanteo_done:
                return

    def once() -> None:
        once.tanteo_done = True  # type: ignore[attr-defined]
        callback()

    once.tanteo_key = key  # type: ignore[attr-defined]
    once.tanteo_done = False  # type: ignore[attr-defined]
    transaction.on_commit(once)


def _publish_safely(task, object_id: int, *, what: str = "stage") -> None:
    try:
        task.delay(object_id)
    except Exception:  # the result is stored: a side effect must not turn it into an error
        logger.exception(
            "Could not queue %s for %s %s: it stays stale until repaired (the standings by "
            "the repair task, the ratings by ratings_rebuild).",
            task.name,
            what,
            object_id,
        )
