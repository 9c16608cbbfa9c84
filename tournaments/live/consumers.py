"""The live pages' socket: a page subscribes to its topics and hears when they change.

Read-only: the browser names the topics it follows in the query string
(``/ws/live/?topics=site+cm.copa+m.12``) and is then sent ``{"topic": ..., "what": ...}``
whenever a write touches one (``tournaments.live.announce``); what it sends is ignored. The
topics are public (any reader may open any public page), so no login is asked.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from tournaments.live.topics import TOPIC, group_name

MAX_TOPICS = 8


def topics_of(query_string: bytes) -> list[str] | None:
    """The topics asked for, or ``None`` when the request is not acceptable.

    >>> topics_of(b"topics=site+cm.copa+m.12")
    ['site', 'cm.copa', 'm.12']
    >>> topics_of(b"topics=site+bad%20topic") is None, topics_of(b"") is None
    (True, True)
    """
    try:
        values = parse_qs(query_string.decode("ascii"), max_num_fields=2).get("topics", [])
    except (UnicodeDecodeError, ValueError):
        return None
    topics = list(dict.fromkeys(" ".join(values).split()))
    if not topics or len(topics) > MAX_TOPICS:
        return None
    if not all(TOPIC.match(topic) for topic in topics):
        return None
    return topics


class LiveConsumer(AsyncWebsocketConsumer):
    """One open public page."""

    async def connect(self) -> None:
        topics = topics_of(self.scope.get("query_string", b""))
        if topics is None:
            await self.close(code=4400)
            return
        self.live_groups = [group_name(topic) for topic in topics]
        for group in self.live_groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "live_groups", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing a page sends means anything (it only listens)."""

    async def live_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"topic": event["topic"], "what": event["what"]}))
