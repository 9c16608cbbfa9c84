"""The one reader of environment variables for Tanteo's settings.

Every setting that differs between machines comes through :class:`Env`, which parses
strings, booleans, integers, lists and database / cache URLs, and raises
:class:`EnvError` naming the variable when a value cannot be understood.
An empty value counts as unset, so ``VAR=`` in a compose file means "use the default".

>>> env = Env({"DEBUG": "off", "ALLOWED_HOSTS": "a.example, b.example"})
>>> env.bool("DEBUG", default=True)
False
>>> env.list("ALLOWED_HOSTS")
['a.example', 'b.example']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

__all__ = [
    "Env",
    "EnvError",
    "parse_cache_url",
    "parse_channel_layer_url",
    "parse_database_url",
]

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})

_POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "pgsql"})
_REDIS_SCHEMES = frozenset({"redis", "rediss", "unix"})
CHANNEL_LAYER_CONNECTIONS = 1000  # per server process


class EnvError(ImproperlyConfigured, ValueError):
    """An environment variable is missing or holds a value that cannot be used."""


class _Missing:
    def __repr__(self) -> str:
        return "<required>"


_MISSING: Any = _Missing()


class Env:
    """Typed access to an environment mapping (``os.environ`` unless given one).

    Each getter takes the variable's name and an optional ``default``; without a default
    the variable is required.
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self._environ = os.environ if environ is None else environ

    def _raw(self, name: str) -> str | None:
        value = self._environ.get(name)
        if value is None or value.strip() == "":
            return None
        return value.strip()

    def _require(self, name: str, default: Any) -> Any:
        if default is _MISSING:
            raise EnvError(f"The environment variable {name} is required but not set.")
        return default

    def is_set(self, name: str) -> bool:
        """Whether ``name`` holds a non-empty value.

        >>> Env({"A": "x", "B": " "}).is_set("A"), Env({"B": " "}).is_set("B")
        (True, False)
        """
        return self._raw(name) is not None

    def str(self, name: str, default: Any = _MISSING) -> Any:
        """The value as a string.

        >>> Env({"TZ_NAME": "Europe/Madrid"}).str("TZ_NAME")
        'Europe/Madrid'
        >>> Env({}).str("TZ_NAME", default=None) is None
        True
        """
        raw = self._raw(name)
        return self._require(name, default) if raw is None else raw

    def bool(self, name: str, default: Any = _MISSING) -> Any:
        """The value as a boolean: true/false, 1/0, yes/no, on/off (any case).

        >>> Env({"X": "Yes"}).bool("X")
        True
        >>> Env({"X": "maybe"}).bool("X")
        Traceback (most recent call last):
        ...
        config.env.EnvError: X must be a boolean (true/false, 1/0, yes/no, on/off), not 'maybe'.
        """
        raw = self._raw(name)
        if raw is None:
            return self._require(name, default)
        lowered = raw.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise EnvError(f"{name} must be a boolean (true/false, 1/0, yes/no, on/off), not {raw!r}.")

    def int(self, name: str, default: Any = _MISSING, *, minimum: int | None = None) -> Any:
        """The value as an integer, optionally at least ``minimum``.

        >>> Env({"N": "31536000"}).int("N")
        31536000
        """
        raw = self._raw(name)
        if raw is None:
            return self._require(name, default)
        try:
            value = int(raw)
        except ValueError:
            raise EnvError(f"{name} must be a whole number, not {raw!r}.") from None
        if minimum is not None and value < minimum:
            raise EnvError(f"{name} must be at least {minimum}, not {value}.")
        return value

    def list(self, name: str, default: Any = _MISSING) -> Any:
        """The value as a comma-separated list; blank items are dropped.

        >>> Env({"HOSTS": "a, b,,c "}).list("HOSTS")
        ['a', 'b', 'c']
        """
        raw = self._raw(name)
        if raw is None:
            return list(self._require(name, default))
        return [item.strip() for item in raw.split(",") if item.strip()]

    def database(self, name: str, default: str, *, base_dir: Path, pool: bool = True) -> dict:
        """A Django ``DATABASES`` entry from the URL in ``name``: see :func:`parse_database_url`."""
        url = self.str(name, default=default)
        try:
            return parse_database_url(url, base_dir=base_dir, pool=pool)
        except ValueError as exc:
            raise EnvError(f"{name}: {exc}") from None

    def cache(self, name: str) -> dict:
        """A Django ``CACHES`` entry from the Redis URL in ``name``; local memory if unset."""
        url = self.str(name, default=None)
        try:
            return parse_cache_url(url)
        except ValueError as exc:
            raise EnvError(f"{name}: {exc}") from None

    def channel_layer(self, name: str) -> dict:
        """A Channels ``CHANNEL_LAYERS`` entry from the Redis URL in ``name``; in memory if
        unset: see :func:`parse_channel_layer_url`."""
        url = self.str(name, default=None)
        try:
            return parse_channel_layer_url(url)
        except ValueError as exc:
            raise EnvError(f"{name}: {exc}") from None


def parse_database_url(url: str, *, base_dir: Path, pool: bool = True) -> dict:
    """Turn a ``sqlite://`` or ``postgres://`` URL into a Django database entry.

    A relative SQLite path (three slashes) is taken from ``base_dir``; four slashes give an
    absolute path. PostgreSQL query parameters (``sslmode=require``...) become OPTIONS.

    >>> parse_database_url("sqlite:///db.sqlite3", base_dir=Path("/srv/tanteo"))["NAME"]
    '/srv/tanteo/db.sqlite3'
    >>> entry = parse_database_url("postgres://u:p%40ss@db:5433/tanteo", base_dir=Path("."))
    >>> entry["ENGINE"], entry["HOST"], entry["PORT"], entry["PASSWORD"], entry["NAME"]
    ('django.db.backends.postgresql', 'db', '5433', 'p@ss', 'tanteo')
    >>> parse_database_url("mysql://x/y", base_dir=Path("."))
    Traceback (most recent call last):
    ...
    ValueError: unsupported database scheme 'mysql' (use sqlite:// or postgres://).
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        return _sqlite_entry(url, parts.netloc, parts.path, base_dir)
    if scheme not in _POSTGRES_SCHEMES:
        shown = scheme or url
        raise ValueError(f"unsupported database scheme {shown!r} (use sqlite:// or postgres://).")
    name = unquote(parts.path.lstrip("/"))
    if not name or "/" in name:
        raise ValueError(
            f"a PostgreSQL URL needs a database name (postgres://host/tanteo), not {url!r}."
        )
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"the port in {url!r} is not a number.") from None
    options: dict[str, Any] = dict(parse_qsl(parts.query))
    if pool:
        # Pooled connections replace persistent ones: Django refuses CONN_MAX_AGE with a pool.
        options["pool"] = True
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": unquote(parts.hostname or ""),
        "PORT": "" if port is None else str(port),
        "CONN_MAX_AGE": 0,
        # A connection is checked (an empty query) before a request uses it, from the pool
        # or kept: one the server dropped (a restart, a failover, an idle-connection
        # reaper) is replaced then, instead of failing the request that drew it.
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
    }


def _sqlite_entry(url: str, netloc: str, path: str, base_dir: Path) -> dict:
    if netloc == ":memory:" or path == "/:memory:":
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
    if netloc:
        raise ValueError(
            f"a SQLite URL has no host: write sqlite:///relative.sqlite3 or "
            f"sqlite:////absolute/path.sqlite3, not {url!r}."
        )
    relative = unquote(path)[1:]  # drop the slash that separates the (empty) host
    if not relative:
        raise ValueError(f"a SQLite URL needs a file name (sqlite:///db.sqlite3), not {url!r}.")
    file = Path(relative)
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(file if file.is_absolute() else base_dir / file),
    }


def parse_cache_url(url: str | None) -> dict:
    """A Django cache entry: Redis for a ``redis://`` URL, local memory for ``None``.

    >>> parse_cache_url(None)["BACKEND"]
    'django.core.cache.backends.locmem.LocMemCache'
    >>> parse_cache_url("redis://127.0.0.1:6379/2")["LOCATION"]
    'redis://127.0.0.1:6379/2'
    """
    if url is None:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tanteo"}
    scheme = urlsplit(url).scheme.lower()
    if scheme not in _REDIS_SCHEMES:
        raise ValueError(f"unsupported cache scheme {scheme or url!r} (use redis:// or rediss://).")
    # Django's Redis backend, keeping its client between calls (config/cache.py).
    return {"BACKEND": "config.cache.RedisCache", "LOCATION": url}


def parse_channel_layer_url(url: str | None) -> dict:
    """A Channels layer: channels-redis for a ``redis://`` URL, in memory for ``None``.

    The in-memory layer reaches only the sockets of its own process: enough for
    ``runserver``, never for several server processes.

    >>> parse_channel_layer_url(None)["BACKEND"]
    'channels.layers.InMemoryChannelLayer'
    >>> parse_channel_layer_url("redis://127.0.0.1:6379/2")["CONFIG"]["hosts"]
    [{'address': 'redis://127.0.0.1:6379/2', 'max_connections': 1000}]
    """
    if url is None:
        return {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    scheme = urlsplit(url).scheme.lower()
    if scheme not in _REDIS_SCHEMES:
        raise ValueError(f"unsupported channel layer scheme {scheme or url!r} (use redis://).")
    # redis-py refuses a connection past its pool's size (100 by default), and each socket
    # opening joins its groups on a connection of its own: a page reloaded by a whole
    # audience at once would get errors (bench/pages.py opens 1,000 sockets at once).
    host = {"address": url, "max_connections": CHANNEL_LAYER_CONNECTIONS}
    return {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [host]}}
