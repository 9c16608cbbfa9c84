"""The load benchmark, from nothing to a results row: one command, everything on 127.0.0.1.

    .venv/bin/python bench/load/run.py    # 200 tables + 50 reported, 2,000 spectators, 500 players
    .venv/bin/python bench/load/run.py --tables 20 --spectators 100 --players 50 --duration 60

1. Creates a PostgreSQL database of its own (``--database``, refused if it exists unless
   ``--replace``), migrates it, collects the static files (``DEBUG`` is off: the pages
   name the hashed files of the manifest).
2. Builds the championship day (``bench/load/setup.py``): ``--tables`` matches started,
   one referee each, their sessions written for the locustfile; ``--report-tables``
   matches more where the teams report their results; every team's personal link.
3. Starts a redis-server of its own on a free port for the cache (or uses ``--redis-url``)
   and gunicorn (``--workers`` processes of ``--threads`` threads, gthread, ``--keep-alive``
   15 s; or ``--worker-class sync``) on 127.0.0.1, as in production: ``DEBUG`` off, a
   random ``SECRET_KEY``, ``ALLOWED_HOSTS=127.0.0.1``, plain HTTP (no SSL redirect, no
   secure cookies, no HSTS); nginx in front of it (``--proxy nginx``, the default), as
   README.md deploys it: the clients' keep-alive connections end at the proxy. With
   ``--cpu``, the server also measures its CPU per kind of request (``cpu.py``).
   No Celery broker: the standings refresh a deciding save queues runs in the request
   (eager), the worst case for the save.
4. Runs Locust headless (``bench/load/locustfile.py``): the users are spawned over
   ``--ramp`` seconds, then measured for ``--duration`` seconds; Locust stops by itself.
   ``--players`` teams' phones (``bench/load/players.py``; default: one per team) open
   their links and check in over the window's first ``--check-in`` seconds.
5. Writes ``--out``/summary.json, Locust's CSV files and results.md (a Markdown table
   row: p50/p95/p99 of save, tap, sheet, public page, the players' link page and their
   acts through it (check-in, report, confirm: ``link act``), requests per second,
   errors, the load average before and after; then a table of every kind of request)
   and machine.md (the cores each program took over
   the measured window: ``machine.py``), prints them, then stops the servers and drops the
   database (``--keep`` keeps it).

``--published``: the public pages published as files (``PUBLISHED_PAGES_DIR``, under
``--out``) and served by nginx on the rules ``manage.py proxy_config`` prints. When the
load stops, every file left is compared with the page Django serves (``stale_files``, which
waits up to ``SETTLE`` seconds for the renewals still queued): the run prints how many are
not current.

``--nodes N``: the site as N nodes, each a gunicorn of its own (``--workers`` ×
``--threads``) on its own port, behind the one nginx (round robin), sharing the database,
the cache's Redis and, with ``--published``, the one published folder every node writes
(docs/architecture.md, "Several nodes"); each file left is then compared with the page
every node serves. The servers themselves are started by ``servers.py``.

Faults (``faults.py``), for what Redis or PostgreSQL blinking costs the day:
``--redis-down`` runs it with the cache's Redis gone from the start (``REDIS_URL`` on a
port nobody listens on: every page rendered uncached, every broadcast failed);
``--kill-redis AT:FOR`` kills the run's redis-server ``AT`` seconds into the measured
window and starts an empty one on its port ``FOR`` seconds later; ``--terminate-pg
EVERY`` ends every connection of the site to its database (``pg_terminate_backend``)
every ``EVERY`` seconds of the window. The summary counts what failed, as always.

``--floor``: the spectators alone, against a second nginx serving a copy of each public
page (fetched from the site first) for every URL of its kind, no Python behind it: the
load generator's and a proxy's share of the machine at the day's page rate.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import cpu  # this folder (bench/load/cpu.py)
import faults  # this folder (bench/load/faults.py)
import machine  # this folder (bench/load/machine.py)
import servers  # this folder (bench/load/servers.py)
from servers import ROOT, free_port, load_average, stop, wait_http

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
TARGETS = {"save": 200.0, "page": 100.0, "link act": 300.0}  # p95, ms (issues 16 and 37)


def _ms(value: float) -> str:
    return f"{value:,.0f}" if value == value else "–"  # NaN: no sample


def _row(summary: dict, args: argparse.Namespace, load_before: str, load_after: str) -> str:
    kinds = summary["kinds"]

    def cell(kind: str) -> str:
        k = kinds.get(kind)
        return " / ".join(_ms(k[p]) for p in ("p50", "p95", "p99")) if k else "–"

    errors = f"{summary['failures']} of {summary['requests']:,}"
    tables = "0" if args.floor else f"{args.tables} + {args.report_tables}"
    return (
        f"| {tables} | {args.spectators:,} | {args.players:,} | {_server(args)} "
        f"| {cell('save')} | {cell('tap')} | {cell('sheet')} | {cell('page')} "
        f"| {cell('link')} | {cell('link act')} "
        f"| {summary['rps']:,.0f} | {errors} | {load_before} → {load_after} |"
    )


HEADER = (
    "| tables (referees + reported) | spectators | players | gunicorn | save p50/p95/p99 ms "
    "| tap p50/p95/p99 ms | sheet p50/p95/p99 ms | page p50/p95/p99 ms | link p50/p95/p99 ms "
    "| link act p50/p95/p99 ms | req/s | errors | load avg before → after |\n"
    "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
)


def _kinds(summary: dict) -> str:
    """Every kind of request of the run, a line each: how many, failed, per second, and
    p50/p95/p99 (``link act``: check-in, report and confirm together)."""
    lines = [
        "| kind | requests | failures | req/s | p50 ms | p95 ms | p99 ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for kind, k in summary["kinds"].items():
        lines.append(
            f"| {kind} | {k['requests']:,} | {k['failures']:,} | {k['rps']:,.1f} "
            f"| {_ms(k['p50'])} | {_ms(k['p95'])} | {_ms(k['p99'])} |"
        )
    return "\n".join(lines)


def _server(args: argparse.Namespace) -> str:
    if args.floor:
        return "nginx, copies of the pages (floor)"
    shape = (
        f"{args.workers} sync" if args.worker_class == "sync" else f"{args.workers}×{args.threads}"
    )
    if args.nodes > 1:
        shape = f"{args.nodes} nodes of {shape}"
    if args.published:
        return f"nginx (published pages) → {shape}"
    return f"nginx → {shape}" if args.proxy == "nginx" else shape


# --floor: each public page of the day as nginx serves a file (the spectators' URLs).
FLOOR_PAGES = {
    "home": r"= /",
    "championship": r"~ ^/c/[^/]+/$",
    "standings": r"~ /standings/$",
    "round": r"~ /rounds/[0-9]+/$",
    "match": r"~ /matches/[0-9]+/$",
}


# When the load stops, the writes still queued (seconds of them on a busy hour) are
# answered and renew their pages: a file not current yet is asked again until then.
SETTLE = 60.0


def stale_files(pages: Path, sites: list[str]) -> tuple[int, list[str]]:
    """How many published pages there are at the end of the run, and those that are not
    the page every node serves (each gunicorn asked itself, in the page's language; a
    current file is the very content in the cache, byte for byte) even ``SETTLE`` seconds
    later: a renewal still queued behind the last writes is waited for, a file that no
    write will renew any more is stale."""
    files = sorted(pages.glob("*/**/index.html"))
    waiting = list(files)
    deadline = time.monotonic() + SETTLE
    while True:
        waiting = [file for file in waiting if _not_current(pages, file, sites)]
        if not waiting or time.monotonic() > deadline:
            break
        time.sleep(1)
    stale = ["/".join(file.relative_to(pages).parts[:-1]) + "/" for file in waiting]
    return len(files), stale


def _not_current(pages: Path, file: Path, sites: list[str]) -> bool:
    language, *parts = file.relative_to(pages).parts[:-1]
    path = "/" + "".join(f"{part}/" for part in parts)
    try:
        content = file.read_bytes()
    except FileNotFoundError:
        return False  # removed since: its next reader publishes it again
    for site in sites:
        request = urllib.request.Request(
            f"{site}{path}", headers={"Cookie": f"django_language={language}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                current = response.read()
        except OSError:
            current = None
        if current != content:
            return True
    return False


def _floor(out: Path, host: str, data: dict[str, Any]) -> tuple[subprocess.Popen, str]:
    """A second nginx serving a copy of each public page of the day, as the site served
    it, for every URL of its kind: the spectators' load on the machine with no Python
    behind it (``--floor``). Returns the server and its URL."""
    pages = out / "floor" / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    base = f"/c/{data['slug']}/"
    stage = f"{base}stages/{data['stage']}/"
    urls = {
        "home": "/",
        "championship": base,
        "standings": f"{stage}standings/",
        "round": f"{stage}rounds/{data['round']}/",
        "match": f"{base}matches/{data['matches'][0]}/",
    }
    for kind, url in urls.items():
        with urllib.request.urlopen(host + url, timeout=60) as response:
            (pages / f"{kind}.html").write_bytes(response.read())
    locations = "\n".join(
        f"        location {FLOOR_PAGES[kind]} {{ default_type text/html; "
        f"root {pages.resolve()}; try_files /{kind}.html =404; }}"
        for kind in urls
    )
    port = free_port()
    return servers.start_nginx(out, port, locations, name="floor"), f"http://127.0.0.1:{port}"


def _start_site(
    args: argparse.Namespace, env: dict[str, str], ports: list[int], nodes: list
) -> tuple[subprocess.Popen | None, str]:
    """The site's nodes (gunicorn on ``ports``, appended to ``nodes`` as they start, for
    the caller to stop) and nginx in front of them unless ``--proxy none``: the proxy
    and the URL the users are sent to."""
    for number, port in enumerate(ports, 1):
        log = args.out / ("gunicorn.log" if len(ports) == 1 else f"gunicorn-{number}.log")
        nodes.append(servers.start_gunicorn(env, port, args, log))
    sites = [f"http://127.0.0.1:{port}" for port in ports]
    if args.published:
        http, locations = servers.published_proxy(env, sites)
    elif args.proxy == "nginx":
        http, locations = servers.proxy_to(ports)
    else:
        return None, sites[0]
    proxy_port = free_port()
    proxy = servers.start_nginx(args.out, proxy_port, locations, http=http)
    host = f"http://127.0.0.1:{proxy_port}"
    wait_http(f"{host}/healthz", 10, proxy)
    return proxy, host


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument(
        "--report-tables",
        type=int,
        help="matches more where nobody keeps the score: one team reports the result from "
        "its personal link, the other confirms it (default: a quarter of --tables)",
    )
    parser.add_argument(
        "--players",
        type=int,
        help="teams' phones on their personal links (default: one per team, "
        "2 × (--tables + --report-tables))",
    )
    parser.add_argument(
        "--check-in",
        type=float,
        help="seconds of the window over which the teams open their links and check in "
        "(default: its first 5 minutes, or its first third when shorter)",
    )
    parser.add_argument("--duration", type=int, default=180, help="measured seconds")
    parser.add_argument("--ramp", type=int, default=60, help="seconds to spawn every user")
    parser.add_argument(
        "--nodes",
        type=int,
        default=1,
        help="the site's nodes: gunicorn servers of --workers processes each, behind one "
        "nginx, sharing the database, Redis and the published pages' folder",
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn processes (per node)")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn process")
    parser.add_argument(
        "--worker-class", default="gthread", choices=("gthread", "sync"), help="gunicorn's"
    )
    # Longer than any user's pause (taps 1-3 s, spectators 3-8 s), as a proxy in front would
    # keep its clients' connections: with gunicorn's default 2 s, a request sent just as the
    # server closes the idle connection fails ("connection closed"), which a browser resends
    # on a new connection but Locust counts as an error.
    parser.add_argument("--keep-alive", type=int, default=15, help="gunicorn's, in seconds")
    parser.add_argument(
        "--proxy",
        default="nginx",
        choices=("nginx", "none"),
        help="nginx in front of gunicorn (as deployed), or Locust straight to gunicorn",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="also measure the server's CPU per kind of request (cpu.py): written to cpu.md",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="the spectators alone against a copy of each page served by nginx, no Python: "
        "what the load generator and the proxy take of the machine at the day's page rate",
    )
    parser.add_argument(
        "--published",
        action="store_true",
        help="the public pages published as files (PUBLISHED_PAGES_DIR) and served by nginx "
        "with the rules of `manage.py proxy_config`, as README.md deploys them",
    )
    parser.add_argument(
        "--worker-connections",
        type=int,
        default=16,
        help="gunicorn's (gthread): connections a process takes at once, the rest wait",
    )
    parser.add_argument(
        "--redis-down", action="store_true", help="the cache's Redis gone for the whole run"
    )
    parser.add_argument(
        "--kill-redis",
        metavar="AT:FOR",
        help="kill the cache's Redis AT s into the window, start it again FOR s later",
    )
    parser.add_argument(
        "--terminate-pg",
        type=float,
        metavar="EVERY",
        help="end the site's database connections every EVERY s of the window",
    )
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="tanteo_locust_run")
    parser.add_argument("--replace", action="store_true", help="drop --database if it exists")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--redis-url", help="cache; default: a redis-server of the run's own")
    parser.add_argument("--out", type=Path, default=HERE / "out")
    args = parser.parse_args()
    if args.nodes > 1 and args.proxy == "none" and not args.published:
        parser.error("--nodes needs the proxy in front of them (--proxy nginx)")
    if args.report_tables is None:
        args.report_tables = args.tables // 4
    if args.players is None:
        args.players = 2 * (args.tables + args.report_tables)
    if args.check_in is None:
        args.check_in = min(300.0, args.duration / 3)
    if args.floor:
        args.players = 0  # the floor is the spectators' pages alone

    args.out.mkdir(parents=True, exist_ok=True)
    database = servers.Database(args.server, args.database)
    ports = [free_port() for _node in range(args.nodes)]
    env = servers.site_env(database.url, "127.0.0.1", f"tanteo-load-{ports[0]}")
    redis = proxy = floor = None
    nodes: list[subprocess.Popen] = []
    database.create(replace=args.replace)
    try:
        data = args.out / "data.json"
        started = time.monotonic()
        servers.build_day(env, args.tables, data, report_tables=args.report_tables)
        print(f"run: championship day built in {time.monotonic() - started:.0f} s")

        if args.published:
            published = args.out / "published"
            shutil.rmtree(published, ignore_errors=True)
            env["PUBLISHED_PAGES_DIR"] = str(published.resolve())
        if args.redis_down:
            env["REDIS_URL"] = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens
        elif args.redis_url:
            env["REDIS_URL"] = args.redis_url
        else:
            redis, env["REDIS_URL"] = servers.start_redis()

        server_env = env
        cpu_dir = args.out / "cpu"
        if args.cpu:
            shutil.rmtree(cpu_dir, ignore_errors=True)
            cpu_dir.mkdir(parents=True)
            server_env = {
                **env,
                "DJANGO_SETTINGS_MODULE": "cpu_settings",
                "BENCH_CPU_DIR": str(cpu_dir),
                "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)]),
            }
        proxy, host = _start_site(args, server_env, ports, nodes)
        sites = [f"http://127.0.0.1:{node_port}" for node_port in ports]

        tables = args.tables
        if args.floor:
            floor, host = _floor(args.out, host, json.loads(data.read_text()))
            tables = 0  # the referees' writes need the site: left out
        users = tables + args.spectators + args.players
        summary_file = args.out / "summary.json"
        summary_file.unlink(missing_ok=True)
        load_before = load_average()
        print(f"run: {users} users against {host}; load average {load_before}")
        locust_env = {
            **env,
            "BENCH_LOAD_DATA": str(data),
            "BENCH_TABLES": str(tables),
            "BENCH_SPECTATORS": str(args.spectators),
            "BENCH_PLAYERS": str(args.players),
            "BENCH_DURATION": str(args.duration),
            "BENCH_CHECK_IN": str(args.check_in),
            "BENCH_SUMMARY": str(summary_file),
        }
        locust = subprocess.Popen(
            [
                *(str(BIN / "locust"), "-f", str(HERE / "locustfile.py"), "--headless"),
                *("--host", host, "-u", str(users), "-r", f"{users / max(args.ramp, 1):.2f}"),
                *("-t", f"{args.ramp + args.duration}s", "--stop-timeout", "5"),
                *("--reset-stats", "--only-summary", "--csv", str(args.out / "locust")),
                *("--loglevel", "WARNING", "--exit-code-on-error", "0"),
            ],
            env=locust_env,
            cwd=ROOT,
        )
        split = machine.Split(
            {
                **{
                    "gunicorn" + (f" {n}" if len(nodes) > 1 else ""): node.pid
                    for n, node in enumerate(nodes, 1)
                },
                "locust": locust.pid,
                "nginx": proxy.pid if proxy else None,
                "nginx (floor)": floor.pid if floor else None,
                "redis-server": redis.pid if redis else None,
            }
        )
        # The measured window: after the ramp-up, until just before Locust stops.
        time.sleep(args.ramp)
        fault = faults.start(args, redis, database)
        split.begin()
        # The Django work of the window (--cpu): each process writes its sums every couple
        # of seconds, so both readings are as late, and the window is Locust's.
        cpu_before = cpu.read(cpu_dir) if args.cpu else None
        time.sleep(max(args.duration - 3, 1))
        cores = split.end()
        (args.out / "machine.md").write_text(cores + "\n")
        locust.wait()
        redis = fault.stop() or redis
        load_after = load_average()
        if not summary_file.exists():
            raise SystemExit("run.py: Locust wrote no summary")
        summary = json.loads(summary_file.read_text())
        summary["load_average"] = {"before": load_before, "after": load_after}
        summary["faults"] = fault.done
        if args.published:
            count, stale = stale_files(published / "pages", sites)
            summary["published"] = {"files": count, "stale": stale}
        summary_file.write_text(json.dumps(summary, indent=1))
        row = _row(summary, args, load_before, load_after)
        kinds = _kinds(summary)
        (args.out / "results.md").write_text(f"{HEADER}\n{row}\n\n{kinds}\n")
        print(f"\n{HEADER}\n{row}\n\n{kinds}")
        p95 = {k: summary["kinds"].get(k, {}).get("p95", float("nan")) for k in TARGETS}
        reached = ", ".join(f"p95 {k} ≤ {t:.0f} ms ({_ms(p95[k])})" for k, t in TARGETS.items())
        print(
            f"\ntargets: 0 errors ({summary['failures']}), {reached}; "
            f"measured over {summary['seconds']:.0f} s"
        )
        if args.published:
            stale = summary["published"]["stale"]
            print(
                f"published pages at the end: {summary['published']['files']}, "
                f"{len(stale)} not current{': ' + ', '.join(stale[:10]) if stale else ''}"
            )
        for done in fault.done:
            print(f"fault: {done}")
        for error in summary["errors"]:
            print(f"error: {error['count']} × {error['method']} {error['name']}: {error['error']}")
        print(f"\nThe machine's cores, by program (the measured window):\n{cores}")
        if cpu_before is not None:
            spent = cpu.table(cpu_before, cpu.read(cpu_dir), summary["seconds"])
            (args.out / "cpu.md").write_text(spent + "\n")
            print(f"\nDjango's work per kind of request (the measured window):\n{spent}")
    finally:
        stop(floor)
        stop(proxy)
        for node in nodes:
            stop(node)
        stop(redis)
        if not args.keep:
            database.drop()


if __name__ == "__main__":
    main()
