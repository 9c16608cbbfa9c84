"""Celery: tasks run in-process without a broker, and on a real worker when one is set."""

import datetime
import os
import subprocess
import sys
import uuid

import pytest
from django.conf import settings
from django.db import connection

from config import celery_app
from tests.conftest import database_url_of_this_test
from tournaments.models import Championship
from tournaments.tasks import championships_finish_ended

PAST_START = datetime.date(2020, 3, 1)


def test_the_app_is_configured_for_safe_retries():
    conf = celery_app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.accept_content == ["json"]
    assert (conf.task_serializer, conf.result_serializer) == ("json", "json")
    assert "tournaments.tasks.championships_finish_ended" in celery_app.tasks


def test_beat_schedules_only_registered_tasks():
    celery_app.loader.import_default_modules()
    for entry in celery_app.conf.beat_schedule.values():
        assert entry["task"] in celery_app.tasks


def test_task_runs_eagerly_in_process_without_a_broker(championship_factory):
    # tests/conftest.py makes every test eager, as a broker-less install is.
    assert celery_app.conf.task_always_eager is True
    ended = championship_factory(
        status=Championship.Status.RUNNING,
        start_date=PAST_START,
        end_date=PAST_START + datetime.timedelta(days=2),
    )
    ongoing = championship_factory(
        status=Championship.Status.RUNNING, start_date=PAST_START, end_date=None
    )

    assert championships_finish_ended.delay().get(timeout=5) == 1
    assert championships_finish_ended.delay().get(timeout=5) == 0  # idempotent

    ended.refresh_from_db()
    ongoing.refresh_from_db()
    assert ended.status == Championship.Status.FINISHED
    assert ongoing.status == Championship.Status.RUNNING


@pytest.mark.celery_broker
@pytest.mark.django_db(transaction=True)  # committed rows, so the worker process sees them
def test_task_runs_on_a_real_worker_through_the_broker(championship_factory, child_env):
    broker = os.environ.get("CELERY_BROKER_URL")
    if not broker:
        pytest.skip("CELERY_BROKER_URL is not set: no broker to run a worker on")
    if connection.vendor == "sqlite" and connection.creation.is_in_memory_db(
        connection.settings_dict["NAME"]
    ):
        pytest.skip("the test database is SQLite in memory: a worker process cannot see it")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert celery_app.conf.task_always_eager is False

    ended = championship_factory(
        status=Championship.Status.RUNNING,
        start_date=PAST_START,
        end_date=PAST_START + datetime.timedelta(days=1),
    )
    # A queue of its own: parallel runs and other workers on this Redis never take the job.
    queue = f"tanteo-test-{uuid.uuid4().hex}"
    env = child_env(
        {
            "DATABASE_URL": database_url_of_this_test(),
            "CELERY_BROKER_URL": broker,
            "CELERY_RESULT_BACKEND": settings.CELERY_RESULT_BACKEND or broker,
        }
    )
    worker = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--queues", queue, "--hostname", f"{queue}@%h", "--loglevel", "INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        result = championships_finish_ended.apply_async(queue=queue)
        try:
            changed = result.get(timeout=90)
        except Exception:
            worker.terminate()
            output = worker.communicate(timeout=30)[0]
            pytest.fail(f"the worker did not run the task; its output:\n{output}")
    finally:
        if worker.poll() is None:
            worker.terminate()
            worker.communicate(timeout=30)

    assert changed == 1
    ended.refresh_from_db()
    assert ended.status == Championship.Status.FINISHED
