"""JSON read from a client, with a bound on its nesting.

Python's parser refuses a body nested about a thousand levels deep with a
``RecursionError`` (not a ``ValueError``), and a value nested hundreds of levels deep
costs every later walk over it; no document of Tanteo is nested more than a few levels
(a hand record: an object, its list of events, each event's object). So a value nested
more than :data:`MAX_DEPTH` levels is refused, as malformed JSON is, wherever a client
sends JSON: the API's bodies (``api.parsers``), a hand corrected by an organiser, the
tablet's hidden fields.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32


class TooDeep(ValueError):
    """The value is nested more than :data:`MAX_DEPTH` levels deep."""

    def __init__(self) -> None:
        super().__init__(f"JSON nested more than {MAX_DEPTH} levels deep")


def depth(value: Any) -> int:
    """How many levels of lists and objects ``value`` has (0 for a number or a string).

    >>> depth(1), depth([]), depth({"events": [{"trick": "A"}]})
    (0, 1, 3)
    """
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break  # enough to refuse it
        pending.extend((child, level + 1) for child in children)
    return deepest


def check(value: Any) -> Any:
    """``value`` itself, or :class:`TooDeep`.

    >>> check(json.loads("[" * 40 + "]" * 40))
    Traceback (most recent call last):
    ...
    tournaments.io.jsonbody.TooDeep: JSON nested more than 32 levels deep
    """
    if depth(value) > MAX_DEPTH:
        raise TooDeep
    return value


def loads(text: str | bytes) -> Any:
    """``json.loads``, raising a ``ValueError`` (:class:`TooDeep`) for a value nested too
    deep, as for any malformed JSON.

    >>> loads('{"events": []}')
    {'events': []}
    >>> loads("[" * 5000 + "]" * 5000)
    Traceback (most recent call last):
    ...
    tournaments.io.jsonbody.TooDeep: JSON nested more than 32 levels deep
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep from None
    return check(value)
