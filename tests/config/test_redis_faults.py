"""Redis is an accelerator: with it gone, hands are saved, pages read and users logged in.

Each test runs a redis-server of its own (skipped when none is installed) as the site's
cache and channel layer, then stops it, as the broker-fault tests do
(``test_celery_faults.py``); and checks what a referee, a spectator and an organiser see.
"""

from __future__ import annotations

import logging
import time
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from config import cache as redis_cache
from config.asgi import application
from tests.api.conftest import V1, client_for
from tests.referees.conftest import Tablet, make_match
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import RefereeFactory, UserFactory
from tournaments.live import announce
from tournaments.models import Hand, Match
from tournaments.results import services as result_services

pytestmark = pytest.mark.page_cache
ORIGIN = [(b"origin", b"http://localhost")]
PASSWORD = "una-clave-larga-2026"


@pytest.fixture
def site_redis(redis_server, settings, monkeypatch):
    """The site's cache and channel layer on the test's own redis-server; its recovery
    watched more often than in production, so the tests wait less."""
    prefix = f"faults-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": redis_server.url,
            "KEY_PREFIX": prefix,
        }
    }
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_server.url], "prefix": f"{prefix}:asgi"},
        }
    }
    monkeypatch.setattr(redis_cache, "RETRY_INTERVAL", 0.05)
    monkeypatch.setattr(announce, "CATCH_UP_INTERVAL", 0.05)
    yield redis_server
    if redis_server.process is None:
        redis_server.start()
    # No test leaves this process's cache away, or its catch-up running (their threads
    # would outlive the test).
    _wait_until(lambda: not _away(), "the cache is back")
    _wait_until(lambda: announce._catch_up.thread is None, "the catch-up is done")


def _away() -> bool:
    return any(outage.away for outage in redis_cache._outages.values())


def _wait_until(condition, what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def _match_page(match: Match) -> str:
    return reverse("tournaments:match", args=[match.stage.championship.slug, match.pk])


def _headline_games(page: str, side: str) -> int:
    mark = f'data-games-side="{side}">'
    start = page.index(mark) + len(mark)
    return int(page[start : page.index("<", start)])


@pytest.mark.django_db
def test_with_redis_gone_hands_are_saved_pages_read_and_users_logged_in(
    site_redis, django_capture_on_commit_callbacks, caplog
):
    referee = RefereeFactory(username="arbitra")
    referee.set_password(PASSWORD)
    referee.save()
    match = make_match(referee=referee)
    result_services.match_start(match=match)
    spectator = Client()
    page = _match_page(match)
    assert spectator.get(page).status_code == 200  # cached, while Redis is there

    site_redis.stop()
    with (
        caplog.at_level(logging.ERROR, logger="config.cache"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        # The API: a hand stored and answered as usual (the throttles let it through).
        api = client_for(referee)
        stored = api.post(
            f"{V1}/matches/{match.pk}/hands/",
            {"number": 1, "events": chico_hand(match, "A")["events"]},
            format="json",
        )
        assert stored.status_code == 201, stored.content
        # The tablet page: a hand tapped and saved.
        referee_client = Client(HTTP_ACCEPT_LANGUAGE="en")
        referee_client.force_login(referee)
        tablet = Tablet(referee_client, match).open()
        tablet.tap("Ana calls truco")
        tablet.tap("Beto: quiero")
        tablet.tap("Trick to Ana and Alba")
        tablet.tap("Trick to Ana and Alba")
        tablet.save()
    assert list(Hand.objects.filter(match=match).values_list("number", flat=True)) == [1, 2]
    assert "is unreachable" in caplog.text

    # The public page, rendered from the database: both hands, and kept nowhere.
    response = spectator.get(page)
    assert response.status_code == 200
    assert _headline_games(response.content.decode(), "A") == 1
    assert "private" in response["Cache-Control"] and not response.has_header("ETag")

    # A log in, with the session kept in the database only.
    user = Client()
    login = user.post(reverse("login"), {"username": "arbitra", "password": PASSWORD})
    assert login.status_code == 302
    assert user.get(reverse("referees:matches")).status_code == 200


@pytest.mark.django_db
def test_the_apis_throttles_let_requests_through_while_redis_is_gone(site_redis, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user_write": "2/min"},
    }
    make_match()
    anonymous = client_for()
    assert [anonymous.get(f"{V1}/championships/").status_code for _ in range(3)] == [200, 200, 429]
    site_redis.stop()
    assert {anonymous.get(f"{V1}/championships/").status_code for _ in range(5)} == {200}


@pytest.mark.django_db
def test_a_change_made_while_redis_was_cut_is_seen_soon_after_it_is_back(
    site_redis, django_capture_on_commit_callbacks
):
    """Redis kept its data (a network cut, a failover): the page cached before the hand
    must not be served again once it answers."""
    match = make_match()
    result_services.match_start(match=match)
    spectator = Client()
    page = _match_page(match)
    assert _headline_games(spectator.get(page).content.decode(), "A") == 0

    redis.Redis.from_url(site_redis.url).save()  # what it holds now survives its restart
    site_redis.stop()
    with django_capture_on_commit_callbacks(execute=True):
        result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    site_redis.start()

    back = time.monotonic()
    _wait_until(lambda: _headline_games(spectator.get(page).content.decode(), "A") == 1,
                "the page shows the hand", timeout=2)  # fmt: skip
    assert time.monotonic() - back < 2
    # Rendered uncached while this process still counts Redis away, from the cache once
    # it has found it back (and deleted what it failed to write meanwhile).
    _wait_until(lambda: not _away(), "the cache is back")
    assert spectator.get(page).has_header("ETag")


@pytest.mark.django_db
def test_a_session_logged_out_while_redis_was_cut_stays_logged_out(site_redis):
    user = UserFactory(username="organiser")
    user.set_password(PASSWORD)
    user.save()
    browser = Client()
    login = browser.post(reverse("login"), {"username": "organiser", "password": PASSWORD})
    assert login.status_code == 302
    assert browser.get(reverse("organiser:dashboard")).status_code == 200  # in the cache

    redis.Redis.from_url(site_redis.url).save()
    site_redis.stop()
    kept = browser.cookies.copy()
    assert browser.post(reverse("logout")).status_code == 302
    site_redis.start()
    _wait_until(lambda: not _away(), "the cache is back")

    stolen = Client()
    stolen.cookies = kept  # the old session cookie, which Redis still had
    assert stolen.get(reverse("organiser:dashboard")).status_code == 302  # to the login


@pytest.mark.django_db(transaction=True)
def test_once_redis_is_back_a_writes_announcement_reaches_a_live_page_again(site_redis):
    match = make_match()
    result_services.match_start(match=match)
    site_redis.stop()
    result_services.hand_record(
        match=match, record=chico_hand(match, "A"), recorded_by=None
    )  # not told
    site_redis.start()
    _wait_until(lambda: not _away(), "the cache is back")
    # Its topics, bumped again and told ("recovered") first: the page opens after that.
    _wait_until(lambda: announce._catch_up.thread is None, "the catch-up is done")

    async def scenario():
        socket = WebsocketCommunicator(application, f"/ws/live/?topics=m.{match.pk}", ORIGIN)
        connected, _ = await socket.connect()
        assert connected
        await _in_thread(lambda: result_services.hand_record(
            match=match, record=chico_hand(match, "B"), recorded_by=None
        ))  # fmt: skip
        assert await socket.receive_json_from(timeout=3) == {
            "topic": f"m.{match.pk}",
            "what": "hand",
        }
        await socket.disconnect()

    async_to_sync(scenario)()


async def _in_thread(write):
    return await sync_to_async(write, thread_sensitive=False)()


def test_a_cache_gone_is_a_miss_and_answers_at_once(site_redis):
    cache.set("kept", 1)
    redis.Redis.from_url(site_redis.url).save()
    site_redis.stop()
    started = time.monotonic()
    assert cache.get("kept") is None
    assert cache.get_many(["kept"]) == {}
    assert cache.add("other", 1) is False
    cache.set("kept", 2)  # skipped, and remembered
    assert time.monotonic() - started < 1
    site_redis.start()
    _wait_until(lambda: not _away(), "the cache is back")
    assert cache.get("kept") is None  # the value from before would be stale: deleted


@pytest.mark.django_db
def test_a_published_page_is_withdrawn_by_a_write_while_redis_is_gone(
    site_redis, settings, tmp_path, django_capture_on_commit_callbacks
):
    """The proxy must not serve the file from before the hand: it sends its readers to
    Django, and the file is published again, with the hand, once Redis is back."""
    settings.PUBLISHED_PAGES_DIR = str(tmp_path / "published")
    match = make_match()
    result_services.match_start(match=match)
    page = _match_page(match)
    spectator = Client(HTTP_ACCEPT_LANGUAGE="es")
    spectator.get(page)
    published = tmp_path / "published" / "pages" / "es" / page.lstrip("/") / "index.html"
    assert _headline_games(published.read_text(), "A") == 0

    site_redis.stop()
    with django_capture_on_commit_callbacks(execute=True):
        result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    assert not published.exists()
    assert _headline_games(spectator.get(page).content.decode(), "A") == 1
    assert not published.exists()  # rendered uncached: not published either

    site_redis.start()
    _wait_until(lambda: not _away(), "the cache is back")
    _wait_until(lambda: announce._catch_up.thread is None, "the topics are bumped again")
    spectator.get(page)
    assert _headline_games(published.read_text(), "A") == 1


@pytest.mark.django_db(transaction=True)
def test_a_page_reconnected_after_redis_is_back_hears_what_it_missed(site_redis, monkeypatch):
    """The writes made while Redis was away are announced once it is back: a page whose
    socket reopened meanwhile refetches."""
    # Long enough for Redis to start and the socket to open first, even on a busy machine.
    monkeypatch.setattr(announce, "CATCH_UP_INTERVAL", 3.0)
    match = make_match()
    result_services.match_start(match=match)
    site_redis.stop()
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    site_redis.start()
    _wait_until(lambda: not _away(), "the cache is back")

    async def scenario():
        socket = WebsocketCommunicator(application, f"/ws/live/?topics=m.{match.pk}", ORIGIN)
        connected, _ = await socket.connect()
        assert connected
        told = await socket.receive_json_from(timeout=8)
        assert told == {"topic": f"m.{match.pk}", "what": "recovered"}
        await socket.disconnect()

    async_to_sync(scenario)()
