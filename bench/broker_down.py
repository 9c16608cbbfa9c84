"""What a broker fault costs the request that saves a result: the publish after commit.

Publishes ``tournaments.tasks.refresh_standings`` the way a deciding save does after its
commit (``tasks._publish_safely``), against a broker that refuses connections (Redis
stopped) and one that accepts them but never answers (hung). Prints the best and worst of
``--repeat`` publishes; none raises.

    CELERY_BROKER_URL=redis://127.0.0.1:6390/0 .venv/bin/python bench/broker_down.py
"""

from __future__ import annotations

import argparse
import os
import socket
import threading
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6390/0")

import django

django.setup()

from config import celery_app  # noqa: E402
from tournaments import tasks  # noqa: E402


def hung_listener() -> int:
    """A port that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(100)
    held: list[socket.socket] = []
    threading.Thread(target=lambda: held.extend(iter(lambda: server.accept()[0], None)),
                     daemon=True).start()  # fmt: skip
    return server.getsockname()[1]


def measure(url: str, repeat: int) -> list[float]:
    celery_app.conf.broker_url = celery_app.conf.broker_write_url = url
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    timings = []
    for _ in range(repeat):
        start = time.monotonic()
        tasks._publish_safely(tasks.refresh_standings, 1)
        timings.append(time.monotonic() - start)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        refused = probe.getsockname()[1]
    cases = {"refused": refused, "hung": hung_listener()}
    for name, port in cases.items():
        timings = measure(f"redis://127.0.0.1:{port}/0", args.repeat)
        print(f"{name:8} best {min(timings):.2f} s  worst {max(timings):.2f} s")


if __name__ == "__main__":
    main()
