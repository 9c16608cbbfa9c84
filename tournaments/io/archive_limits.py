"""What an archive may hold at all, checked before anything else reads it (docs/archive.md,
"Limits").

An archive comes from anyone, so the file is bounded before its schema, the engine or
the database meets it: at most :data:`MAX_BYTES` of UTF-8 JSON, no key twice in an
object, nested at most ``jsonbody.MAX_DEPTH`` levels, no list or object of more than
:data:`MAX_ITEMS` items, every text at most :data:`MAX_TEXT` characters (a key
:data:`MAX_KEY`) without a lone surrogate or a control character (``tournaments.text``'s;
line breaks and tabs only in a ``reason`` or a ``comment``), every number finite and at most
:data:`MAX_NUMBER` either way (what a database integer holds). Then, once the schema has
said what each list is, :func:`counts_check` bounds the people, teams, matches...
(:data:`COUNTS`).

Every refusal is an :class:`ArchiveError`: the JSON path of the problem and a short
sentence; a value is shown cut to a few characters (:func:`shown`), so a hostile file
cannot make the message long or unprintable.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.io import jsonbody
from tournaments.text import CONTROL, has_control, paragraph_has_control

#: The file's size: a championship of some 13,000 hands (bench/README.md, "Archive import").
MAX_BYTES = 20 * 1024 * 1024
#: Any text; the schema bounds names, clubs, venues... closer (200 characters).
MAX_TEXT = 1000
#: An object's key: a field's name, a player's key, a group's name.
MAX_KEY = 40
#: Any list's or object's items.
MAX_ITEMS = 20_000
#: Any number, either way: what a PostgreSQL ``integer`` holds.
MAX_NUMBER = 2_147_483_647
#: Texts that may hold line breaks and tabs: what people typed in a text box.
FREE_TEXT = frozenset({"reason", "comment"})
#: A JSON path (``$.matches[*].hands``, each match) -> how many items it may hold.
COUNTS: dict[str, int] = {
    "$.people": 10_000,
    "$.players": 10_000,
    "$.teams": 5_000,
    "$.teams[*].players": 20,
    "$.substitutions": 10_000,
    "$.stages": 200,
    "$.stages[*].groups": 500,
    "$.stages[*].rounds": 1_000,
    "$.matches": 20_000,
    "$.matches[*].hands": 500,
    "$.matches[*].revisions": 2_000,
}

# Lone surrogates (Unicode category Cs), which no database text holds (UTF-8 has none).
# Control characters are ``tournaments.text``'s, the one rule of every text typed in.
_SURROGATE = re.compile("[\ud800-\udfff]")
# An integer literal longer than this is out of range whatever its digits (and Python
# would refuse to read one of more than 4,300 digits with an error of its own).
_DIGITS = len(str(MAX_NUMBER)) + 1


class ArchiveError(TournamentError):
    """An archive refused: ``path`` is the JSON path of the first problem."""

    def __init__(self, message: Any, *, path: str, code: str = "archive_invalid", **params: Any):
        super().__init__(
            _("%(path)s: %(problem)s"),
            code=code,
            params={"path": path, "problem": message % params if params else message},
        )
        self.path = path


def shown(value: Any, length: int = 40) -> str:
    """``value`` as a message may quote it: cut to ``length`` characters, control
    characters and surrogates as ``?``.

    >>> shown("Los Anchos"), shown("v" * 100, 5), shown({"a": [1]}), shown("a\\x00b")
    ('“Los Anchos”', '“vvvvv…”', '{"a": [1]}', '“a?b”')
    """
    if isinstance(value, str):
        text = _printable(value[: length + 1])
        return f"“{text[:length]}…”" if len(text) > length else f"“{text}”"
    text = _printable(json.dumps(value, ensure_ascii=False, default=str)[: length + 1])
    return f"{text[:length]}…" if len(text) > length else text


def _printable(text: str) -> str:
    return _SURROGATE.sub("?", CONTROL.sub("?", text))


class _Refused:
    """A value read from the file that no archive holds (NaN, Infinity, a huge
    integer): kept in place so the walk names its path."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Repeated(dict):
    """An object that gave a key twice (``repeated``): JSON readers disagree on which
    value wins, so the archive is refused."""

    repeated: str = ""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    seen: set[str] = set()
    repeated = _Repeated(value)
    repeated.repeated = next(key for key, _item in pairs if key in seen or seen.add(key))
    return repeated


def _integer(text: str) -> int | _Refused:
    return int(text) if len(text) <= _DIGITS else _Refused(text)


def archive_load(data: bytes | str) -> Any:
    """The archive's JSON, or :class:`ArchiveError` for a file too large, not UTF-8 or
    not JSON. A value no archive holds (NaN, a key given twice...) is left in place for
    :func:`limits_check` to refuse with its path."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise ArchiveError(
            _("the file is larger than %(size)s MB."), path="$", size=MAX_BYTES // (1024 * 1024)
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ArchiveError(_("the file is not UTF-8 text."), path="$") from None
    try:
        archive = json.loads(
            data,
            object_pairs_hook=_object,
            parse_int=_integer,
            parse_constant=_Refused,
        )
    except json.JSONDecodeError as error:
        raise ArchiveError(
            _("the file is not JSON (line %(line)s, column %(column)s)."),
            path="$",
            line=error.lineno,
            column=error.colno,
        ) from None
    except RecursionError:
        raise ArchiveError(
            _("it is nested more than %(depth)s levels deep."), path="$", depth=jsonbody.MAX_DEPTH
        ) from None
    return archive


def _path(node: tuple[Any, ...] | None) -> str:
    """The JSON path of a node of :func:`limits_check`'s walk (parent links)."""
    parts = []
    while node is not None and node[3] is not None:
        key = node[3]
        parts.append(f"[{key}]" if isinstance(key, int) else f".{shown(key)[1:-1]}")
        node = node[2]
    return "$" + "".join(reversed(parts))


def limits_check(archive: Any) -> None:
    """Refuse ``archive`` (parsed JSON) if any value passes the limits (module docstring)."""
    # (value, depth, parent node, key in the parent); the path is built only to refuse.
    pending: list[tuple[Any, int, Any, Any]] = [(archive, 0, None, None)]
    while pending:
        node = pending.pop()
        value, depth, _parent, key = node
        if isinstance(value, str):
            _text_check(value, node, free=key in FREE_TEXT)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                _number_refused(node)
        elif isinstance(value, float):
            if not math.isfinite(value) or abs(value) > MAX_NUMBER:
                _number_refused(node)
        elif isinstance(value, dict | list):
            if depth >= jsonbody.MAX_DEPTH:
                raise ArchiveError(
                    _("it is nested more than %(depth)s levels deep."),
                    path=_path(node),
                    depth=jsonbody.MAX_DEPTH,
                )
            if len(value) > MAX_ITEMS:
                raise ArchiveError(
                    _("it has more than %(count)s items."), path=_path(node), count=MAX_ITEMS
                )
            if isinstance(value, list):
                pending.extend(
                    (item, depth + 1, node, i) for i, item in reversed(list(enumerate(value)))
                )
                continue
            if isinstance(value, _Repeated):
                raise ArchiveError(
                    _("the key %(key)s is given twice."),
                    path=_path(node),
                    key=shown(value.repeated),
                )
            for name in value:
                _key_check(name, node)
            pending.extend((item, depth + 1, node, name) for name, item in reversed(value.items()))
        elif isinstance(value, _Refused):
            _number_refused(node)
        else:  # not JSON: a caller gave a value no file can hold
            raise ArchiveError(_("not a valid value here."), path=_path(node))


def _number_refused(node: tuple[Any, ...]) -> None:
    raise ArchiveError(
        _("the number is out of range (finite, from -%(max)s to %(max)s)."),
        path=_path(node),
        max=MAX_NUMBER,
    )


def _text_check(text: str, node: tuple[Any, ...], *, free: bool) -> None:
    if len(text) > MAX_TEXT:
        raise ArchiveError(
            _("the text is too long (%(max)s characters at most)."), path=_path(node), max=MAX_TEXT
        )
    _characters_check(text, node, free=free)


def _key_check(key: str, node: tuple[Any, ...]) -> None:
    if not isinstance(key, str):
        raise ArchiveError(_("not a valid value here."), path=_path(node))
    if len(key) > MAX_KEY:
        raise ArchiveError(
            _("the key %(key)s is too long (%(max)s characters at most)."),
            path=_path(node),
            key=shown(key),
            max=MAX_KEY,
        )
    _characters_check(key, node, free=False)


def _characters_check(text: str, node: tuple[Any, ...], *, free: bool) -> None:
    if _SURROGATE.search(text):
        raise ArchiveError(
            _("the text holds a broken character (a lone surrogate: not Unicode)."),
            path=_path(node),
        )
    if paragraph_has_control(text) if free else has_control(text):
        raise ArchiveError(
            _("the text holds a control character (such as a NUL or a line break)."),
            path=_path(node),
        )


def counts_check(archive: Mapping[str, Any]) -> None:
    """Refuse ``archive`` (valid by the schema) if a list holds more than :data:`COUNTS`."""
    for pattern, limit in COUNTS.items():
        for path, items in select(archive, pattern):
            if len(items) > limit:
                raise ArchiveError(_("it has more than %(count)s items."), path=path, count=limit)


def select(archive: Mapping[str, Any], pattern: str) -> list[tuple[str, Any]]:
    """Every value ``pattern`` names in an archive valid by the schema, with its path:
    ``$.matches[*].hands`` is each match's list of hands, ``$.matches[*].hands[*]`` each
    hand of each match (a list the archive leaves out is empty).

    >>> select({"matches": [{"hands": [1, 2]}, {}]}, "$.matches[*].hands[*]")
    [('$.matches[0].hands[0]', 1), ('$.matches[0].hands[1]', 2)]
    """
    found: list[tuple[str, Any]] = [("$", archive)]
    for part in pattern[2:].split("."):
        name = part.removesuffix("[*]")
        found = [(f"{path}.{name}", value.get(name, [])) for path, value in found]
        if part.endswith("[*]"):
            found = [
                (f"{path}[{i}]", item) for path, items in found for i, item in enumerate(items)
            ]
    return found
