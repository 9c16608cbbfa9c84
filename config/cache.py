"""Django's Redis cache, kept as an accelerator: a Redis that is down or lost is a miss.

**Redis away.** Every operation that cannot reach Redis (refused, reset, timed out) is
answered as if the cache were empty: a read misses (``get`` gives its default,
``get_many`` nothing, ``add`` False), a write is skipped. The first failure is logged and
marks the cache *away* for this process: from then on no operation even tries Redis (so a
hung server costs one timeout, not one per call), until a thread of the process finds it
answering again (every :data:`RETRY_INTERVAL`). So while Redis is away: sessions are read
from the database (``cached_db``), the API's throttles count nothing and let every
request through, the public pages are rendered from the database (``tournaments.live.versions``
refuses to make up versions: ``tournaments.live``), and nothing fails.

**Redis back.** A write skipped while Redis was away leaves whatever Redis held before
(it may not have lost it: a network cut, a failover): that value is stale. Before the
cache is used again, every key this process failed to write is deleted from Redis, so
its next read misses and is computed afresh (a session logged out meanwhile, a version
counter, a throttle's history). Only then is the cache back for this process.

It also keeps its redis-py client instead of building one per call: Django's
``RedisCacheClient.get_client`` makes a new ``redis.Redis`` for every cache operation,
whose constructor fills some 170 response callbacks (a quarter of the time of a page
served from the cache); a ``redis.Redis`` is only a handle on its connection pool and is
safe to share between threads. And it renews counters in one round trip
(:meth:`RedisCache.incr_or_set_many`), where Django's ``incr`` takes two per key.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends import redis
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

logger = logging.getLogger(__name__)

T = TypeVar("T")

# What Redis being away looks like to redis-py (connection refused, reset, timed out).
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
# How long a call waits on a Redis that does not answer, by default (OPTIONS override it).
SOCKET_TIMEOUT = 1.0
# How often a process whose cache is away asks Redis whether it is back.
RETRY_INTERVAL = 0.25
# Keys remembered for deletion when Redis is back, at most (a few MB): a longer outage's
# writes beyond it are logged, and those keys may show their older value until they expire.
FORGET_MAX = 100_000


class _Outage:
    """One process's view of one Redis: away or not, and the keys it failed to write."""

    def __init__(self, location: str, client: Callable[[], Any]) -> None:
        self.location = location
        self.client = client
        self.lock = threading.Lock()
        self.away = False
        self.since = 0.0
        self.forget: set[str] = set()
        self.overflowed = 0
        self.thread: threading.Thread | None = None

    def failed(self, error: BaseException, keys: Iterable[str] = ()) -> None:
        """Redis did not answer: remember ``keys`` (a write's), mark it away, watch for it."""
        with self.lock:
            self._remember(keys)
            if not self.away:
                self.away = True
                self.since = time.monotonic()
                logger.error(
                    "cache: Redis at %s is unreachable (%s): until it answers, reads miss and "
                    "writes are skipped; sessions come from the database, pages are rendered "
                    "uncached and the API's throttles let every request through",
                    self.location,
                    error,
                )
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(
                    target=self._watch, name="cache-recovery", daemon=True
                )
                self.thread.start()

    def skipped(self, keys: Iterable[str]) -> None:
        """A write not even tried, Redis being away."""
        with self.lock:
            self._remember(keys)

    def _remember(self, keys: Iterable[str]) -> None:
        for key in keys:
            if len(self.forget) >= FORGET_MAX:
                self.overflowed += 1
            else:
                self.forget.add(key)

    def _watch(self) -> None:
        """Until Redis answers: then delete the keys written meanwhile, and say it is back."""
        deleted = 0
        while True:
            time.sleep(RETRY_INTERVAL)
            try:
                with self.lock:
                    keys = list(self.forget)
                client = self.client()
                client.ping()
                for start in range(0, len(keys), 500):
                    client.delete(*keys[start : start + 500])
            except UNREACHABLE:
                continue
            except Exception:
                logger.exception("cache: checking whether Redis at %s is back", self.location)
                continue
            deleted += len(keys)
            with self.lock:
                self.forget.difference_update(keys)
                if self.forget:
                    continue  # written meanwhile: deleted on the next turn
                took = time.monotonic() - self.since
                logger.warning(
                    "cache: Redis at %s answers again after %.1f s; %d keys written meanwhile "
                    "deleted%s",
                    self.location,
                    took,
                    deleted,
                    f", {self.overflowed} more could not be remembered" if self.overflowed else "",
                )
                self.away = False
                self.overflowed = 0
                self.thread = None
                return


# One per process and Redis location: Django makes a cache object per thread.
_outages: dict[tuple[int, str], _Outage] = {}
_outages_lock = threading.Lock()


def outage_of(location: str, client: Callable[[], Any]) -> _Outage:
    key = (os.getpid(), location)  # a forked process starts with Redis presumed present
    with _outages_lock:
        found = _outages.get(key)
        if found is None:
            found = _outages[key] = _Outage(location, client)
        return found


class RedisCacheClient(redis.RedisCacheClient):
    """Django's client with a kept ``redis.Redis``, and every call a miss when Redis is away."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        # One attempt: redis-py's default retries with a backoff would make each call on a
        # Redis gone cost tens of milliseconds before it is found away.
        options.setdefault("retry", Retry(NoBackoff(), 0))
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}
        self.outage = outage_of(";".join(servers), lambda: self.get_client(write=True))

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def _read(self, call: Callable[[], T], missed: T) -> T:
        if self.outage.away:
            return missed
        try:
            return call()
        except UNREACHABLE as error:
            self.outage.failed(error)
            return missed

    def _write(self, keys: Iterable[str], call: Callable[[], T], skipped: T) -> T:
        if self.outage.away:
            self.outage.skipped(keys)
            return skipped
        try:
            return call()
        except UNREACHABLE as error:
            self.outage.failed(error, keys)
            return skipped

    def add(self, key: str, value: Any, timeout: Any) -> bool:
        return self._write(
            [key], lambda: super(RedisCacheClient, self).add(key, value, timeout), False
        )

    def get(self, key: str, default: Any) -> Any:
        return self._read(lambda: super(RedisCacheClient, self).get(key, default), default)

    def set(self, key: str, value: Any, timeout: Any) -> None:
        self._write([key], lambda: super(RedisCacheClient, self).set(key, value, timeout), None)

    def touch(self, key: str, timeout: Any) -> bool:
        return self._write([key], lambda: super(RedisCacheClient, self).touch(key, timeout), False)

    def delete(self, key: str) -> bool:
        return self._write([key], lambda: super(RedisCacheClient, self).delete(key), False)

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        keys = list(keys)
        return self._read(lambda: super(RedisCacheClient, self).get_many(keys), {})

    def has_key(self, key: str) -> bool:
        return self._read(lambda: super(RedisCacheClient, self).has_key(key), False)

    def incr(self, key: str, delta: int) -> int:
        def call() -> int:
            return super(RedisCacheClient, self).incr(key, delta)

        found = self._write([key], call, None)
        if found is None:
            # As for a key missing: the caller sets a value of its own (skipped as well).
            raise ValueError(f"Key '{key}' not found: the cache is unreachable.")
        return found

    def set_many(self, data: dict[str, Any], timeout: Any) -> None:
        self._write(list(data), lambda: super(RedisCacheClient, self).set_many(data, timeout), None)

    def delete_many(self, keys: Iterable[str]) -> None:
        keys = list(keys)
        self._write(keys, lambda: super(RedisCacheClient, self).delete_many(keys), None)

    def clear(self) -> bool:
        # Nothing to remember: what is flushed is recomputed anyway.
        return self._read(lambda: super(RedisCacheClient, self).clear(), False)

    def incr_or_set_many(self, keys: list[str], start: int) -> bool:
        def call() -> bool:
            with self.get_client(write=True).pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.set(key, start, nx=True)
                    pipe.incr(key)
                pipe.execute()
            return True

        return self._write(keys, call, False)


class RedisCache(redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with the client above."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        # Each cache object (one per thread) gets options of its own to fill in.
        self._options = dict(self._options)

    def incr_or_set_many(self, keys: list[str], start: int) -> bool:
        """Add one to each counter of ``keys``, or set it to ``start`` + 1 if it is
        missing (never stored, or evicted); kept without expiry. One round trip. False
        when Redis is away (nothing changed, the keys are deleted once it is back)."""
        if not keys:
            return True
        made = [self.make_and_validate_key(key) for key in keys]
        return self._cache.incr_or_set_many(made, start)
