"""PostgreSQL dropping the site's connections (a restart, a failover, an idle-connection
reaper) costs no request after it: the pool hands out only live connections."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request

import psycopg
import pytest
from django.db import connection
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, UserFactory

PASSWORD = "una-clave-larga-2026"


def _terminate_the_sites_connections() -> int:
    """From a session of its own, as an administrator would: every other connection to
    the test database is ended by the server."""
    params = connection.settings_dict
    with psycopg.connect(
        dbname=params["NAME"],
        user=params["USER"],
        password=params["PASSWORD"] or None,
        host=params["HOST"] or None,
        port=params["PORT"] or None,
        autocommit=True,
    ) as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]
    return ended


def _get(url: str, opener=None) -> int:
    try:
        with (opener or urllib.request.build_opener()).open(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_connections_terminated_between_two_requests_fail_none_of_the_next(live_server):
    """Real requests (the live server's threads): each takes a connection from the pool
    and gives it back at its end, as under gunicorn."""
    if connection.vendor != "postgresql":
        pytest.skip("the pool and pg_terminate_backend are PostgreSQL's")
    championship = ChampionshipFactory(slug="copa")
    user = UserFactory(username="organiser")
    user.set_password(PASSWORD)
    user.save()
    pages = [
        live_server.url + reverse("tournaments:home"),
        live_server.url + reverse("tournaments:championship", args=[championship.slug]),
        live_server.url + "/api/v1/championships/",
    ]
    for page in pages * 2:
        assert _get(page) == 200

    connection.close()  # the test's own, back to the pool: terminated with the others
    assert _terminate_the_sites_connections() >= 1

    # Without the check, the next requests drew the dead connections and answered 500.
    assert [_get(page) for page in pages * 4] == [200] * 12
    # And a log in, with its session in the database.
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    login = live_server.url + reverse("login")
    with browser.open(login, timeout=30) as form:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.read().decode())
    data = urllib.parse.urlencode(
        {"username": "organiser", "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    with browser.open(urllib.request.Request(login, data=data), timeout=30) as answer:
        assert answer.status == 200  # followed to the organiser's pages
        assert "/organiser/" in answer.url
