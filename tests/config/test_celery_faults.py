"""Faults of the broker and the worker never lose a result, nor leave standings wrong.

Each test runs a redis-server of its own (skipped when none is installed), stops it or
kills a worker, and checks what a referee and a visitor would see.
"""

from __future__ import annotations

import logging
import time

import psycopg
import pytest
from django.db import connection

from tests.conftest import database_url_of_this_test, start_worker
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments import tasks
from tournaments.models import Hand, Match, Stage, StandingsSnapshot
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors


def _stage(teams: int = 4) -> tuple[Stage, list[Match]]:
    championship = ChampionshipFactory()
    for seed in range(1, teams + 1):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    return stage, [m for m in matches if not m.is_bye]


def _current(stage: Stage) -> StandingsSnapshot | None:
    stage.refresh_from_db()
    return StandingsSnapshot.objects.filter(
        stage=stage, group=None, version=stage.results_version
    ).first()


def _table(stage: Stage, **kwargs) -> list[tuple[int, float]]:
    lines = standing_selectors.stage_standings(stage=stage, **kwargs)
    return [(line.team.pk, line.points) for line in lines]


@pytest.mark.celery_broker
@pytest.mark.django_db
def test_a_deciding_hand_is_saved_with_the_broker_down_and_repaired_later(
    redis_server, celery_broker_at, caplog, django_capture_on_commit_callbacks
):
    stage, (first, second) = _stage()
    celery_broker_at(redis_server.url)
    with django_capture_on_commit_callbacks(execute=True):
        play(first, first.team_a)  # published to the broker: no worker runs it here
    assert _current(stage) is None

    redis_server.stop()
    with (
        caplog.at_level(logging.ERROR, logger="tournaments.tasks"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        play(second, second.team_b)  # three saves, the last decides: none raises

    second.refresh_from_db()
    assert Hand.objects.filter(match=second).count() == 3
    assert (second.status, second.winner_id) == (Match.Status.FINISHED, second.team_b_id)
    assert f"Could not queue tournaments.tasks.refresh_standings for stage {stage.pk}" in (
        caplog.text
    )
    # No current snapshot, and the page computes the standings with both results.
    assert _current(stage) is None
    assert _table(stage) == _table(stage, use_snapshot=False)
    assert sum(points for _, points in _table(stage)) > 0

    # The broker is back: publishing works again in the same process, and the beat task
    # (run here as a worker would) brings the snapshot up to date.
    redis_server.start()
    tasks.repair_standings.delay()
    assert tasks.repair_standings.apply().get() == 1
    assert _current(stage) is not None
    assert _table(stage) == _table(stage, use_snapshot=False)


def _waiting_on_a_lock() -> int:
    # Asked on the test's own connection: inside the blocker's transaction
    # pg_stat_activity would keep showing what it showed first.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def _wait_for(condition, timeout: float, what: str, worker=None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            output = ""
            if worker is not None:
                worker.kill()
                output = worker.communicate(timeout=30)[0]
            pytest.fail(f"{what} within {timeout} s; the worker's output:\n{output}")
        time.sleep(0.2)


@pytest.mark.celery_broker
@pytest.mark.django_db(transaction=True)  # committed rows, so the worker processes see them
def test_a_worker_killed_mid_refresh_loses_nothing(redis_server, celery_broker_at, child_env):
    if connection.vendor != "postgresql":
        pytest.skip("the test holds the refresh on a PostgreSQL table lock")
    stage, (first, _) = _stage()
    celery_broker_at(redis_server.url)
    play(first, first.team_a)  # its refresh is queued on this test's Redis
    assert _current(stage) is None
    env = child_env(
        {
            "DATABASE_URL": database_url_of_this_test(),
            "CELERY_BROKER_URL": redis_server.url,
            # A vanished worker's message goes to another worker after 1 s, not an hour.
            "CELERY_VISIBILITY_TIMEOUT": "1",
        }
    )
    settings_dict = connection.settings_dict
    # Another session holds the snapshots' table: the refresh computes, then waits to write.
    with psycopg.connect(
        dbname=settings_dict["NAME"],
        user=settings_dict["USER"],
        password=settings_dict["PASSWORD"] or None,
        host=settings_dict["HOST"] or None,
        port=settings_dict["PORT"] or None,
    ) as blocker:
        blocker.execute("LOCK TABLE tournaments_standingssnapshot IN SHARE MODE")
        doomed = start_worker(env)
        try:
            _wait_for(
                lambda: _waiting_on_a_lock() > 0,
                90,
                "the worker did not start the refresh",
                doomed,
            )
        finally:
            doomed.kill()  # SIGKILL: no chance to reject or acknowledge the message
            doomed.communicate(timeout=30)
        blocker.rollback()
    assert _current(stage) is None

    worker = start_worker(env)
    try:
        _wait_for(
            lambda: _current(stage) is not None,
            90,
            "the message was not delivered again to a new worker",
            worker,
        )
    finally:
        if worker.poll() is None:
            worker.terminate()
            worker.communicate(timeout=30)
    assert _table(stage) == _table(stage, use_snapshot=False)
