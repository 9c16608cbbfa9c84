"""Fixtures shared by the whole suite."""

import copy
import io
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection, connections

from config import celery_app
from tests.tournaments.factories import ChampionshipFactory

# The real-browser fixtures live in their own module, loaded as a plugin of the suite.
pytest_plugins = ["tests.browsers"]

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# What a child process may inherit; everything else (DATABASE_URL, DEBUG...) is dropped so
# each test states the configuration it runs under.
_INHERITED = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV", "PYTHONPATH", "TZ"}


@pytest.fixture
def championship_factory(db) -> type[ChampionshipFactory]:
    """The factory of championships (factory_boy), with database access enabled."""
    return ChampionshipFactory


# What makes a test slow: a real browser, a server or a child process of the project.
SLOW_FIXTURES = frozenset(
    {"browser", "logged_in_page", "live_server", "asgi_live_server", "run_project", "redis_server"}
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tests (``-m "not slow"`` leaves them out) and run them first.

    Under xdist each worker takes the next test when it is free: with the long ones first,
    the end of the run is short tests shared out evenly, not one worker finishing a
    browser test while the other waits. The order within each group is kept.
    """
    for item in items:
        if SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    items.sort(key=_place_in_the_run)


def _place_in_the_run(item: pytest.Item) -> int:
    """Browser tests first, the other slow ones next, then the others, then the tests that
    read the shared demo: once a process has loaded the demo (``demo``), only tests that
    read it come after, so no other test sees its championships. (Each worker runs its
    tests in this order.)"""
    # Imported here, after pytest loaded the plugin: imported at the top, before it, the
    # module's asserts would not be rewritten.
    from tests.browsers import BROWSER_FIXTURES

    names = getattr(item, "fixturenames", ())
    if BROWSER_FIXTURES.intersection(names):
        return 0  # the shared Chromium is closed after the last of them (``browser``)
    if item.get_closest_marker("slow") is not None:
        return 1
    return 3 if "demo" in names else 2


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher() -> Iterator[None]:
    """Passwords hashed with a fast hasher for the whole run.

    The production hasher (PBKDF2, a million iterations) is slow on purpose: every user a
    test creates and every login it makes paid for it (the login lockout's tests, sixty
    passwords each, took a minute). What the tests check of passwords (right or wrong,
    locked out or not) does not depend on the hasher. Child processes (``run_project``)
    keep the production settings: a password they check is hashed with the production
    hasher, still known here (``make_password(..., hasher="pbkdf2_sha256")``).
    """
    from django.test import override_settings

    fast = override_settings(
        PASSWORD_HASHERS=[
            "django.contrib.auth.hashers.MD5PasswordHasher",
            "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        ]
    )
    fast.enable()
    yield
    fast.disable()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's default language, whatever the one before it did.

    A request leaves its language active in the thread (LocaleMiddleware activates it and
    nothing resets it), so a test after one that asked for English got English output
    where Spanish was expected: a failure that depended on the tests' order.
    """
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def celery_eager(request, monkeypatch) -> None:
    """Run Celery tasks in-process, as without a broker, unless the test needs the broker.

    Tests check what tasks do, not the transport: with ``CELERY_BROKER_URL`` set and no
    worker running, queued tasks would otherwise never run (and pile up in Redis).
    Tests marked ``celery_broker`` start their own worker and keep the real broker.
    """
    if request.node.get_closest_marker("celery_broker") is None:
        monkeypatch.setattr(celery_app.conf, "task_always_eager", True)
        monkeypatch.setattr(celery_app.conf, "task_eager_propagates", True)


@pytest.fixture(scope="session", autouse=True)
def _own_cache_and_channel_layer() -> Iterator[None]:
    """Each test process (``pytest -n``) keeps its keys and its sockets' groups apart.

    CI points every process at one Redis: with one key prefix, a process would read the
    pages another one cached for its own database (the same slugs and ids), and their
    sockets would hear each other's announcements.
    """
    from django.test import override_settings

    caches = copy.deepcopy(settings.CACHES)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"{caches['default'].get('KEY_PREFIX', '')}:{worker}"
    caches["default"]["KEY_PREFIX"] = prefix
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    if "CONFIG" in layers["default"]:
        layers["default"]["CONFIG"]["prefix"] = f"{prefix}:asgi"
    with override_settings(CACHES=caches, CHANNEL_LAYERS=layers):
        yield


def clear_own_cache() -> None:
    """Empty this process's cache and nothing else.

    ``cache.clear()`` on Redis empties the whole database: the other processes' keys and
    the channel layer's groups with them, so their open pages stop hearing anything.
    """
    from django.core.cache import cache

    client = getattr(cache, "_cache", None)
    if client is None or not hasattr(client, "get_client"):  # local memory: this process's
        cache.clear()
        return
    redis = client.get_client(write=True)
    # Django's keys are "<prefix>:<version>:<key>"; the layer's "<prefix>:asgi…" stay.
    pattern = cache.make_key("*")
    keys = list(redis.scan_iter(match=pattern, count=1000))
    for start in range(0, len(keys), 500):
        redis.delete(*keys[start : start + 500])


@pytest.fixture(autouse=True)
def page_cache(request) -> Iterator[None]:
    """The public pages' cache, on only where a write's announcement reaches it.

    A write announces itself when its transaction commits (``tournaments.signals``),
    which never happens inside a test run in a transaction (the ``db`` fixture): a page
    cached there would stay stale. Browser tests (real commits) and tests marked
    ``page_cache`` keep it, emptied first (ids restart from one test to the next).
    """
    from django.test import override_settings

    wanted = request.node.get_closest_marker("page_cache") is not None or any(
        name in request.fixturenames for name in ("live_server", "asgi_live_server")
    )
    if wanted:
        clear_own_cache()
    # Each write renews its published pages at once: the renewer's thread, which renews a
    # page at the end of its moment, reads through a connection of its own, which sees
    # nothing of a test run in a transaction (tests that try it set a moment themselves:
    # published_pages/test_coalesced_renewals.py).
    with override_settings(PAGE_CACHE=wanted, PUBLISHED_RENEW_EVERY=0):
        yield


@dataclass(frozen=True)
class DemoLoad:
    """What loading the demo said (``manage.py load_demo``'s lines) when the process did."""

    output: str


_demo_state = {"loaded": False}


@pytest.fixture(scope="session")
def _demo_loaded(django_db_setup, django_db_blocker) -> Iterator[DemoLoad]:
    """The whole demo, loaded once per test process in a transaction left open, rolled back
    at the end of the run: every test that reads it (``demo``) runs inside it, in a
    savepoint of its own, and finds the demo as loaded whatever the test before it wrote.

    Loading took 20 to 40 s; eleven tests loaded it each (and the archive's, four of its
    championships each). It is loaded as ``manage.py load_demo`` loads it: in the site's
    default language, its tasks run as each build commits (eager: no broker here), with
    the pages' cache off as in every test run in a transaction."""
    from django.core.management import call_command
    from django.db import transaction
    from django.test import TestCase, override_settings
    from django.utils import translation

    out = io.StringIO()
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
    try:
        eager = {"task_always_eager": True, "task_eager_propagates": True}
        before = {name: getattr(celery_app.conf, name) for name in eager}
        with django_db_blocker.unblock(), override_settings(PAGE_CACHE=False):
            try:
                celery_app.conf.update(eager)
                with (
                    translation.override(settings.LANGUAGE_CODE),
                    TestCase.captureOnCommitCallbacks(execute=True),
                ):
                    call_command("load_demo", stdout=out)
            finally:
                celery_app.conf.update(before)
        _demo_state["loaded"] = True
        yield DemoLoad(output=out.getvalue())
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def demo(_demo_loaded, db) -> DemoLoad:
    """The whole demo (``load_demo``), shared by the tests of this process that read it
    (``_demo_loaded``): what a test writes is rolled back after it."""
    return _demo_loaded


@pytest.fixture(autouse=True)
def _demo_read_only_by_its_tests(request) -> None:
    """A test that does not read the demo must not run while it is loaded: it would see
    twelve championships it did not make (the run's order puts the demo's tests last)."""
    if _demo_state["loaded"] and "demo" not in request.fixturenames:
        pytest.fail("a test that does not read the demo ran after it was loaded in this process")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Leave no session open on a PostgreSQL test database before it is dropped.

    The connection pool keeps idle connections open, and a thread that ends while holding a
    pooled connection (the live server's request threads) never hands it back: either one
    makes DROP DATABASE fail and leaves the test database behind.
    """
    yield
    with django_db_blocker.unblock():
        for connection in connections.all(initialized_only=True):
            if connection.vendor != "postgresql":
                continue
            connection.close()
            if connection.pool is not None:
                connection.close_pool()
            with connection._nodb_cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = %s AND pid <> pg_backend_pid()",
                    [connection.settings_dict["NAME"]],
                )


def _child_env(overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key in _INHERITED}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(overrides or {})
    return env


@pytest.fixture
def child_env():
    """Build a child process's environment: the bare minimum plus the given overrides."""
    return _child_env


@pytest.fixture
def run_project():
    """Run ``python <args>`` from the project root with only the given variables set."""

    def run(args: list[str], env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args],
            cwd=PROJECT_ROOT,
            env=_child_env(env),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return run


# --- A broker of the test's own -------------------------------------------------------------


class RedisServer:
    """A redis-server process on a free local port, which a test may stop and start again."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False


@pytest.fixture
def redis_server(tmp_path) -> Iterator[RedisServer]:
    """A redis-server of this test only (never the shared one); skips if none is installed."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def celery_broker_at(monkeypatch):
    """Point this process's Celery app at ``url`` (not eager) for the test, then back."""
    conf = celery_app.conf

    def drop_connections() -> None:
        # Forget the app's pools, never close them: kombu keeps them in a registry per
        # broker URL, where a closed one would fail every later publish of this process.
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    def point(url: str) -> None:
        drop_connections()
        # Celery reads the environment's CELERY_BROKER_URL before its own setting (as CI
        # sets it, for the machine's Redis): both must name the test's broker.
        monkeypatch.setenv("CELERY_BROKER_URL", url)
        monkeypatch.setattr(conf, "broker_url", url)
        monkeypatch.setattr(conf, "task_always_eager", False)

    yield point
    drop_connections()


def database_url_of_this_test() -> str:
    """The URL of the database this test writes to (pytest-django renames it ``test_*``)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    credentials = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"], safe="")
    host = db["HOST"] or "localhost"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{credentials}@{host}{port}/{quote(db['NAME'], safe='')}"


def start_worker(env: Mapping[str, str], *args: str) -> subprocess.Popen:
    """A Celery worker process (solo pool) with the given environment, output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--loglevel", "INFO", "--without-gossip", "--without-mingle", "--without-heartbeat",
         *args],
        cwd=settings.BASE_DIR,
        env=_child_env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip


def start_nginx(home: Path, http: str, server: str) -> tuple[subprocess.Popen, str]:
    """nginx on a free port with ``http`` in its http block and ``server`` in its one
    server block (``manage.py proxy_config``'s parts), its files under ``home``: the
    process and its URL. Skips the test when nginx is not installed."""
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    (home / "tmp").mkdir(parents=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # As root, nginx's workers would be nobody, who cannot read the test's folders.
    user = "user root;\n" if os.geteuid() == 0 else ""
    (home / "nginx.conf").write_text(
        f"{user}daemon off; pid {home}/nginx.pid; error_log {home}/error.log warn;\n"
        "events { worker_connections 64; }\n"
        f"http {{ access_log off; client_body_temp_path {home}/tmp; "
        f"proxy_temp_path {home}/tmp;\n{http}\n"
        f"server {{ listen 127.0.0.1:{port};\n{server}\n}} }}\n"
    )
    process = subprocess.Popen(["nginx", "-c", str(home / "nginx.conf"), "-p", str(home)])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    return process, f"http://127.0.0.1:{port}"


# --- An ASGI server (sockets included) --------------------------------------------------------


class AsgiServer:
    """Daphne serving ``config.asgi`` (the site, its static files and the live pages'
    sockets) from a thread of this process, so it reads the test's database."""

    def __init__(self) -> None:
        import threading

        self.url = ""
        self.server = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="asgi-live-server", daemon=True)

    def _run(self) -> None:
        import asyncio

        from daphne.server import Server
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from config import asgi

        asyncio.set_event_loop(asyncio.new_event_loop())
        application = asgi.ProtocolTypeRouter(
            {
                "http": ASGIStaticFilesHandler(asgi.django_application),
                "websocket": asgi.application.application_mapping["websocket"],
            }
        )
        self.server = Server(
            application=application,
            endpoints=["tcp:port=0:interface=127.0.0.1"],
            signal_handlers=False,
            ready_callable=None,
            verbosity=0,
        )
        from twisted.internet import reactor

        def resolve() -> None:
            if self.server.listening_addresses:
                host, port = self.server.listening_addresses[0]
                self.url = f"http://{host}:{port}"
                self._ready.set()
            else:
                reactor.callLater(0.05, resolve)

        reactor.callLater(0.05, resolve)
        self.server.run()

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(20):
            raise RuntimeError("daphne did not start listening")

    def stop(self) -> None:
        from twisted.internet import reactor

        if self.server is not None:
            reactor.callFromThread(self.server.stop)
            self._thread.join(10)


@pytest.fixture(scope="session")
def _asgi_server() -> Iterator[AsgiServer]:
    # Twisted's reactor runs once per process: one server for the whole session.
    server = AsgiServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def asgi_live_server(_asgi_server, transactional_db, settings) -> AsgiServer:
    """An ASGI live server (sockets included) on the test's database, with the page cache
    (``page_cache``) and the in-memory channel layer of this process (``live_server`` is
    WSGI only)."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    return _asgi_server
