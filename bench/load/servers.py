"""The servers of a load run, each in a process group of its own on 127.0.0.1: a
PostgreSQL database made for the run, a redis-server, the site's nodes (gunicorn) and
nginx in front of them (``run.py``; ``costs.py`` and ``bench/pages.py`` use some)."""

from __future__ import annotations

import contextlib
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

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def wait_http(url: str, seconds: float, process: subprocess.Popen) -> None:
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


def wait_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"run.py: nothing listens on 127.0.0.1:{port}")


def stop(process: subprocess.Popen | None, timeout: float = 20) -> None:
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


def build_day(env: dict[str, str], tables: int, data: Path, report_tables: int = 0) -> None:
    """Migrate the database of ``env``, collect the static files (``DEBUG`` is off: the
    pages name the hashed files of the manifest) and build the day (``setup.py``: ``tables``
    with referees, ``report_tables`` where the teams report), whose ids, sessions and
    links go to ``data``."""
    python = str(BIN / "python")
    manage = [python, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    subprocess.run(
        [
            *(python, str(HERE / "setup.py"), "--tables", str(tables)),
            *("--report-tables", str(report_tables), "--out", str(data)),
        ],
        env=env,
        cwd=ROOT,
        check=True,
    )


def start_redis() -> tuple[subprocess.Popen, str]:
    """A redis-server of the run's own on a free port, and its URL."""
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server not found (apt-get install redis-server)")
    port = free_port()
    redis = subprocess.Popen(
        [
            *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
            *("--save", "", "--appendonly", "no", "--loglevel", "warning"),
        ],
        stdout=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, for stop()
    )
    wait_port(port, 10)
    return redis, f"redis://127.0.0.1:{port}/0"


def start_gunicorn(env: dict[str, str], port: int, args: Any, log: Path) -> subprocess.Popen:
    """One node of the site: gunicorn on ``port`` with the shape ``args`` asks for
    (``--workers`` processes of ``--threads`` threads...), answering ``/healthz``."""
    gunicorn = subprocess.Popen(
        [
            *(str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}"),
            *("--workers", str(args.workers), "--threads", str(args.threads)),
            *("--worker-class", args.worker_class, "--keep-alive", str(args.keep_alive)),
            *("--worker-connections", str(args.worker_connections)),
            *("--error-logfile", str(log)),
        ],
        env=env,
        cwd=ROOT,
        start_new_session=True,  # its own process group: stop() ends the workers too
    )
    wait_http(f"http://127.0.0.1:{port}/healthz", 60, gunicorn)
    return gunicorn


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
            proxy_pass http://{upstream};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 120s;
        }}"""


def proxy_to(ports: list[int]) -> tuple[str, str]:
    """The http and server parts of nginx in front of the nodes on ``ports`` (in turn,
    nginx's round robin), without the published pages."""
    if len(ports) == 1:
        return "", PROXY.format(upstream=f"127.0.0.1:{ports[0]}")
    servers = "".join(f"        server 127.0.0.1:{port};\n" for port in ports)
    return f"    upstream tanteo_nodes {{\n{servers}    }}\n", PROXY.format(upstream="tanteo_nodes")


def start_nginx(
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
        start_new_session=True,  # its own process group, for stop()
    )
    wait_port(port, 10)
    return process


def published_proxy(env: dict[str, str], upstreams: list[str]) -> tuple[str, str]:
    """The http and server parts of the site's own nginx rules (``manage.py
    proxy_config``) for the published pages, proxying the rest to the nodes at
    ``upstreams``."""
    command = [str(BIN / "python"), str(ROOT / "manage.py"), "proxy_config"]
    for upstream in upstreams:
        command += ["--upstream", upstream]
    http, server = (
        subprocess.run(
            [*command, "--part", part],
            env=env,
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for part in ("http", "server")
    )
    return http, server
