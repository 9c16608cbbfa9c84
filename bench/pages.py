"""Public pages served per second, kept current, and the push latency of the live pages.

    .venv/bin/python bench/pages.py                        # 16, 64 and 256 teams, 20 s each
    .venv/bin/python bench/pages.py --sizes 16 --duration 5 --connections 200   # a smoke run

One command, everything on 127.0.0.1 (bench/README.md, "Public pages"):

1. Creates a PostgreSQL database of its own (``--database``, ``--replace`` to rebuild it),
   migrates it, collects the static files, and builds one running round robin per size
   (``--sizes`` teams, best of one, four rounds) plus a match in play.
2. Starts a redis-server of its own (or uses ``--redis-url``) and gunicorn (gthread, as
   bench/load/run.py) with ``DEBUG`` off, serving the site plus, for the baseline, the same
   views under Django's ``cache_page`` (``bench/pages_site.py``).
3. For the standings page of each size and for the match page: ``wrk`` (Debian's) for
   ``--duration`` seconds on the page and as long on the same view under ``cache_page``,
   in ``--windows`` alternating windows (page, baseline, baseline, page...), then on a
   static file. Meanwhile a writer saves a result every second (a hand deciding a match
   of that stage; a hand of that match) through the services, as a referee's save does,
   and after each save checks that the page an anonymous reader gets is the one rendered
   afresh for a logged-in user (``<main>``, "last updated" aside).
4. Push: daphne serves ``config.asgi``; ``--connections`` sockets follow the match; a hand
   is saved every second ``--pushes`` times; the time from the save's call to the message
   on every socket is measured (p50, p95, max).
5. Prints the Markdown rows for bench/README.md, then stops the servers and drops the
   database (``--keep`` keeps it).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(HERE / "load"))
import servers as load_run  # noqa: E402  (bench/load/servers.py: database, ports, groups)

TARGET = 0.9  # of the cache_page rate, at every size (the issue)
MAIN = re.compile(r"<main\b.*?</main>", re.S)
STATUS = re.compile(r'<p class="live-status".*?</p>', re.S)


def _get(url: str, cookie: str = "") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def _main_of(html: str) -> str:
    found = MAIN.search(html)
    return STATUS.sub("", found.group(0)) if found else ""


# --- The data (in this process, on the bench's database) -------------------------------------


def build(sizes: list[int], duration: int) -> dict[str, Any]:
    """One running round robin per size (rounds enough for the run), a match in play, a user."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tournaments.championships import services as championships
    from tournaments.models import Championship
    from tournaments.results import services as results
    from tournaments.stages import services as stages

    data: dict[str, Any] = {"standings": {}}
    for size in sizes:
        championship = championships.championship_create(
            name=f"Liga {size}",
            slug=f"liga-{size}",
            start_date=__import__("datetime").date(2026, 6, 13),
            options={"best_of": 1},
        )
        championships.championship_set_status(championship=championship, status="registration")
        championships.teams_create_many(
            championship=championship,
            teams=[
                championships.NewTeam(name=f"Equipo {n}", seed=n, players=[f"A{n}", f"B{n}"])
                for n in range(1, size + 1)
            ],
        )
        championships.championship_set_status(championship=championship, status="running")
        stage = stages.stage_create(championship=championship, format="round_robin")
        matches: list[int] = []
        # Enough matches to decide one a second all along the page's three measures.
        while len(matches) < 3 * duration + 10 and len(matches) < size * (size - 1) // 2:
            matches += [m.pk for m in stages.round_generate(stage=stage) if not m.is_bye]
        data["standings"][size] = {
            "slug": championship.slug,
            "stage": stage.pk,
            "matches": matches,
            "path": f"/c/{championship.slug}/stages/{stage.pk}/standings/",
        }
    first = data["standings"][sizes[0]]
    match_id = first["matches"].pop()
    match = results.Match.objects.get(pk=match_id)
    results.match_start(match=match)
    data["match"] = {"id": match_id, "path": f"/c/{first['slug']}/matches/{match_id}/"}
    user = get_user_model().objects.create_user("bench", password=secrets.token_urlsafe(16))
    client = Client()
    client.force_login(user)
    data["session"] = f"sessionid={client.cookies['sessionid'].value}"
    assert Championship.objects.count() == len(sizes)
    return data


def _deciding_hand(match: Any) -> dict[str, Any]:
    """A hand that decides a best-of-one match at once (falta envido, accepted, won by A)."""
    from tournaments.results import records, selectors

    match = selectors.match_detail(pk=match.pk)
    upcoming = records.score(match, [h.record for h in match.hands.order_by("number")]).next
    order = list(upcoming.order)
    side_a = set(records.team_keys(match.team_a))
    mano = order[0]
    other = next(p for p in order if (p in side_a) != (mano in side_a))
    return {
        "events": [
            {"by": mano, "call": "falta_envido"},
            {"by": other, "answer": "quiero"},
            {"envido_winner": "A"},
        ]
    }


class Writer(threading.Thread):
    """Saves a result every second and checks the page is current after each save."""

    def __init__(self, host: str, path: str, session: str, save) -> None:
        super().__init__(daemon=True)
        self.url = host + path
        self.session = session
        self.save = save
        self.stop = threading.Event()
        self.saves = 0
        self.stale: list[str] = []

    def run(self) -> None:
        from django.db import close_old_connections

        while not self.stop.wait(1.0):
            self.save()
            self.saves += 1
            _status, anonymous = _get(self.url)
            _status, fresh = _get(self.url, self.session)
            if _main_of(anonymous) != _main_of(fresh):
                self.stale.append(f"save {self.saves}: {self.url}")
            close_old_connections()


def standings_saver(matches: list[int]):
    from tournaments.models import Match
    from tournaments.results import services as results

    pending = list(matches)

    def save() -> None:
        if not pending:
            return
        match = Match.objects.get(pk=pending.pop(0))
        results.hand_record(match=match, record=_deciding_hand(match), recorded_by=None)

    return save


def match_saver(match_id: int):
    from tournaments.models import Match
    from tournaments.results import services as results

    sides = iter(["A", "B"] * 1000)

    def save() -> None:
        match = Match.objects.get(pk=match_id)
        side = next(sides)
        results.hand_record(
            match=match, record={"events": [{"trick": side}, {"trick": side}]}, recorded_by=None
        )

    return save


def plans(match_id: int, repeat: int = 20) -> str:
    """PostgreSQL's planning and execution time of the match page's reads: the old
    nine-table join, then the queries of ``results.selectors.match_detail`` (summed), each
    the median of ``repeat`` ``EXPLAIN ANALYZE``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Match
    from tournaments.results import selectors

    def timings(sql: str) -> tuple[float, float]:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")
            plan = cursor.fetchone()[0]
        plan = json.loads(plan) if isinstance(plan, str) else plan
        return plan[0]["Planning Time"], plan[0]["Execution Time"]

    joined = Match.objects.select_related(
        "stage__championship", "round", "group", "team_a", "team_b", "winner", "referee"
    ).filter(pk=match_id)
    with connection.cursor() as cursor:
        old_sql = cursor.mogrify(*joined.query.sql_with_params())
    with CaptureQueriesContext(connection) as captured:
        selectors.match_detail(pk=match_id)
    new_sqls = [q["sql"] for q in captured.captured_queries]
    old = [timings(old_sql) for _ in range(repeat)]
    new = [[timings(sql) for sql in new_sqls] for _ in range(repeat)]
    old_plan = statistics.median(p for p, _ in old)
    old_run = statistics.median(e for _, e in old)
    new_plan = statistics.median(sum(p for p, _ in one) for one in new)
    new_run = statistics.median(sum(e for _, e in one) for one in new)
    return (
        f"match page reads: the nine-table join planned in {old_plan:.2f} ms, run in "
        f"{old_run:.2f} ms; match_detail's {len(new_sqls)} queries planned in {new_plan:.2f} ms,"
        f" run in {new_run:.2f} ms (sums, medians of {repeat})"
    )


# --- Load -------------------------------------------------------------------------------------


def wrk(url: str, seconds: int, connections: int) -> dict[str, float]:
    out = subprocess.run(
        ["wrk", "-t", "1", "-c", str(connections), "-d", f"{seconds}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": rate, "non2xx": int(bad.group(1)) if bad else 0, "errors": errors is not None}


def measure(host: str, args: argparse.Namespace, name: str, path: str, baseline: str, writer):
    """The page and its ``cache_page`` baseline in alternating windows (ABBA: the page,
    the baseline, the baseline, the page...), so that a machine's drift over the run
    weighs on both alike; the rates are the means over the windows."""
    static = f"{host}/static/css/tanteo.css"
    _get(host + path)  # the first render, outside the measure
    _get(host + baseline)
    window = max(2, args.duration // args.windows)
    ours_rates, cached_rates, non2xx = [], [], 0
    writer.start()
    for turn in range(args.windows):
        order = [(path, ours_rates), (baseline, cached_rates)]
        for url, rates in order if turn % 2 == 0 else reversed(order):
            measured = wrk(host + url, window, args.concurrency)
            rates.append(measured["rps"])
            non2xx += measured["non2xx"]
    files = wrk(static, max(5, args.duration // 2), args.concurrency)
    writer.stop.set()
    writer.join()
    ours, cached = statistics.mean(ours_rates), statistics.mean(cached_rates)
    ratio = ours / cached
    pairs = [a / b for a, b in zip(ours_rates, cached_rates, strict=True)]
    row = (
        f"| {name} | {ours:,.0f} | {cached:,.0f} | {ratio:.0%} "
        f"| {min(pairs):.0%}–{max(pairs):.0%} "
        f"| {files['rps']:,.0f} | {writer.saves} | {len(writer.stale)} | {non2xx} |"
    )
    print(row, flush=True)
    return row, ratio, writer.stale


# --- Push -------------------------------------------------------------------------------------


async def _socket(port: int, topics: str, arrivals: list[float], opened: asyncio.Event, count):
    """A bare WebSocket client (RFC 6455): handshake, then read the server's text frames."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws/live/?topics={topics} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Origin: http://127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n")[0]:
        raise RuntimeError(head.decode(errors="replace"))
    count[0] += 1
    if count[0] == count[1]:
        opened.set()
    try:
        while True:
            first, second = await reader.readexactly(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(await reader.readexactly(2), "big")
            elif length == 127:
                length = int.from_bytes(await reader.readexactly(8), "big")
            await reader.readexactly(length)
            if first & 0x0F == 1:  # a text frame: the announcement
                arrivals.append(time.perf_counter())
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
        writer.close()


async def _push(port: int, connections: int, pushes: int, match_id: int) -> list[float]:
    save = match_saver(match_id)
    arrivals: list[float] = []
    opened = asyncio.Event()
    count = [0, connections]
    # Opened 50 at a time, as an audience arrives (never all in the same millisecond).
    tasks = []
    for first in range(0, connections, 50):
        batch = min(50, connections - first)
        tasks += [
            asyncio.create_task(_socket(port, f"m.{match_id}", arrivals, opened, count))
            for _ in range(batch)
        ]
        deadline = time.perf_counter() + 30
        while count[0] < first + batch and time.perf_counter() < deadline:
            await asyncio.sleep(0.005)
    await asyncio.wait_for(opened.wait(), 120)
    await asyncio.sleep(1)
    delays = []
    for _ in range(pushes):
        arrivals.clear()
        started = time.perf_counter()
        await asyncio.to_thread(save)
        deadline = time.perf_counter() + 10
        while len(arrivals) < connections and time.perf_counter() < deadline:
            await asyncio.sleep(0.005)
        if len(arrivals) < connections:
            print(f"pages.py: {len(arrivals)} of {connections} sockets heard a save in 10 s")
        delays += [arrival - started for arrival in arrivals]
        await asyncio.sleep(max(0.0, 1 - (time.perf_counter() - started)))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return delays


# --- The run ----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256])
    parser.add_argument(
        "--duration", type=int, default=20, help="seconds of wrk per page (and per baseline)"
    )
    parser.add_argument(
        "--windows", type=int, default=4, help="alternating windows the duration is cut into"
    )
    parser.add_argument("--concurrency", type=int, default=16, help="wrk's connections")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn process")
    parser.add_argument("--connections", type=int, default=1000, help="sockets for the push")
    parser.add_argument("--pushes", type=int, default=10, help="hands saved for the push")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="tanteo_bench_pages")
    parser.add_argument("--replace", action="store_true", help="drop the database if it exists")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--redis-url", help="cache and channel layer; default: a redis-server")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("pages.py: wrk not found (apt-get install wrk)")

    database = load_run.Database(args.server, args.database)
    port, ws_port = load_run.free_port(), load_run.free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DATABASE_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="pages_site",
        PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT)]),
        DATABASE_URL=database.url,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        SECURE_HSTS_SECONDS="0",
        CACHE_KEY_PREFIX=f"tanteo-pages-{port}",
        LOG_LEVEL="WARNING",
    )
    redis = gunicorn = daphne = None
    database.create(replace=args.replace)
    try:
        manage = [str(BIN / "python"), str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v0"], env=env, cwd=ROOT, check=True
        )
        if args.redis_url:
            env["REDIS_URL"] = args.redis_url
        else:
            redis_port = load_run.free_port()
            redis = subprocess.Popen(
                ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--loglevel", "warning"],
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
            load_run.wait_port(redis_port, 10)
            env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        # This process saves the results: the same database, cache and channel layer.
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        started = time.monotonic()
        data = build(args.sizes, args.duration)
        print(f"pages: data built in {time.monotonic() - started:.0f} s", flush=True)
        match_saver(data["match"]["id"])()  # a hand, so that the match has its games
        print(plans(data["match"]["id"]), flush=True)

        gunicorn = subprocess.Popen(
            [str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}",
             "--workers", str(args.workers), "--threads", str(args.threads),
             "--worker-class", "gthread", "--keep-alive", "15"],
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )  # fmt: skip
        host = f"http://127.0.0.1:{port}"
        load_run.wait_http(f"{host}/healthz", 60, gunicorn)
        load_before = load_run.load_average()
        print(
            "\n| page | req/s (cache, current) | req/s cache_page | ratio | ratio per window "
            "| req/s static file | saves | stale | non-2xx |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
            flush=True,
        )
        rows, ratios, stale = [], [], []
        for size in args.sizes:
            info = data["standings"][size]
            writer = Writer(host, info["path"], data["session"], standings_saver(info["matches"]))
            row, ratio, bad = measure(
                host, args, f"standings, {size} teams", info["path"],
                "/cache_page" + info["path"], writer,
            )  # fmt: skip
            rows.append(row)
            ratios.append(ratio)
            stale += bad
        path = data["match"]["path"]
        writer = Writer(host, path, data["session"], match_saver(data["match"]["id"]))
        row, ratio, bad = measure(host, args, "match", path, "/cache_page" + path, writer)
        rows.append(row)
        ratios.append(ratio)
        stale += bad
        load_after = load_run.load_average()
        load_run.stop(gunicorn)
        gunicorn = None

        daphne = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(ws_port), "config.asgi:application"],
            env=env,
            cwd=ROOT,
            start_new_session=True,
            stdout=subprocess.DEVNULL,  # its access log: a line per socket
            stderr=subprocess.DEVNULL,
        )
        load_run.wait_http(f"http://127.0.0.1:{ws_port}/healthz", 60, daphne)
        delays = asyncio.run(_push(ws_port, args.connections, args.pushes, data["match"]["id"]))
        delays.sort()
        ms = [1000 * d for d in delays]
        p50, p95 = statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]
        print(
            f"\npush: {args.connections} sockets, {args.pushes} saves: from the save's call to "
            f"the message on every socket p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {ms[-1]:.0f} ms"
        )
        print(f"load average {load_before} → {load_after}")
        print(
            f"target: at least {TARGET:.0%} of cache_page at every size: "
            f"{'met' if min(ratios) >= TARGET else 'MISSED'} (lowest {min(ratios):.0%}); "
            f"stale responses after a save: {len(stale)}"
        )
        for line in stale:
            print(f"stale: {line}")
        print(json.dumps({"rows": rows, "push_ms": [p50, p95, ms[-1]]}))
    finally:
        load_run.stop(daphne)
        load_run.stop(gunicorn)
        load_run.stop(redis)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        if not args.keep:
            database.drop()


if __name__ == "__main__":
    main()
