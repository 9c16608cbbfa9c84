"""The live pages' socket: a page hears the changes of its topics, and only those."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.tournaments.factories import ChampionshipFactory
from tournaments.live import announce, topics, versions

# Channels closes stale database connections around each message: allow the database.
pytestmark = pytest.mark.django_db

# The validator read ALLOWED_HOSTS when config.asgi was imported (localhost among them).
ORIGIN = [(b"origin", b"http://localhost")]


async def _open(topics: str) -> tuple[WebsocketCommunicator, bool]:
    communicator = WebsocketCommunicator(application, f"/ws/live/?topics={topics}", ORIGIN)
    connected, _ = await communicator.connect()
    return communicator, connected


def test_a_page_hears_its_topics_and_only_them():
    async def scenario():
        page, connected = await _open("site+cm.copa+m.12")
        assert connected
        other, _ = await _open("m.13")
        layer = get_channel_layer()
        message = {"type": topics.MESSAGE_TYPE, "topic": "m.12", "what": "hand"}
        await layer.group_send(topics.group_name("m.12"), message)
        assert await page.receive_json_from(timeout=2) == {"topic": "m.12", "what": "hand"}
        assert await other.receive_nothing(timeout=0.2)
        await page.disconnect()
        await other.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize(
    "topics", ["", "m.12+bad%20topic", "x.1", "+".join(f"m.{n}" for n in range(9))]
)
def test_a_socket_asking_for_no_valid_topic_is_refused(topics):
    async def scenario():
        communicator, connected = await _open(topics)
        assert not connected
        await communicator.disconnect()

    async_to_sync(scenario)()


def test_another_site_may_not_open_the_socket():
    async def scenario():
        communicator = WebsocketCommunicator(
            application, "/ws/live/?topics=site", [(b"origin", b"https://evil.example")]
        )
        connected, _ = await communicator.connect()
        assert not connected
        await communicator.disconnect()

    async_to_sync(scenario)()


def test_a_change_reaches_the_pages_of_its_topics():
    championship = ChampionshipFactory(slug="copa")

    async def scenario():
        page, connected = await _open("m.12")
        stage_page, _ = await _open("s.3")
        other, _ = await _open("m.13")
        assert connected
        # As a request's thread does once its save commits.
        await sync_to_async(announce.on_changed)(
            None, championship_id=championship.pk, what="hand", stage_id=3, match_id=12
        )
        assert await page.receive_json_from(timeout=2) == {"topic": "m.12", "what": "hand"}
        assert await stage_page.receive_json_from(timeout=2) == {"topic": "s.3", "what": "hand"}
        assert await other.receive_nothing(timeout=0.2)
        for communicator in (page, stage_page, other):
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_a_channel_layer_down_never_fails_the_write(monkeypatch, caplog):
    championship = ChampionshipFactory(slug="copa")
    before = versions.versions(["m.7"])

    async def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(announce, "_send_all", down)
    monkeypatch.setattr(announce, "_broadcast_failures", announce._Failures(every=60.0))
    announce.on_changed(None, championship_id=championship.pk, what="hand", stage_id=1, match_id=7)
    assert versions.versions(["m.7"]) != before  # the cache still follows
    assert "broadcast of hand" in caplog.text
    # The next ones within the minute are counted, not logged: a layer down fails them all.
    caplog.clear()
    announce.on_changed(None, championship_id=championship.pk, what="draft", match_id=7)
    assert "broadcast" not in caplog.text
    assert announce._broadcast_failures.since == 1
