"""What each kind of request of the load day costs the server, one request at a time.

    .venv/bin/python bench/load/costs.py                 # 200 tables, 24 of them played
    .venv/bin/python bench/load/costs.py --tables 200 --hands 24 --replace

The load benchmark (``run.py``) measures latency under the whole day's traffic, where the
queue dominates once the offered work exceeds the machine. This script measures the
other side of that sum: the Django work of each request kind, in this process, through
Django's test client (the whole middleware stack, no HTTP server), with ``DEBUG`` off
and the cache and channel layer on a redis-server of its own, as ``run.py`` serves them.

It builds the same day (its own PostgreSQL database, migrated, ``setup.py``), then plays
``--hands`` hands, each at another table, as the tablet does (the engine here, one draft
sync per tap, the decided hand posted with an ``Idempotency-Key``). After every tap it
reads that match's public page (renewed by the tap) and then again (from the cache);
after every save the match page and the round (both renewed), then the round, the
standings, the championship and home pages from the cache; the championship's page after
a result (its results' topic moved, 8 times). The players' statistics and
schedule pages are read after every tap and save too (``statistics after a tap``:
rendered again if the write renewed them, else from the cache); then ``--hands`` teams'
personal links, the schedule searched by a player's name, and the team and person pages
their phones read first. Printed: per kind, the median
and p90 milliseconds, the CPU time, the queries per request, and the cores the day's
offered rate of it takes (``--rates`` from the load run: taps, saves and page reads per
second). ``--profile tap,save`` adds a cProfile of those kinds, ``--sql tap`` prints the
queries of one tap.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from servers import Database, build_day, site_env, start_redis, stop  # noqa: E402  (this folder)
from sheet import tablet_context, tablet_event  # noqa: E402


class Costs:
    """Milliseconds and queries per request kind."""

    def __init__(self, profile: str = "", sql: str = "") -> None:
        self.ms: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        self.queries: dict[str, list[int]] = {}
        self.profilers = {kind: cProfile.Profile() for kind in profile.split(",") if kind}
        self.sql = sql

    def measure(self, kind: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``call(*args, **kwargs)``, timed and its queries counted as one ``kind``."""
        from django.db import connection

        count = [0]

        shown = kind == self.sql and len(self.ms.get(kind, [])) == 2

        def counter(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            count[0] += 1
            if shown:
                print(f"{kind} [{count[0]}]: {sql[:300]}")
            return execute(sql, params, many, context)

        profiler = self.profilers.get(kind)
        with connection.execute_wrapper(counter):
            if profiler is not None:
                profiler.enable()
            started, cpu = time.perf_counter(), time.thread_time()
            result = call(*args, **kwargs)
            elapsed = (time.perf_counter() - started) * 1000
            cpu = (time.thread_time() - cpu) * 1000
            if profiler is not None:
                profiler.disable()
        self.ms.setdefault(kind, []).append(elapsed)
        self.cpu.setdefault(kind, []).append(cpu)
        self.queries.setdefault(kind, []).append(count[0])
        return result

    def table(self, rates: dict[str, float]) -> str:
        lines = [
            "| request | n | median ms | p90 ms | CPU ms | queries | offered /s | cores |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        total = 0.0
        for kind, samples in self.ms.items():
            ordered = sorted(samples)
            median = statistics.median(ordered)
            p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            queries = statistics.median(self.queries[kind])
            cpu = statistics.median(self.cpu[kind])
            rate = rates.get(kind)
            cores = "" if rate is None else f"{median * rate / 1000:.2f}"
            total += 0 if rate is None else median * rate / 1000
            lines.append(
                f"| {kind} | {len(ordered)} | {median:.1f} | {p90:.1f} | {cpu:.1f} | {queries:g} | "
                f"{'' if rate is None else f'{rate:g}'} | {cores} |"
            )
        lines.append(f"| **Django's work at the offered rates** | | | | | | | **{total:.2f}** |")
        return "\n".join(lines)


def _rates(taps: float, saves: float, pages: float) -> dict[str, float]:
    """Requests per second of each kind in the load day (its mix: a match page 6 times in
    12, round and standings 2 each, the championship and home pages 1 each).

    A page read after its topic changed renders; the other reads are cache hits. Every
    tap renews its match page and every save its match page and the round. A match page
    is read about once a second (182 match reads a second over 200 matches) and taps come
    seconds apart at a table, so nearly every tap is followed by a render: counted as
    every one (an upper bound).
    """
    rendered = taps + saves * 2
    return {
        "tap": taps,
        "save": saves,
        "match page after a tap": taps,
        "match page after a save": saves,
        "round page after a save": saves,
        "page from the cache": pages - rendered,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=24, help="hands played, one per table")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="tanteo_costs")
    parser.add_argument("--replace", action="store_true", help="drop --database if it exists")
    parser.add_argument("--keep", action="store_true", help="keep --database afterwards")
    parser.add_argument(
        "--rates",
        default="28.5,6.7,364",
        help="taps, saves and page reads a second offered by the full day (run.py's)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--sql", default="", metavar="KIND", help="print the queries of one request of a kind"
    )
    parser.add_argument(
        "--profile", default="", metavar="KINDS", help="print a cProfile of these kinds (tap,save)"
    )
    args = parser.parse_args()
    taps_rate, saves_rate, pages_rate = (float(x) for x in args.rates.split(","))

    database = Database(args.server, args.database)
    env = site_env(database.url, "testserver", f"tanteo-costs-{os.getpid()}")
    database.create(replace=args.replace)
    redis = None
    try:
        data_file = Path(f"/tmp/tanteo-costs-{os.getpid()}.json")
        build_day(env, args.tables, data_file)
        data = json.loads(data_file.read_text())
        data_file.unlink()
        redis, env["REDIS_URL"] = start_redis()
        # This process is the server: Django is set up from this environment.
        os.environ.clear()
        os.environ.update(env)
        costs = _play(data, args.hands, random.Random(args.seed), Costs(args.profile, args.sql))
        print(f"tables {args.tables}, hands played {args.hands}")
        print(costs.table(_rates(taps_rate, saves_rate, pages_rate)))
        for kind, profiler in costs.profilers.items():
            dump = Path(f"/tmp/costs-{kind.replace(' ', '-')}.prof")
            profiler.dump_stats(dump)
            print(f"\n{kind}: profile written to {dump} (python -m pstats {dump})")
            stats = pstats.Stats(profiler)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(25)
    finally:
        stop(redis)
        if not args.keep:
            database.drop()


def _play(data: dict[str, Any], hands: int, rng: random.Random, costs: Costs) -> Costs:
    import django

    django.setup()
    from django.test import Client

    from scoring.session import Session

    base = f"/c/{data['slug']}/"
    stage = f"{base}stages/{data['stage']}/"
    round_page = f"{stage}rounds/{data['round']}/"
    public = Client()
    players_pages = [("statistics", f"{base}statistics/"), ("schedule", f"{base}schedule/")]
    # Warm: the first render of every page, and the process's imports and templates.
    for url in (base, "/", round_page, f"{stage}standings/", *(url for _n, url in players_pages)):
        public.get(url)
    for referee in data["referees"][:hands]:
        match = referee["match"]
        page = f"{base}matches/{match}/"
        public.get(page)
        tablet = Client(enforce_csrf_checks=True)
        tablet.cookies["sessionid"] = referee["sessionid"]
        sheet = costs.measure("sheet", tablet.get, f"/referee/matches/{match}/")
        context = tablet_context(sheet.content.decode())
        if context is None:
            raise SystemExit(f"costs.py: the sheet of match {match} has no tablet context")
        session = Session(context["head"], context["state"])
        headers = {"HTTP_X_CSRFTOKEN": tablet.cookies["csrftoken"].value}
        revision = context["draft"]["revision"]
        view = session.view()
        number = view["number"]
        while not view["ready"]:
            view = session.run({"op": "event", "event": tablet_event(rng, view)})
            body = {
                "number": number,
                "record": view["draft"],
                "device": context["device"],
                "revision": revision,
                "takeover": False,
            }
            synced = costs.measure(
                "tap",
                tablet.put,
                f"/api/v1/matches/{match}/draft/",
                json.dumps(body),
                content_type="application/json",
                **headers,
            )
            if synced.status_code != 200:
                raise SystemExit(f"costs.py: a tap answered {synced.status_code}")
            revision = synced.json()["revision"]
            costs.measure("match page after a tap", public.get, page)
            costs.measure("page from the cache", public.get, page)
            # The players' pages that follow the whole championship (their phones read
            # them between hands): a tap shows on neither.
            for name, url in players_pages:
                costs.measure(f"{name} after a tap", public.get, url)
        record = session.run({"op": "save"})["saved"]["record"]
        saved = costs.measure(
            "save",
            tablet.post,
            f"/api/v1/matches/{match}/hands/",
            json.dumps({"number": number, "device": context["device"], **record}),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=f"{context['device']}-{number}",
            **headers,
        )
        if saved.status_code != 201:
            raise SystemExit(f"costs.py: a save answered {saved.status_code}")
        costs.measure("match page after a save", public.get, page)
        costs.measure("round page after a save", public.get, round_page)
        for name, url in players_pages:
            costs.measure(f"{name} after a save", public.get, url)
        for url in (round_page, f"{stage}standings/", base, "/"):
            costs.measure("page from the cache", public.get, url)
    # A match decided renews the championship's page (its stages' current rounds): its
    # results' topic moved as the result's announcement moves it, the page read again.
    from tournaments.live import results_topic, versions

    for _ in range(min(hands, 8)):
        versions.bump([results_topic(data["slug"])])
        costs.measure("championship page after a result", public.get, base)
    # The players' phones: their team's link (personal, never cached), and the team and
    # person pages each reads first (rendered: a page nobody read yet).
    phone = Client()  # one client: a Client per request would set up the middleware anew
    for team in data["teams"][:hands]:
        for kind, client, url in (
            ("link page", phone, f"{base}team/{team['token']}/"),
            # A player looks for his table by his name (each name a page of its own).
            ("schedule searched", public, f"{base}schedule/?q={quote(team['names'][0])}"),
            ("team page first render", public, f"{base}teams/{team['team']}/"),
            ("person page first render", public, f"/people/{team['people'][0]}/"),
        ):
            if costs.measure(kind, client.get, url).status_code != 200:
                raise SystemExit(f"costs.py: {url} did not answer 200")
    return costs


if __name__ == "__main__":
    main()
