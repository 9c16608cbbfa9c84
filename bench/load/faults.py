"""Faults injected into the measured window of a load run (``run.py --kill-redis``,
``--terminate-pg``): Redis killed and started again, PostgreSQL's connections ended."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import threading
import time
from typing import Any

import psycopg


class Faults:
    """A thread doing the faults asked for; ``done`` says what it did, when."""

    def __init__(self, args: argparse.Namespace, redis: Any, database: Any) -> None:
        self.args = args
        self.redis = redis
        self.database = database
        self.done: list[str] = []
        self.stopping = threading.Event()
        self.start_time = time.monotonic()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _note(self, what: str) -> None:
        self.done.append(f"{time.monotonic() - self.start_time:6.1f} s: {what}")

    def _run(self) -> None:
        if self.args.kill_redis:
            at, _, length = self.args.kill_redis.partition(":")
            if self.stopping.wait(float(at)):
                return
            port = self.redis.args[self.redis.args.index("--port") + 1]
            os.killpg(self.redis.pid, signal.SIGKILL)
            self.redis.wait()
            self._note(f"redis-server on port {port} killed")
            if self.stopping.wait(float(length or 10)):
                return
            self.redis = subprocess.Popen(
                self.redis.args, stdout=subprocess.DEVNULL, start_new_session=True
            )
            self._note(f"redis-server started again on port {port} (empty)")
        if self.args.terminate_pg:
            while not self.stopping.wait(self.args.terminate_pg):
                self._note(f"{self._terminate()} database connections ended")

    def _terminate(self) -> int:
        with psycopg.connect(self.database.url, autocommit=True) as admin:
            return admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()[0]

    def stop(self) -> Any:
        """Stop injecting; the redis-server now running, if one was started again."""
        self.stopping.set()
        self.thread.join(timeout=30)
        return self.redis


def start(args: argparse.Namespace, redis: Any, database: Any) -> Faults:
    if args.kill_redis and redis is None:
        raise SystemExit("run.py: --kill-redis needs the run's own redis-server")
    return Faults(args, redis, database)
