"""gunicorn's settings: ``gunicorn config.wsgi --config python:config.gunicorn``.

The access log goes to stdout (a container's log) in gunicorn's usual format, every line
with the secrets of an address hidden (``config.logs``), as the error log's lines are.
Workers and address stay on the command line (the Dockerfile, README.md).
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from config.logs import hide_in_handlers

accesslog = "-"


class SecretHidingLogger(Logger):
    """gunicorn's logger, its handlers filtered (``setup`` runs again on a reload)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        hide_in_handlers(self.error_log)
        hide_in_handlers(self.access_log)


logger_class = SecretHidingLogger


def worker_exit(server: Any, worker: Any) -> None:
    """Renew the published pages this worker left to the end of their moment
    (``tournaments.live.renewing``) before it stops: a release or a restart must not leave
    their files stale until their journals are recovered a minute later."""
    from tournaments.live import renewing

    renewing.later.now()
