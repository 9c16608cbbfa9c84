"""Reading an archive (docs/archive.md) for its checker: each field the check needs,
validated by hand with the JSON path of the first problem (``archive_invalid``), and how a
match's sides are read (a table of three's ``"C"``, a fijo pair's figures under B).

The engine uses the standard library alone, so there is no schema library here: only
what the check reads is validated, and values are never echoed back unless they were
checked first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import EngineError, error
from scoring.placement import PLACEMENT_KEYS
from scoring.rules import RuleSet

__all__ = [
    "SIDES",
    "THREE_SIDES",
    "Columns",
    "columns_of",
    "gallo_fijo",
    "invalid",
    "match_head",
    "read_int",
    "read_list",
    "read_names",
    "read_object",
    "read_placement",
    "read_places",
    "read_sides",
    "read_text",
    "read_winner",
    "rules_of",
    "stage_placements",
    "stored_games",
]

SIDES = ("A", "B")
THREE_SIDES = ("A", "B", "C")


def invalid(path: str, detail: str) -> EngineError:
    failure = error("archive_invalid", path=path, detail=detail)
    failure.params["path"] = path
    return failure


def read_object(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise invalid(path, "it must be an object")
    return value


def read_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise invalid(path, "it must be a list")
    return value


def read_int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise invalid(path, "it must be a whole number, 0 or more")
    return value


def read_text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise invalid(path, "it must be a text")
    return value


def read_sides(value: Any, path: str, names: Sequence[str] = SIDES) -> dict[str, int]:
    sides = read_object(value, path)
    return {side: read_int(sides.get(side), f"{path}.{side}") for side in names}


def read_names(value: Any, path: str) -> list[str]:
    return [read_text(name, f"{path}[{i}]") for i, name in enumerate(read_list(value, path))]


def read_winner(value: Any, path: str, names: Sequence[str] = SIDES) -> str | None:
    if value is not None and value not in names:
        raise invalid(path, f"it must be {', '.join(names)} or null")
    return value


def read_places(value: Any, path: str) -> dict[str, int]:
    """A table's stored places: ``{}`` before its first hand, else a place for each side."""
    places = read_object(value, path)
    if not places:
        return {}
    found = read_sides(places, path, THREE_SIDES)
    if len(places) != len(THREE_SIDES) or 0 in found.values():
        raise invalid(path, "it must give A, B and C a place, 1 or more")
    return found


def read_placement(value: Any, path: str) -> list[str] | None:
    """A stage's ``placement`` chain (None: the engine's default)."""
    if value is None:
        return None
    chain = [read_text(key, f"{path}[{i}]") for i, key in enumerate(read_list(value, path))]
    if any(key not in PLACEMENT_KEYS for key in chain) or len(set(chain)) != len(chain):
        raise invalid(path, f"it must name some of {', '.join(PLACEMENT_KEYS)}, each once")
    return chain


@dataclass(frozen=True, slots=True)
class Columns:
    """How a match's sides are read: ``sides``, the archive's keys of its figures, and
    ``columns``, each key -> the engine's side whose figures it holds (at a fijo table of
    three, ``"C"`` holds the pair's, side ``"B"``)."""

    sides: tuple[str, ...] = SIDES
    columns: Mapping[str, str] | None = None

    @property
    def three(self) -> bool:
        return len(self.sides) == 3

    def figures(self, engine: Mapping[str, int]) -> dict[str, int]:
        """The engine's figures under the archive's keys."""
        columns = self.columns or {side: side for side in self.sides}
        return {key: engine.get(side, 0) for key, side in columns.items()}

    def side(self, key: str) -> str:
        return (self.columns or {}).get(key, key)


def gallo_fijo(rules: Mapping[str, Any]) -> bool:
    try:
        return RuleSet.from_spec(rules).gallo == "fijo"
    except EngineError:
        return False  # the engine refuses the rules again when it scores a hand


def columns_of(match: Mapping[str, Any], rules: Mapping[str, Any]) -> Columns:
    """How ``match``'s sides are read under ``rules``: two sides, or a table of three (a
    ``team_c``) whose ``"C"`` is side C (por turno) or repeats the pair's B (fijo)."""
    if match.get("team_c") is None:
        return Columns()
    fijo = gallo_fijo(rules)
    return Columns(THREE_SIDES, {"A": "A", "B": "B", "C": "B" if fijo else "C"})


def rules_of(championship: Mapping[str, Any], best_of: int, path: str) -> dict[str, Any]:
    """The match's rule set: the championship's (a preset's name or an object) with the
    match's ``best_of``, as Tanteo scores it."""
    rules = championship.get("rules")
    if isinstance(rules, str):
        return {"preset": rules, "best_of": best_of}
    return {**read_object(rules, path), "best_of": best_of}


def match_head(
    championship: Mapping[str, Any], match: Mapping[str, Any], path: str
) -> tuple[dict[str, Any], list[Any], Columns]:
    """The match record without its hands, the hands as they are in the archive and how
    the match's sides are read."""
    rules = rules_of(
        championship, read_int(match.get("best_of"), f"{path}.best_of"), "$.championship.rules"
    )
    lineup = read_object(match.get("lineup"), f"{path}.lineup")
    table = columns_of(match, rules)
    teams = {side: read_names(lineup.get(side), f"{path}.lineup.{side}") for side in table.sides}
    if table.three and table.side("C") == "B":
        # Gallo fijo: the pair is one side of the engine's, B.
        teams = {"A": teams["A"], "B": teams["B"] + teams["C"]}
    head: dict[str, Any] = {
        "rules": rules,
        "teams": teams,
        "seats": read_names(match.get("seats"), f"{path}.seats"),
    }
    captains = lineup.get("captains")
    if rules.get("preset") == "catalan" and captains is not None and not table.three:
        head["captains"] = {
            side: read_text(
                read_object(captains, f"{path}.lineup.captains").get(side),
                f"{path}.lineup.captains.{side}",
            )
            for side in SIDES
        }
    return head, read_list(match.get("hands"), f"{path}.hands"), table


def stored_games(match: Mapping[str, Any], path: str, table: Columns) -> list[dict[str, Any]]:
    games = []
    for i, game in enumerate(read_list(match.get("games"), f"{path}.games")):
        where = f"{path}.games[{i}]"
        game = read_object(game, where)
        games.append(
            {
                "winner": read_winner(game.get("winner"), f"{where}.winner", table.sides),
                "score": read_sides(game.get("score"), f"{where}.score", table.sides),
            }
        )
    return games


def stage_placements(stages: Any) -> dict[Any, list[str] | None]:
    """Each stage's id -> the ``placement`` chain its settings give (only a stage with
    tables of three may have one; an archive without stages has the engine's default)."""
    chains: dict[Any, list[str] | None] = {}
    if stages is None:
        return chains
    for i, stage in enumerate(read_list(stages, "$.stages")):
        where = f"$.stages[{i}]"
        stage = read_object(stage, where)
        settings = read_object(stage.get("settings", {}), f"{where}.settings")
        chains[read_int(stage.get("id"), f"{where}.id")] = read_placement(
            settings.get("placement"), f"{where}.settings.placement"
        )
    return chains
