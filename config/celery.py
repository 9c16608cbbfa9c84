"""The Celery application: broker and eagerness come from settings, task policy is fixed here.

Tasks are thin and idempotent, so a message is acknowledged only once its task has run
(``acks_late``) and is redelivered if the worker dies mid-task: a pool process that dies
makes the worker reject the message back to the queue (``task_reject_on_worker_lost``),
and a whole worker that dies leaves it unacknowledged in Redis, which hands it to another
worker after ``CELERY_VISIBILITY_TIMEOUT``. Broker timeouts and the beat schedule are in
settings (they differ between machines).
"""

import os

from celery import Celery, signals

from config.logs import hide_in_handlers

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
)
app.autodiscover_tasks()

# The worker makes its own log handlers (its root's, its tasks'): each hides the secrets
# of an address, as the site's do (config.logs).
signals.after_setup_logger.connect(hide_in_handlers, weak=False)
signals.after_setup_task_logger.connect(hide_in_handlers, weak=False)
