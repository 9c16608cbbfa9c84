"""PostgreSQL dropping the site's connections (a restart, a failover, an idle-connection
reaper) costs no request after it: a connection is checked before a request uses it.

The site runs as in production, in a gunicorn process of its own (threads, psycopg's
pool) on the test's database, its connections named so that only they are ended: the
test process's own connections stay alive for the tests after this one.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.urls import reverse

from tests.conftest import database_url_of_this_test
from tests.tournaments.factories import ChampionshipFactory, UserFactory

PASSWORD = "una-clave-larga-2026"
NAME = "tanteo-database-faults"


def _terminate_the_sites_connections() -> int:
    """From a session of its own, as an administrator would: every connection the site
    holds is ended by the server."""
    with psycopg.connect(database_url_of_this_test(), autocommit=True) as admin:
        return admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [NAME],
        ).fetchone()[0]


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def site(transactional_db, child_env):
    """The site in gunicorn (4 threads) on the test's database; its base URL."""
    if connection.vendor != "postgresql":
        pytest.skip("the pool and pg_terminate_backend are PostgreSQL's")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = child_env({"DATABASE_URL": f"{database_url_of_this_test()}?application_name={NAME}"})
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--threads", "4", "--worker-class", "gthread"],
        cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if _get(url + "/healthz") == 200:
                break
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            pytest.fail(f"gunicorn did not start: {server.communicate()[1][-2000:]}")
        time.sleep(0.2)
    yield url
    server.terminate()
    server.communicate(timeout=30)


def test_connections_terminated_between_two_requests_fail_none_of_the_next(site):
    championship = ChampionshipFactory(slug="copa")
    user = UserFactory(username="organiser")
    # The site runs in a process of its own, with the production hasher (the suite's fast
    # one is for this process only: tests/conftest.py).
    user.password = make_password(PASSWORD, hasher="pbkdf2_sha256")
    user.save()
    pages = [
        site + reverse("tournaments:home"),
        site + reverse("tournaments:championship", args=[championship.slug]),
        site + "/api/v1/championships/",
    ]
    for page in pages * 4:
        assert _get(page) == 200

    assert _terminate_the_sites_connections() >= 1

    # Without the check, the next requests drew the dead connections and answered 500.
    assert [_get(page) for page in pages * 4] == [200] * 12
    # And a log in, with its session in the database.
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    login = site + reverse("login")
    with browser.open(login, timeout=30) as form:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.read().decode())
    _terminate_the_sites_connections()
    data = urllib.parse.urlencode(
        {"username": "organiser", "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    with browser.open(urllib.request.Request(login, data=data), timeout=30) as answer:
        assert answer.status == 200  # followed to the organiser's pages
        assert "/organiser/" in answer.url
