"""The load benchmark, from nothing to a results row: one command, everything on 127.0.0.1.

    .venv/bin/python bench/load/run.py                       # 200 tables, 2,000 spectators
    .venv/bin/python bench/load/run.py --tables 20 --spectators 100 --duration 60   # a smoke run

1. Creates a PostgreSQL database of its own (``--database``, refused if it exists unless
   ``--replace``), migrates it, collects the static files (``DEBUG`` is off: the pages
   name the hashed files of the manifest).
2. Builds the championship day (``bench/load/setup.py``): ``--tables`` matches started,
   one referee each, their sessions written for the locustfile.
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
5. Writes ``--out``/summary.json, Locust's CSV files and results.md (a Markdown table
   row: p50/p95/p99 of save, tap, sheet and public page, requests per second, errors,
   the load average before and after) and machine.md (the cores each program took over
   the measured window: ``machine.py``), prints them, then stops the servers and drops the
   database (``--keep`` keeps it).

``--published``: the public pages published as files (``PUBLISHED_PAGES_DIR``, under
``--out``) and served by nginx on the rules ``manage.py proxy_config`` prints. When the
load stops, every file left is compared with the page Django serves (``stale_files``):
the run prints how many are not current.

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
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import cpu  # this folder (bench/load/cpu.py)
import faults  # this folder (bench/load/faults.py)
import machine  # this folder (bench/load/machine.py)

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
TARGETS = {"save": 200.0, "page": 100.0}  # p95, milliseconds (the hardening issue)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def _wait_http(url: str, seconds: float, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"run.py: the server exited ({process.returncode}) before answering")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"run.py: {url} did not answer within {seconds:.0f} s")


def _wait_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"run.py: nothing listens on 127.0.0.1:{port}")


def _stop(process: subprocess.Popen | None, timeout: float = 20) -> None:
    """Stop a server and every process it started: its own process group (each server is
    started with ``start_new_session``), since a gunicorn master killed after its timeout
    would otherwise leave its workers running."""
    if process is None:
        return
    try:
        group = os.getpgid(process.pid)
    except ProcessLookupError:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)
    process.wait()


def site_env(database_url: str, host: str, cache_prefix: str) -> dict[str, str]:
    """The environment of the site under test: as in production (``DEBUG`` off, a random
    ``SECRET_KEY``) but on plain HTTP (no SSL redirect, no secure cookies, no HSTS), on
    ``database_url``, with no Celery broker (the standings refresh runs in the request)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DATABASE_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=host,
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        SECURE_HSTS_SECONDS="0",
        CACHE_KEY_PREFIX=cache_prefix,
        LOG_LEVEL="WARNING",
    )
    return env


def build_day(env: dict[str, str], tables: int, data: Path) -> None:
    """Migrate the database of ``env``, collect the static files (``DEBUG`` is off: the
    pages name the hashed files of the manifest) and build the day (``setup.py``), whose
    ids and sessions go to ``data``."""
    python = str(BIN / "python")
    manage = [python, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    subprocess.run(
        [python, str(HERE / "setup.py"), "--tables", str(tables), "--out", str(data)],
        env=env,
        cwd=ROOT,
        check=True,
    )


def start_redis() -> tuple[subprocess.Popen, str]:
    """A redis-server of the run's own on a free port, and its URL."""
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server not found (apt-get install redis-server)")
    port = _free_port()
    redis = subprocess.Popen(
        [
            *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
        ],
        stdout=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, for _stop
    )
    _wait_port(port, 10)
    return redis, f"redis://127.0.0.1:{port}/0"


class Database:
    """A PostgreSQL database created for the run and dropped after it."""

    def __init__(self, server: str, name: str) -> None:
        import psycopg

        self.psycopg = psycopg
        self.server = server.rstrip("/")
        self.name = name
        self.url = f"{self.server}/{name}"

    def _admin(self) -> Any:
        return self.psycopg.connect(f"{self.server}/postgres", autocommit=True)

    def create(self, *, replace: bool) -> None:
        with self._admin() as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [self.name]
            ).fetchone()
            if exists and not replace:
                raise SystemExit(
                    f"run.py: database {self.name} exists; pass --replace to drop and rebuild it"
                )
            if exists:
                self.drop()
            conn.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _ms(value: float) -> str:
    return f"{value:,.0f}" if value == value else "–"  # NaN: no sample


def _row(summary: dict, args: argparse.Namespace, load_before: str, load_after: str) -> str:
    kinds = summary["kinds"]

    def cell(kind: str) -> str:
        k = kinds.get(kind)
        return " / ".join(_ms(k[p]) for p in ("p50", "p95", "p99")) if k else "–"

    errors = f"{summary['failures']} of {summary['requests']:,}"
    return (
        f"| {0 if args.floor else args.tables} | {args.spectators:,} | {_server(args)} "
        f"| {cell('save')} | {cell('tap')} | {cell('sheet')} | {cell('page')} "
        f"| {summary['rps']:,.0f} | {errors} | {load_before} → {load_after} |"
    )


HEADER = (
    "| tables | spectators | gunicorn | save p50/p95/p99 ms | tap p50/p95/p99 ms "
    "| sheet p50/p95/p99 ms | page p50/p95/p99 ms | req/s | errors | load avg before → after |\n"
    "|---:|---:|---|---:|---:|---:|---:|---:|---:|---|"
)


def _server(args: argparse.Namespace) -> str:
    if args.floor:
        return "nginx, copies of the pages (floor)"
    shape = (
        f"{args.workers} sync" if args.worker_class == "sync" else f"{args.workers}×{args.threads}"
    )
    if args.published:
        return f"nginx (published pages) → {shape}"
    return f"nginx → {shape}" if args.proxy == "nginx" else shape


NGINX_CONF = """\
{user}daemon off;
worker_processes 1;
pid {out}/nginx.pid;
error_log {out}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {out}/tmp/body;
    proxy_temp_path {out}/tmp/proxy;
    fastcgi_temp_path {out}/tmp/fastcgi;
    uwsgi_temp_path {out}/tmp/uwsgi;
    scgi_temp_path {out}/tmp/scgi;
    client_max_body_size 10m;
    keepalive_timeout 75s;
    keepalive_requests 100000;
{http}
    server {{
        listen 127.0.0.1:{port};
{locations}
    }}
}}
"""
PROXY = """\
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 120s;
        }}"""
# --floor: each public page of the day as nginx serves a file (the spectators' URLs).
FLOOR_PAGES = {
    "home": r"= /",
    "championship": r"~ ^/c/[^/]+/$",
    "standings": r"~ /standings/$",
    "round": r"~ /rounds/[0-9]+/$",
    "match": r"~ /matches/[0-9]+/$",
}


def _nginx(
    out: Path, port: int, locations: str, name: str = "nginx", http: str = ""
) -> subprocess.Popen:
    """nginx on ``port`` serving ``locations`` (``PROXY``: in front of gunicorn, as README.md
    deploys it; the clients' keep-alive connections end at the proxy, which opens one
    connection to gunicorn per request), ``http`` in its http block, its files under
    ``out``/``name``."""
    if shutil.which("nginx") is None:
        raise SystemExit("run.py: nginx not found (apt-get install nginx-light), or --proxy none")
    home = out / name
    for temp in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (home / "tmp" / temp).mkdir(parents=True, exist_ok=True)
    conf = home / "nginx.conf"
    # As root, nginx's workers would run as nobody, who may not read the published pages.
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf.write_text(
        NGINX_CONF.format(out=home.resolve(), port=port, locations=locations, http=http, user=user)
    )
    process = subprocess.Popen(
        ["nginx", "-c", str(conf.resolve()), "-p", str(home.resolve())],
        start_new_session=True,  # its own process group, for _stop
    )
    _wait_port(port, 10)
    return process


def _published_proxy(env: dict[str, str], upstream: str) -> tuple[str, str]:
    """The http and server parts of the site's own nginx rules (``manage.py
    proxy_config``) for the published pages, proxying the rest to ``upstream``."""
    command = [str(BIN / "python"), str(ROOT / "manage.py"), "proxy_config"]
    http, server = (
        subprocess.run(
            [*command, "--upstream", upstream, "--part", part],
            env=env,
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for part in ("http", "server")
    )
    return http, server


# Renewals still running when the load stops (each takes milliseconds) are given this.
SETTLE = 3.0


def stale_files(pages: Path, site: str) -> tuple[int, list[str]]:
    """How many published pages there are at the end of the run, and those that are not
    the page Django serves now (asked of gunicorn itself, in the page's language; a file
    whose page is current is the very content in the cache, byte for byte)."""
    stale = []
    files = sorted(pages.glob("*/**/index.html"))
    for file in files:
        language, *parts = file.relative_to(pages).parts[:-1]
        path = "/" + "".join(f"{part}/" for part in parts)
        request = urllib.request.Request(
            f"{site}{path}", headers={"Cookie": f"django_language={language}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                current = response.read()
        except OSError:
            current = None
        if current != file.read_bytes():
            stale.append(f"{language}{path}")
    return len(files), stale


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
    port = _free_port()
    return _nginx(out, port, locations, name="floor"), f"http://127.0.0.1:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--duration", type=int, default=180, help="measured seconds")
    parser.add_argument("--ramp", type=int, default=60, help="seconds to spawn every user")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn processes")
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

    args.out.mkdir(parents=True, exist_ok=True)
    database = Database(args.server, args.database)
    port = _free_port()
    env = site_env(database.url, "127.0.0.1", f"tanteo-load-{port}")
    redis = gunicorn = proxy = floor = None
    database.create(replace=args.replace)
    try:
        data = args.out / "data.json"
        started = time.monotonic()
        build_day(env, args.tables, data)
        print(f"run: championship day built in {time.monotonic() - started:.0f} s")

        if args.published:
            published = args.out / "published"
            shutil.rmtree(published, ignore_errors=True)
            env["PUBLISHED_PAGES_DIR"] = str(published.resolve())
        if args.redis_down:
            env["REDIS_URL"] = f"redis://127.0.0.1:{_free_port()}/0"  # nobody listens
        elif args.redis_url:
            env["REDIS_URL"] = args.redis_url
        else:
            redis, env["REDIS_URL"] = start_redis()

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
        gunicorn = subprocess.Popen(
            [
                *(str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}"),
                *("--workers", str(args.workers), "--threads", str(args.threads)),
                *("--worker-class", args.worker_class, "--keep-alive", str(args.keep_alive)),
                *("--worker-connections", str(args.worker_connections)),
                *("--error-logfile", str(args.out / "gunicorn.log")),
            ],
            env=server_env,
            cwd=ROOT,
            start_new_session=True,  # its own process group: _stop ends the workers too
        )
        _wait_http(f"http://127.0.0.1:{port}/healthz", 60, gunicorn)
        host = f"http://127.0.0.1:{port}"
        if args.published:
            proxy_port = _free_port()
            http, locations = _published_proxy(server_env, host)
            proxy = _nginx(args.out, proxy_port, locations, http=http)
            host = f"http://127.0.0.1:{proxy_port}"
            _wait_http(f"{host}/healthz", 10, proxy)
        elif args.proxy == "nginx":
            proxy_port = _free_port()
            proxy = _nginx(args.out, proxy_port, PROXY.format(upstream=port))
            host = f"http://127.0.0.1:{proxy_port}"
            _wait_http(f"{host}/healthz", 10, proxy)

        tables = args.tables
        if args.floor:
            floor, host = _floor(args.out, host, json.loads(data.read_text()))
            tables = 0  # the referees' writes need the site: left out
        users = tables + args.spectators
        summary_file = args.out / "summary.json"
        summary_file.unlink(missing_ok=True)
        load_before = _load()
        print(f"run: {users} users against {host}; load average {load_before}")
        locust_env = {
            **env,
            "BENCH_LOAD_DATA": str(data),
            "BENCH_TABLES": str(tables),
            "BENCH_SPECTATORS": str(args.spectators),
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
                "gunicorn": gunicorn.pid,
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
        load_after = _load()
        if not summary_file.exists():
            raise SystemExit("run.py: Locust wrote no summary")
        summary = json.loads(summary_file.read_text())
        summary["load_average"] = {"before": load_before, "after": load_after}
        summary["faults"] = fault.done
        if args.published:
            time.sleep(SETTLE)
            count, stale = stale_files(published / "pages", f"http://127.0.0.1:{port}")
            summary["published"] = {"files": count, "stale": stale}
        summary_file.write_text(json.dumps(summary, indent=1))
        row = _row(summary, args, load_before, load_after)
        (args.out / "results.md").write_text(f"{HEADER}\n{row}\n")
        print(f"\n{HEADER}\n{row}")
        save = summary["kinds"].get("save", {}).get("p95", float("nan"))
        page = summary["kinds"].get("page", {}).get("p95", float("nan"))
        print(
            f"\ntargets: 0 errors ({summary['failures']}), p95 save ≤ 200 ms ({_ms(save)}), "
            f"p95 page ≤ 100 ms ({_ms(page)}); measured over {summary['seconds']:.0f} s"
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
        _stop(floor)
        _stop(proxy)
        _stop(gunicorn)
        _stop(redis)
        if not args.keep:
            database.drop()


if __name__ == "__main__":
    main()
