"""Where a request of the load benchmark spends its time: cProfile over one kind of request.

    .venv/bin/python bench/load/run.py --keep --replace            # leaves the database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tanteo_locust_run \\
        .venv/bin/python bench/load/profile_requests.py --kind save --seconds 60

Replays, in this process through Django's test client (the whole middleware stack, no
gunicorn), what the load users do on the database ``run.py --keep`` left: the referees
tap random legal hands from the sheet's buttons and save them (``save``, ``tap``,
``sheet``), or a spectator reads a public page (``match``, ``round``, ``standings``,
``championship``, ``home``). Only the requests of ``--kind`` are profiled, for
``--seconds``; prints their count and mean time, then the top functions by cumulative and
by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import json
import os
import pstats
import random
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
PAGES = ("match", "round", "standings", "championship", "home")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=("save", "tap", "sheet", *PAGES), default="save")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--data", type=Path, default=HERE / "out" / "data.json")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()

    # As run.py serves it: DEBUG off over plain HTTP (the cache is per process here).
    for name, value in {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "LOG_LEVEL": "WARNING",
    }.items():
        os.environ.setdefault(name, value)
    os.environ.pop("CELERY_BROKER_URL", None)
    sys.path[:0] = [str(ROOT), str(HERE)]
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client
    from sheet import Sheet

    data = json.loads(args.data.read_text())
    rng = random.Random(1)
    profiler = cProfile.Profile()
    timings: list[float] = []

    def measured(kind: str, call: Callable[..., Any], *a: Any, **kw: Any) -> Any:
        if kind != args.kind:
            return call(*a, **kw)
        started = time.perf_counter()
        profiler.enable()
        try:
            return call(*a, **kw)
        finally:
            profiler.disable()
            timings.append(time.perf_counter() - started)

    # The first request loads the middleware (WhiteNoise scans the static files): not profiled.
    Client(HTTP_HOST="127.0.0.1").get("/")
    deadline = time.monotonic() + args.seconds
    if args.kind in PAGES:
        client = Client(HTTP_HOST="127.0.0.1")
        base = f"/c/{data['slug']}/"
        stage = f"{base}stages/{data['stage']}/"
        urls = {
            "match": lambda: f"{base}matches/{rng.choice(data['matches'])}/",
            "round": lambda: f"{stage}rounds/{data['round']}/",
            "standings": lambda: f"{stage}standings/",
            "championship": lambda: base,
            "home": lambda: "/",
        }
        while time.monotonic() < deadline:
            response = measured(args.kind, client.get, urls[args.kind]())
            assert response.status_code == 200, response.status_code
    else:
        users = get_user_model().objects.in_bulk(
            [r["username"] for r in data["referees"]], field_name="username"
        )
        # One client (a new one loads the middleware again), logged in as each referee.
        client = Client(HTTP_HOST="127.0.0.1")
        for referee in itertools.cycle(data["referees"]):
            if time.monotonic() >= deadline:
                break
            client.force_login(users[referee["username"]])
            url = f"/referee/matches/{referee['match']}/"
            sheet = Sheet(measured("sheet", client.get, url).content.decode())
            if not sheet.open:
                continue
            while not sheet.can_save:
                page = measured("tap", client.post, url, sheet.next_step(rng))
                sheet = Sheet(page.content.decode())
            saved = measured("save", client.post, url, {**sheet.state(), "op": "save"})
            assert saved.status_code == 302, saved.status_code

    if not timings:
        sys.exit("profile_requests.py: no request of that kind was made")
    mean = sum(timings) / len(timings) * 1000
    print(f"{args.kind}: {len(timings)} requests, mean {mean:.1f} ms (profiled, in-process)")
    stats = pstats.Stats(profiler).strip_dirs()
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
