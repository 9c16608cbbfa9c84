"""What an archive must be before anything of it is imported (docs/archive.md).

Three checks, in order, each naming the first problem with its JSON path
(``$.matches[3].hands[0].record``): the JSON Schema shipped in the repository
(``docs/archive.schema.json``, with ``jsonschema``); the references inside the file (a
match's teams, stage, round and group, a line-up's players, each id once) and the values
the database needs (a time zone, the rules, the tie-breaks, the stage formats, the
times); then the engine: every hand and match scored again (``scoring.check_archive``),
each difference with the stored result listed for the import to refuse or mark.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _
from jsonschema import Draft202012Validator, FormatChecker

from scoring import EngineError, RuleSet, check_archive
from tournaments.errors import TournamentError
from tournaments.formats.base import FormatError
from tournaments.io import jsonbody
from tournaments.models import validate_time_zone
from tournaments.stages import registry
from tournaments.standings import tiebreaks

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "archive.schema.json"


class ArchiveError(TournamentError):
    """An archive refused: ``path`` is the JSON path of the first problem."""

    def __init__(self, message: Any, *, path: str, code: str = "archive_invalid", **params: Any):
        super().__init__(
            _("%(path)s: %(problem)s"),
            code=code,
            params={"path": path, "problem": message % params if params else message},
        )
        self.path = path


@functools.cache
def schema() -> dict[str, Any]:
    """The archive's JSON Schema (docs/archive.schema.json)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def archive_load(data: bytes | str) -> Any:
    """The archive's JSON, or :class:`ArchiveError` for bytes that are not JSON."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ArchiveError(_("the file is not UTF-8 text."), path="$") from None
    try:
        return jsonbody.loads(data)
    except ValueError as error:
        raise ArchiveError(
            _("the file is not JSON (%(error)s)."), path="$", error=str(error)
        ) from None


def _order(error: Any) -> list[tuple[int, Any]]:
    return [(0, part) if isinstance(part, int) else (1, str(part)) for part in error.absolute_path]


def schema_check(archive: Any) -> None:
    """Refuse ``archive`` if the schema does, naming the first problem in the file's order."""
    validator = Draft202012Validator(schema(), format_checker=FormatChecker())
    errors = sorted(validator.iter_errors(archive), key=_order)
    if errors:
        first = errors[0]
        raise ArchiveError(
            _("%(problem)s."), path=first.json_path, code="archive_schema", problem=first.message
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
        raise ArchiveError(_("not a time with its offset: %(value)s."), path=path, value=value)
    return when


def _unique(items: Sequence[Mapping[str, Any]], key: str, path: str) -> dict[Any, int]:
    """``{item[key]: index}``, refusing a value given twice."""
    seen: dict[Any, int] = {}
    for index, item in enumerate(items):
        if item[key] in seen:
            raise ArchiveError(
                _("%(value)s is given twice."), path=f"{path}[{index}].{key}", value=item[key]
            )
        seen[item[key]] = index
    return seen


def _known(value: Any, known: Mapping[Any, Any], path: str, what: str) -> None:
    if value not in known:
        raise ArchiveError(
            _("%(value)s is not one of the archive's %(what)s."), path=path, value=value, what=what
        )


def _championship_check(championship: Mapping[str, Any]) -> None:
    try:
        validate_time_zone(championship["time_zone"])
    except Exception:
        raise ArchiveError(
            _("%(value)s is not a time zone."),
            path="$.championship.time_zone",
            value=championship["time_zone"],
        ) from None
    try:
        RuleSet.from_spec(championship["rules"])
    except EngineError as error:
        raise ArchiveError(error.message, path="$.championship.rules") from None
    try:
        tiebreaks.check_chain(championship["tiebreaks"])
    except FormatError as error:
        raise ArchiveError(str(error), path="$.championship.tiebreaks") from None
    start, end = championship["start_date"], championship["end_date"]
    try:
        starts = datetime.date.fromisoformat(start)
        ends = datetime.date.fromisoformat(end) if end else None
    except ValueError:
        raise ArchiveError(_("not a date."), path="$.championship.start_date") from None
    if ends is not None and ends < starts:
        raise ArchiveError(_("it ends before it starts."), path="$.championship.end_date")


def references_check(archive: Mapping[str, Any]) -> None:
    """Refuse an archive (valid by the schema) whose parts do not fit together."""
    _championship_check(archive["championship"])
    people = _unique(archive["people"], "id", "$.people")
    players = _unique(archive["players"], "key", "$.players")
    for index, player in enumerate(archive["players"]):
        _known(player["person"], people, f"$.players[{index}].person", _("people"))
    teams = _unique(archive["teams"], "id", "$.teams")
    _unique(archive["teams"], "name", "$.teams")
    for index, team in enumerate(archive["teams"]):
        for i, member in enumerate(team["players"]):
            _known(member["player"], players, f"$.teams[{index}].players[{i}].player", _("players"))
        if sum(1 for m in team["players"] if m.get("captain")) > 1:
            raise ArchiveError(_("a team has one captain."), path=f"$.teams[{index}].players")
    stages = _unique(archive["stages"], "id", "$.stages")
    _unique(archive["stages"], "order", "$.stages")
    rounds: dict[Any, set[int]] = {}
    groups: dict[Any, Any] = {}
    for index, stage in enumerate(archive["stages"]):
        where = f"$.stages[{index}]"
        if stage["format"] not in registry.FORMATS:
            raise ArchiveError(_("not a stage format."), path=f"{where}.format")
        for i, team in enumerate(stage["teams"]):
            _known(team, teams, f"{where}.teams[{i}]", _("teams"))
        _unique(stage["groups"], "name", f"{where}.groups")
        for i, group in enumerate(stage["groups"]):
            if group["id"] in groups:
                raise ArchiveError(
                    _("%(value)s is given twice."),
                    path=f"{where}.groups[{i}].id",
                    value=group["id"],
                )
            groups[group["id"]] = stage["id"]
            for k, team in enumerate(group["teams"]):
                _known(team, teams, f"{where}.groups[{i}].teams[{k}]", _("teams"))
        _unique(stage["rounds"], "number", f"{where}.rounds")
        rounds[stage["id"]] = {r["number"] for r in stage["rounds"]}
    for index, sub in enumerate(archive["substitutions"]):
        where = f"$.substitutions[{index}]"
        _known(sub["team"], teams, f"{where}.team", _("teams"))
        _known(sub["out"], players, f"{where}.out", _("players"))
        _known(sub["in"], players, f"{where}.in", _("players"))
        if sub.get("stage") is not None:
            _known(sub["stage"], stages, f"{where}.stage", _("stages"))
    _unique(archive["matches"], "id", "$.matches")
    championship = archive["championship"]
    # Tables of three only where Tanteo seats them: single players under gallo rules
    # (``Championship.plays_gallo``).
    gallo = championship["team_size"] == 1 and isinstance(championship["rules"], dict)
    gallo = gallo and "gallo" in championship["rules"]
    for index, match in enumerate(archive["matches"]):
        if "team_c" in match and not gallo:
            raise ArchiveError(
                _("a table of three needs single players and gallo rules."),
                path=f"$.matches[{index}].team_c",
            )
        _match_check(match, f"$.matches[{index}]", teams, players, stages, rounds, groups)


def _match_check(match, where, teams, players, stages, rounds, groups) -> None:
    _known(match["stage"], stages, f"{where}.stage", _("stages"))
    _known(match["round"], rounds[match["stage"]], f"{where}.round", _("rounds of its stage"))
    if match.get("group") is not None and groups.get(match["group"]) != match["stage"]:
        raise ArchiveError(_("not a group of its stage."), path=f"{where}.group")
    _known(match["team_a"], teams, f"{where}.team_a", _("teams"))
    if match["team_b"] is not None:
        _known(match["team_b"], teams, f"{where}.team_b", _("teams"))
        if match["team_b"] == match["team_a"]:
            raise ArchiveError(_("a team cannot play itself."), path=f"{where}.team_b")
    elif match["hands"]:
        raise ArchiveError(_("a match without opponent has no hands."), path=f"{where}.hands")
    if "team_c" in match:
        _table_check(match, where, teams)
    lineup = match["lineup"]
    for side in ("A", "B", "C") if "team_c" in match else ("A", "B"):
        for i, key in enumerate(lineup[side]):
            _known(key, players, f"{where}.lineup.{side}[{i}]", _("players"))
    for i, key in enumerate(match["seats"]):
        _known(key, players, f"{where}.seats[{i}]", _("players"))
    for i, hand in enumerate(match["hands"]):
        if hand["number"] != i + 1:
            raise ArchiveError(
                _("hands are numbered 1, 2, 3... in order."), path=f"{where}.hands[{i}].number"
            )
    _unique(match["games"], "number", f"{where}.games")
    for i, confirmation in enumerate(match.get("confirmations", [])):
        if confirmation.get("player") is not None:
            _known(
                confirmation["player"], players, f"{where}.confirmations[{i}].player", _("players")
            )
    _unique(match.get("confirmations", []), "side", f"{where}.confirmations")


def _table_check(match: Mapping[str, Any], where: str, teams: Mapping[Any, int]) -> None:
    """A table of three (the schema gave it its ``C`` figures): three teams, all
    different."""
    _known(match["team_c"], teams, f"{where}.team_c", _("teams"))
    if match["team_c"] in (match["team_a"], match["team_b"]):
        raise ArchiveError(_("the three teams of a table differ."), path=f"{where}.team_c")


def hand_path(archive: Mapping[str, Any], match_id: int, number: int | None, field: str) -> str:
    """The JSON path of a hand's (or a match's) ``field`` in ``archive``."""
    for index, match in enumerate(archive["matches"]):
        if match["id"] == match_id:
            if number is None:
                return f"$.matches[{index}].{field}"
            return f"$.matches[{index}].hands[{number - 1}].{field}"
    return "$.matches"


def engine_check(archive: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every difference between the archive's stored results and the engine's
    (``scoring.check_archive``); refuses a hand the engine cannot score at all."""
    try:
        report = check_archive(archive)
    except EngineError as error:
        raise ArchiveError(error.message, path=error.params.get("path", "$")) from None
    for found in report["disagreements"]:
        if found["field"] == "record":
            failure = found["engine"]["error"]
            raise ArchiveError(
                _("the engine refuses this hand: %(reason)s"),
                path=hand_path(archive, found["match"], found["hand"], "record"),
                code="archive_hand_refused",
                reason=failure["message"],
            )
    return report["disagreements"]


def archive_check(archive: Any) -> list[dict[str, Any]]:
    """All three checks; the engine's disagreements (the import refuses or marks them)."""
    schema_check(archive)
    references_check(archive)
    return engine_check(archive)
