"""The values of an archive the schema leaves open, checked as Tanteo uses them
(docs/archive.md, "Limits").

The schema says a time is a text and a stage's ``settings`` or a change's ``before`` an
object; what the database stores and the pages show needs more. Here: every time has
its offset and every date and time falls in the years :data:`YEARS`; a stage's settings
are its format's, each of the type and in the range its form allows, and name only the
archive's teams; a result change's ``before`` and ``after`` have the shape Tanteo's own
changes have (a hand's points and score, a walkover's winner, an answer's player).
Each refusal is an :class:`ArchiveError` with the value's JSON path.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.io.archive_limits import ArchiveError, select, shown
from tournaments.stages import registry
from tournaments.standings.tables import TABLE_TIEBREAKS

#: The years a date or a time of an archive may fall in.
YEARS = range(1900, 2200)
#: Each kind of item (``archive_limits.select``) -> the fields it keeps a time in.
TIMES = {
    "$.stages[*].rounds[*]": ("created_at",),
    "$.substitutions[*]": ("at",),
    "$.matches[*]": ("scheduled_at", "finished_at", "confirmed_at"),
    "$.matches[*].hands[*]": ("recorded_at", "corrected_at"),
    "$.matches[*].revisions[*]": ("at",),
    "$.matches[*].confirmations[*]": ("at",),
}


def _out_of_range(path: str) -> ArchiveError:
    return ArchiveError(
        _("the year is from %(first)s to %(last)s."), path=path, first=YEARS[0], last=YEARS[-1]
    )


def parse_time(value: str | None, path: str) -> datetime.datetime | None:
    """An ISO 8601 time with its offset (as exported), or :class:`ArchiveError`."""
    if value is None:
        return None
    try:
        when = datetime.datetime.fromisoformat(value)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise ArchiveError(
            _("not a time with its offset: %(value)s."), path=path, value=shown(value)
        )
    if when.year not in YEARS:
        raise _out_of_range(path)
    return when


def parse_date(value: str | None, path: str) -> datetime.date | None:
    """A ``YYYY-MM-DD`` date, or :class:`ArchiveError`."""
    if value is None:
        return None
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        raise ArchiveError(_("not a date (YYYY-MM-DD)."), path=path) from None
    if day.year not in YEARS:
        raise _out_of_range(path)
    return day


def times_check(archive: Mapping[str, Any]) -> None:
    """Refuse an archive (valid by the schema) with a date or time Tanteo cannot keep."""
    championship = archive["championship"]
    starts = parse_date(championship["start_date"], "$.championship.start_date")
    ends = parse_date(championship["end_date"], "$.championship.end_date")
    if ends is not None and ends < starts:
        raise ArchiveError(_("it ends before it starts."), path="$.championship.end_date")
    for pattern, fields in TIMES.items():
        for path, item in select(archive, pattern):
            for field in fields:
                parse_time(item.get(field), f"{path}.{field}")


def _whole(low: int, high: int) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    return check


def _number(low: float, high: float) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high
        )

    return check


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _text_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _date_text(value: Any) -> bool:
    try:
        return value is None or datetime.date.fromisoformat(value).year in YEARS
    except (TypeError, ValueError):
        return False


def _hour(value: Any) -> bool:
    try:
        return (
            isinstance(value, str) and len(value) == 5 and bool(datetime.time.fromisoformat(value))
        )
    except ValueError:
        return False


def _chain(value: Any) -> bool:
    # As the standings of tables read it (standings.tables.table_standings).
    return (
        _text_list(value)
        and bool(value)
        and all(key in TABLE_TIEBREAKS for key in value)
        and len(set(value)) == len(value)
        and ("lots" not in value or value[-1] == "lots")
    )


#: A setting -> whether a value is one (the ranges of the stage form's fields).
SETTINGS: dict[str, Callable[[Any], bool]] = {
    "cycles": _whole(1, 2),
    "rounds": _whole(1, 50),
    "interval": _whole(1, 60),
    "group_count": _whole(1, 64),
    "advance": _whole(1, 64),
    "bye_points": _number(0, 10),
    "weekday": lambda value: value is None or _whole(0, 6)(value),
    "first_date": _date_text,
    "time": _hour,
    "remainder": lambda value: value in ("table_of_two", "bye"),
    "double": _boolean,
    "reset": _boolean,
    "third_place": _boolean,
    "points": lambda value: (
        isinstance(value, list) and len(value) == 3 and all(_number(0, 100)(p) for p in value)
    ),
    # The engine checks a placement chain's keys (scoring.check_archive).
    "placement": _text_list,
    "chain": _chain,
}
#: What a format stores in its settings once it has drawn its teams, groups or bracket.
STORED = ("teams", "groups", "bracket", "placement", "chain")
BRACKET = ("positions", "double", "reset", "third_place")


def settings_check(stage: Mapping[str, Any], where: str, teams: Mapping[Any, Any]) -> None:
    """Refuse a stage's ``settings`` its format does not have (``where``: the stage's path)."""
    settings = stage["settings"]
    allowed = set(registry.FORMATS[stage["format"]].defaults) | set(STORED)
    for key, value in settings.items():
        path = f"{where}.settings.{key}"
        if key not in allowed:
            raise ArchiveError(_("not a setting of this stage's format."), path=path)
        if key == "teams":
            _teams_check(value, path, teams)
        elif key == "groups":
            if not isinstance(value, dict):
                raise ArchiveError(_("not a valid value here."), path=path)
            for name, members in value.items():
                if not 1 <= len(name) <= 20:
                    raise ArchiveError(_("not a valid value here."), path=f"{path}.{name}")
                _teams_check(members, f"{path}.{name}", teams)
        elif key == "bracket":
            _bracket_check(value, path, teams)
        elif not SETTINGS[key](value):
            raise ArchiveError(_("not a valid value here."), path=path)


def _teams_check(value: Any, path: str, teams: Mapping[Any, Any], *, byes: bool = False) -> None:
    """A list of the archive's team ids, each once (``byes``: None for a bye)."""
    if not isinstance(value, list):
        raise ArchiveError(_("not a valid value here."), path=path)
    seen = set()
    for i, team in enumerate(value):
        if team is None and byes:
            continue
        if isinstance(team, bool) or team not in teams or team in seen:
            raise ArchiveError(
                _("%(value)s is not one of the archive's %(what)s, or is given twice."),
                path=f"{path}[{i}]",
                value=shown(team),
                what=_("teams"),
            )
        seen.add(team)


def _bracket_check(value: Any, path: str, teams: Mapping[Any, Any]) -> None:
    if not isinstance(value, dict) or set(value) - set(BRACKET) or "positions" not in value:
        raise ArchiveError(_("not a valid value here."), path=path)
    positions = value["positions"]
    _teams_check(positions, f"{path}.positions", teams, byes=True)
    # A bracket's first round: a power of two of places, byes filling the field.
    if len(positions) < 2 or len(positions) & (len(positions) - 1):
        raise ArchiveError(_("not a valid value here."), path=f"{path}.positions")
    for key in ("double", "reset", "third_place"):
        if key in value and not isinstance(value[key], bool):
            raise ArchiveError(_("not a valid value here."), path=f"{path}.{key}")


def _sides(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) <= {"A", "B", "C"}
        and all(_whole(0, 2_147_483_647)(figure) for figure in value.values())
    )


def _text_or_none(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _games(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(game, dict)
        and set(game) <= {"number", "score", "winner"}
        and _sides(game.get("score", {}))
        and _text_or_none(game.get("winner"))
        for game in value
    )


def _games_or_scores(value: Any) -> bool:
    """An import's marked games, or a result's chicos by side (``[{"A": 30, "B": 25}]``:
    a match recorded as its result, its result recorded, corrected or converted)."""
    return _games(value) or (isinstance(value, list) and all(_sides(game) for game in value))


#: A field of a result change's ``before`` or ``after`` -> whether a value is one: a
#: hand's (``record``, ``points``, ``score``, ``status``), a walkover's (``winner``,
#: ``outcome``, ``chicos``), an answer's (``player``, ``on_behalf``), a result's
#: (``games``, ``winner``) and a change of the way a match is recorded (``recorded``,
#: ``hands``), and what an import marks of a match the engine scored otherwise (``games``,
#: ``tantos``, ``places``).
VIEW: dict[str, Callable[[Any], bool]] = {
    "record": lambda value: isinstance(value, dict),
    "points": _sides,
    "score": _sides,
    "score_before": _sides,
    "chicos": _sides,
    "tantos": _sides,
    "places": _sides,
    "games": _games_or_scores,
    "recorded": _text_or_none,
    "hands": _whole(0, 2_147_483_647),
    "status": _text_or_none,
    "outcome": _text_or_none,
    "winner": _text_or_none,
    "player": _text_or_none,
    "on_behalf": _boolean,
}


def view_check(view: Mapping[str, Any] | None, path: str) -> None:
    """Refuse a result change's ``before`` or ``after`` Tanteo could not show."""
    if view is None:
        return
    for key, value in view.items():
        if key not in VIEW or not VIEW[key](value):
            raise ArchiveError(_("not a valid value here."), path=f"{path}.{key}")
    if "points" in view and "score" not in view:
        raise ArchiveError(_("%(field)s is missing."), path=path, field="“score”")
