"""The Celery application: broker and eagerness come from settings, task policy is fixed here.

Tasks are thin and idempotent, so a message is acknowledged only once its task has run
(``acks_late``) and is redelivered if the worker dies mid-task.
"""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tanteo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    # With late acknowledgement a worker should hold only the message it is running.
    worker_prefetch_multiplier=1,
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    result_accept_content=["json"],
    result_expires=24 * 3600,
    broker_connection_retry_on_startup=True,
    beat_schedule={
        "championships-finish-ended": {
            "task": "tournaments.tasks.championships_finish_ended",
            "schedule": crontab(hour=3, minute=0),
        },
    },
)
app.autodiscover_tasks()
