"""What an archive must be before anything of it is imported (docs/archive.md).

Four checks, in order, each naming the first problem with its JSON path
(``$.matches[3].hands[0].record``) and a short sentence: the limits of any file
(``archive_limits``: its size, nesting, texts and numbers, checked as it is read); the
JSON Schema shipped in the repository (``docs/archive.schema.json``, with
``jsonschema``) and the counts of its lists; the references inside the file (a match's
teams, stage, round and group, a line-up's players, each id once, every person and
player someone plays as) and the values the database needs (a time zone, the rules,
the tie-breaks, the stage formats and settings, the times: ``archive_values``); then
the engine: every hand and match scored again (``scoring.check_archive``), each
difference with the stored result listed for the import to refuse or mark.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _
from jsonschema import Draft202012Validator, FormatChecker

from scoring import EngineError, RuleSet, check_archive
from tournaments.errors import ENGINE_MESSAGES, from_engine, from_format
from tournaments.formats.base import FormatError
from tournaments.io.archive_limits import (
    ArchiveError,
    archive_load,
    counts_check,
    limits_check,
    shown,
)
from tournaments.io.archive_values import settings_check, times_check, view_check
from tournaments.models import validate_time_zone
from tournaments.stages import registry
from tournaments.standings import tiebreaks

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "archive.schema.json"

__all__ = ["ArchiveError", "archive_check", "archive_load", "schema_check"]


@functools.cache
def schema() -> dict[str, Any]:
    """The archive's JSON Schema (docs/archive.schema.json)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _order(error: Any) -> list[tuple[int, Any]]:
    return [(0, part) if isinstance(part, int) else (1, str(part)) for part in error.absolute_path]


TYPES = {
    "object": _("an object"),
    "array": _("a list"),
    "string": _("a text"),
    "integer": _("a whole number"),
    "number": _("a number"),
    "boolean": _("true or false"),
    "null": _("null"),
}


def _schema_problem(error: Any) -> tuple[str, Any, dict[str, Any]]:
    """A schema error as its path and a short translated sentence (jsonschema's own
    messages quote the value whole, in English)."""
    rule, expected, value = error.validator, error.validator_value, error.instance
    if rule in ("anyOf", "oneOf") and error.context:
        # One of several shapes: the problem inside the shape of the value's type, else
        # the types it may have.
        inside = [e for e in error.context if e.validator != "type"]
        if inside:
            return _schema_problem(min(inside, key=_order))
        rule, expected = "type", [e.validator_value for e in error.context]
    problem, params = _sentence(rule, expected, value, error.schema)
    return error.json_path, problem, params


def _sentence(rule: str, expected: Any, value: Any, schema: Any) -> tuple[Any, dict[str, Any]]:
    if rule == "type":
        kinds = [expected] if isinstance(expected, str) else expected
        return _("it must be %(kind)s."), {"kind": " / ".join(str(TYPES[k]) for k in kinds)}
    if rule == "required":
        missing = next((field for field in expected if field not in value), expected[0])
        return _("%(field)s is missing."), {"field": shown(missing)}
    if rule == "additionalProperties":
        known = schema.get("properties", {})
        extra = next((field for field in value if field not in known), "")
        return _("%(field)s is not a field of the archive here."), {"field": shown(extra)}
    if rule in ("enum", "const"):
        choices = expected if rule == "enum" else [expected]
        return _("it must be one of: %(values)s."), {
            "values": ", ".join(shown(choice) for choice in choices)
        }
    if rule == "maxLength":
        return _("the text is too long (%(max)s characters at most)."), {"max": expected}
    if rule == "minLength":
        return _("the text is empty."), {}
    if rule == "minimum":
        return _("it must be at least %(min)s."), {"min": expected}
    if rule == "maximum":
        return _("it must be at most %(max)s."), {"max": expected}
    if rule == "minItems":
        return _("it must have at least %(min)s items."), {"min": expected}
    if rule == "format" and expected == "date":
        return _("not a date (YYYY-MM-DD)."), {}
    if rule == "pattern" and "p[1-9]" in expected:
        return _("not a player's key (p1, p2...): %(value)s."), {"value": shown(value)}
    return _("not a valid value here."), {}


def schema_check(archive: Any) -> None:
    """Refuse ``archive`` if the schema does, naming the first problem in the file's
    order; then refuse lists longer than the limits (``archive_limits.COUNTS``)."""
    validator = Draft202012Validator(schema(), format_checker=FormatChecker())
    # The first in the file's order, without keeping every error of a file full of them.
    first = min(validator.iter_errors(archive), key=_order, default=None)
    if first is not None:
        path, message, params = _schema_problem(first)
        raise ArchiveError(message, path=path, code="archive_schema", **params)
    counts_check(archive)


def _unique(items: Sequence[Mapping[str, Any]], key: str, path: str) -> dict[Any, int]:
    """``{item[key]: index}``, refusing a value given twice (an empty text may repeat:
    a round without label, a match outside a bracket)."""
    seen: dict[Any, int] = {}
    for index, item in enumerate(items):
        value = item.get(key)
        if value in seen and value != "":
            raise ArchiveError(
                _("%(value)s is given twice."), path=f"{path}[{index}].{key}", value=shown(value)
            )
        seen[value] = index
    return seen


def _known(value: Any, known: Mapping[Any, Any], path: str, what: str) -> None:
    if isinstance(value, bool) or value not in known:
        raise ArchiveError(
            _("%(value)s is not one of the archive's %(what)s."),
            path=path,
            value=shown(value),
            what=what,
        )


def _championship_check(championship: Mapping[str, Any]) -> None:
    try:
        validate_time_zone(championship["time_zone"])
    except Exception:
        raise ArchiveError(
            _("%(value)s is not a time zone."),
            path="$.championship.time_zone",
            value=shown(championship["time_zone"]),
        ) from None
    try:
        RuleSet.from_spec(championship["rules"])
    except EngineError as error:
        raise ArchiveError(from_engine(error).text, path="$.championship.rules") from None
    try:
        tiebreaks.check_chain(championship["tiebreaks"])
    except FormatError as error:
        raise ArchiveError(from_format(error).text, path="$.championship.tiebreaks") from None


def _named(archive: Mapping[str, Any]) -> set[str]:
    """The keys of every player the championship names: line-ups (its teams' and its
    matches'), seats, substitutions, answers (as the export lists them)."""
    named = {m["player"] for team in archive["teams"] for m in team["players"]}
    named.update(key for s in archive["substitutions"] for key in (s["out"], s["in"]))
    for match in archive["matches"]:
        named.update(match["seats"])
        named.update(key for side in ("A", "B", "C") for key in match["lineup"].get(side, []))
        named.update(c["player"] for c in match.get("confirmations", []) if c.get("player"))
    return named


def _people_check(archive: Mapping[str, Any]) -> dict[Any, int]:
    """The players' keys; refuses a person nobody plays as, a player nobody names."""
    people = _unique(archive["people"], "id", "$.people")
    players = _unique(archive["players"], "key", "$.players")
    for index, player in enumerate(archive["players"]):
        _known(player["person"], people, f"$.players[{index}].person", _("people"))
    playing = {player["person"] for player in archive["players"]}
    for index, person in enumerate(archive["people"]):
        if person["id"] not in playing:
            raise ArchiveError(
                _("nobody in the archive plays as this person."), path=f"$.people[{index}]"
            )
    named = _named(archive)
    for index, player in enumerate(archive["players"]):
        if player["key"] not in named:
            raise ArchiveError(
                _("this player is in no line-up, seat, substitution or answer."),
                path=f"$.players[{index}]",
            )
    return players


def _teams_check(archive: Mapping[str, Any], players: Mapping[Any, int]) -> dict[Any, int]:
    teams = _unique(archive["teams"], "id", "$.teams")
    _unique(archive["teams"], "name", "$.teams")
    positions: dict[Any, int] = {}
    for index, team in enumerate(archive["teams"]):
        where = f"$.teams[{index}]"
        for i, member in enumerate(team["players"]):
            _known(member["player"], players, f"{where}.players[{i}].player", _("players"))
        _unique(team["players"], "player", f"{where}.players")
        if sum(1 for m in team["players"] if m.get("captain")) > 1:
            raise ArchiveError(_("a team has one captain."), path=f"{where}.players")
        if team.get("entry"):
            position = team["entry"]["position"]
            if position in positions:
                raise ArchiveError(
                    _("%(value)s is given twice."),
                    path=f"{where}.entry.position",
                    value=shown(position),
                )
            positions[position] = index
    return teams


def references_check(archive: Mapping[str, Any]) -> None:
    """Refuse an archive (valid by the schema) whose parts do not fit together."""
    _championship_check(archive["championship"])
    times_check(archive)
    players = _people_check(archive)
    teams = _teams_check(archive, players)
    stages = _unique(archive["stages"], "id", "$.stages")
    _unique(archive["stages"], "order", "$.stages")
    rounds: dict[Any, set[int]] = {}
    groups: dict[Any, Any] = {}
    for index, stage in enumerate(archive["stages"]):
        where = f"$.stages[{index}]"
        if stage["format"] not in registry.FORMATS:
            raise ArchiveError(_("not a stage format."), path=f"{where}.format")
        settings_check(stage, where, teams)
        for i, team in enumerate(stage["teams"]):
            _known(team, teams, f"{where}.teams[{i}]", _("teams"))
        _unique(stage["groups"], "name", f"{where}.groups")
        for i, group in enumerate(stage["groups"]):
            if group["id"] in groups:
                raise ArchiveError(
                    _("%(value)s is given twice."),
                    path=f"{where}.groups[{i}].id",
                    value=shown(group["id"]),
                )
            groups[group["id"]] = stage["id"]
            for k, team in enumerate(group["teams"]):
                _known(team, teams, f"{where}.groups[{i}].teams[{k}]", _("teams"))
        _unique(stage["rounds"], "number", f"{where}.rounds")
        _unique(stage["rounds"], "label", f"{where}.rounds")
        for i, round_ in enumerate(stage["rounds"]):
            for k, team in enumerate(round_.get("absent", [])):
                _known(team, teams, f"{where}.rounds[{i}].absent[{k}]", _("teams"))
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
    brackets: dict[Any, set[str]] = {}
    for index, match in enumerate(archive["matches"]):
        where = f"$.matches[{index}]"
        if "team_c" in match and not gallo:
            raise ArchiveError(
                _("a table of three needs single players and gallo rules."),
                path=f"{where}.team_c",
            )
        _match_check(match, where, teams, players, stages, rounds, groups)
        slot = match.get("bracket_id", "")
        if slot:
            taken = brackets.setdefault(match["stage"], set())
            if slot in taken:
                raise ArchiveError(
                    _("%(value)s is given twice."), path=f"{where}.bracket_id", value=shown(slot)
                )
            taken.add(slot)


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
    for side, key in lineup.get("captains", {}).items():
        _known(key, players, f"{where}.lineup.captains.{side}", _("players"))
    for i, key in enumerate(match["seats"]):
        _known(key, players, f"{where}.seats[{i}]", _("players"))
    _numbered(match["hands"], f"{where}.hands", _("hands are numbered 1, 2, 3... in order."))
    _numbered(match["games"], f"{where}.games", _("chicos are numbered 1, 2, 3... in order."))
    # Each side may win one chico short of the match before the last decides it.
    sides = 3 if "team_c" in match else 2
    most = sides * (match["best_of"] // 2) + 1
    if len(match["games"]) > most:
        raise ArchiveError(
            _("this match has at most %(count)s chicos."), path=f"{where}.games", count=most
        )
    for i, revision in enumerate(match.get("revisions", [])):
        for field in ("before", "after"):
            view_check(revision.get(field), f"{where}.revisions[{i}].{field}")
    for i, confirmation in enumerate(match.get("confirmations", [])):
        if confirmation.get("player") is not None:
            _known(
                confirmation["player"], players, f"{where}.confirmations[{i}].player", _("players")
            )
    _unique(match.get("confirmations", []), "side", f"{where}.confirmations")


def _numbered(items: Sequence[Mapping[str, Any]], path: str, message: Any) -> None:
    for i, item in enumerate(items):
        if item["number"] != i + 1:
            raise ArchiveError(message, path=f"{path}[{i}].number")


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


def _engine_reason(failure: Mapping[str, Any]) -> str:
    """The engine's refusal of a hand in the reader's language where its message needs
    no parameter (the archive's report keeps only its code and English message)."""
    code, message = failure.get("code", ""), str(failure.get("message", ""))
    template = ENGINE_MESSAGES.get(code)
    if template is not None:
        try:
            return str(template) % {}
        except (KeyError, TypeError, ValueError):
            pass
    return shown(message, 300)[1:-1]


def engine_check(archive: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every difference between the archive's stored results and the engine's
    (``scoring.check_archive``); refuses a hand the engine cannot score at all."""
    try:
        report = check_archive(archive)
    except EngineError as error:
        raise ArchiveError(
            shown(error.params.get("detail", error.message), 300)[1:-1],
            path=str(error.params.get("path", "$")),
        ) from None
    for found in report["disagreements"]:
        if found["field"] == "record":
            raise ArchiveError(
                _("the engine refuses this hand: %(reason)s"),
                path=hand_path(archive, found["match"], found["hand"], "record"),
                code="archive_hand_refused",
                reason=_engine_reason(found["engine"]["error"]),
            )
    return report["disagreements"]


def archive_check(archive: Any) -> list[dict[str, Any]]:
    """All the checks, in order; the engine's disagreements (the import refuses or marks
    them)."""
    limits_check(archive)
    schema_check(archive)
    references_check(archive)
    return engine_check(archive)
