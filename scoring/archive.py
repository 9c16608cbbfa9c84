"""The open archive's checker: every hand and every match of an archive scored again.

An archive (docs/archive.md) is one JSON document holding a whole championship, each of
its matches with its hand records and the results Tanteo stored for them. Anyone can
check those results with the engine alone: :func:`check_archive` rebuilds each match
record (the championship's ``rules`` with the match's ``best_of``, its ``lineup`` and
``seats``, the hands' records), scores it and lists every difference with what the
archive says, as ``python -m scoring archive-check FILE`` prints them.

Only what the check reads is validated, by hand (the engine uses the standard library
alone), and a file that does not fit is refused with ``archive_invalid`` and the JSON
path of the first problem. A hand the engine refuses is a disagreement (the archive
stored a result for it), not an invalid file. Values are never echoed back unless they
were checked first: a hostile file cannot make the answer unprintable.

:func:`rename_players` rewrites the player names of a record (a hand, its entry, a
match): the archive names players ``p1``, ``p2``... and Tanteo ``p<id>`` of its own.

A table of three (gallo) is a match with a ``team_c``: its ``lineup`` has a side ``"C"``,
its figures (``points``, ``score``, ``score_before``, ``games``, ``chicos``, ``tantos``) a
``"C"`` key and it has ``places``. With ``gallo: por_turno`` the engine's sides are A, B
and C; with ``gallo: fijo`` they are the gallo (A) and the pair (B: the players of B and C),
and the archive's ``"C"`` figures repeat the pair's. The places are the engine's
(:func:`scoring.table_placement`, with the stage's ``placement`` chain when it has one).

>>> rename_players({"events": [{"by": "p7", "call": "truco"}, {"envido": {"p7": 30}}],
...                 "gallo": "p7"}, {"p7": "p1"})
{'events': [{'by': 'p1', 'call': 'truco'}, {'envido': {'p1': 30}}], 'gallo': 'p1'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import EngineError, error
from scoring.match import MatchResult, score_match_result
from scoring.placement import PLACEMENT_KEYS, table_placement
from scoring.rules import RuleSet

__all__ = ["ARCHIVE_FORMAT", "ARCHIVE_VERSION", "Disagreement", "check_archive", "rename_players"]

ARCHIVE_FORMAT = "tanteo-archive"
ARCHIVE_VERSION = 1
SIDES = ("A", "B")
THREE_SIDES = ("A", "B", "C")
# Matches whose result the organiser decided (no hands, or hands then a forfeit): their
# games and winner are not the engine's, only their hands are checked.
DECIDED_WITHOUT_PLAY = ("walkover", "forfeit", "bye")


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One difference between the archive and the engine.

    ``match`` is the match's id in the archive, ``hand`` the hand's number (None for the
    match as a whole), ``field`` what differs (``points``, ``score``, ``score_before``,
    ``order``, ``status``, ``game``; ``games``, ``winner``, ``chicos``, ``tantos``,
    ``places`` (a table of three); or
    ``record``: the engine refuses the hand, ``engine`` holding its error object).
    """

    match: int
    hand: int | None
    field: str
    stored: Any
    engine: Any

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "hand": self.hand,
            "field": self.field,
            "stored": self.stored,
            "engine": self.engine,
        }


def _invalid(path: str, detail: str) -> EngineError:
    failure = error("archive_invalid", path=path, detail=detail)
    failure.params["path"] = path
    return failure


def _object(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _invalid(path, "it must be an object")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _invalid(path, "it must be a list")
    return value


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _invalid(path, "it must be a whole number, 0 or more")
    return value


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _invalid(path, "it must be a text")
    return value


def _sides(value: Any, path: str, names: Sequence[str] = SIDES) -> dict[str, int]:
    sides = _object(value, path)
    return {side: _int(sides.get(side), f"{path}.{side}") for side in names}


def _names(value: Any, path: str) -> list[str]:
    return [_text(name, f"{path}[{i}]") for i, name in enumerate(_list(value, path))]


def _winner(value: Any, path: str, names: Sequence[str] = SIDES) -> str | None:
    if value is not None and value not in names:
        raise _invalid(path, f"it must be {', '.join(names)} or null")
    return value


def _places(value: Any, path: str) -> dict[str, int]:
    """A table's stored places: ``{}`` before its first hand, else a place for each side."""
    places = _object(value, path)
    if not places:
        return {}
    found = _sides(places, path, THREE_SIDES)
    if len(places) != len(THREE_SIDES) or 0 in found.values():
        raise _invalid(path, "it must give A, B and C a place, 1 or more")
    return found


def _placement(value: Any, path: str) -> list[str] | None:
    """A stage's ``placement`` chain (None: the engine's default)."""
    if value is None:
        return None
    chain = [_text(key, f"{path}[{i}]") for i, key in enumerate(_list(value, path))]
    if any(key not in PLACEMENT_KEYS for key in chain) or len(set(chain)) != len(chain):
        raise _invalid(path, f"it must name some of {', '.join(PLACEMENT_KEYS)}, each once")
    return chain


@dataclass(frozen=True, slots=True)
class _Table:
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


def _gallo_fijo(rules: Mapping[str, Any]) -> bool:
    try:
        return RuleSet.from_spec(rules).gallo == "fijo"
    except EngineError:
        return False  # the engine refuses the rules again when it scores a hand


def rules_of(championship: Mapping[str, Any], best_of: int, path: str) -> dict[str, Any]:
    """The match's rule set: the championship's (a preset's name or an object) with the
    match's ``best_of``, as Tanteo scores it."""
    rules = championship.get("rules")
    if isinstance(rules, str):
        return {"preset": rules, "best_of": best_of}
    return {**_object(rules, path), "best_of": best_of}


def _head(
    championship: Mapping[str, Any], match: Mapping[str, Any], path: str
) -> tuple[dict[str, Any], list[Any], _Table]:
    """The match record without its hands, the hands as they are in the archive and how
    the match's sides are read."""
    rules = rules_of(
        championship, _int(match.get("best_of"), f"{path}.best_of"), "$.championship.rules"
    )
    lineup = _object(match.get("lineup"), f"{path}.lineup")
    table = _Table()
    if match.get("team_c") is not None:
        fijo = _gallo_fijo(rules)
        table = _Table(THREE_SIDES, {"A": "A", "B": "B", "C": "B" if fijo else "C"})
    teams = {side: _names(lineup.get(side), f"{path}.lineup.{side}") for side in table.sides}
    if table.three and table.side("C") == "B":
        # Gallo fijo: the pair is one side of the engine's, B.
        teams = {"A": teams["A"], "B": teams["B"] + teams["C"]}
    head: dict[str, Any] = {
        "rules": rules,
        "teams": teams,
        "seats": _names(match.get("seats"), f"{path}.seats"),
    }
    captains = lineup.get("captains")
    if rules.get("preset") == "catalan" and captains is not None and not table.three:
        head["captains"] = {
            side: _text(
                _object(captains, f"{path}.lineup.captains").get(side),
                f"{path}.lineup.captains.{side}",
            )
            for side in SIDES
        }
    return head, _list(match.get("hands"), f"{path}.hands"), table


def _stored_games(match: Mapping[str, Any], path: str, table: _Table) -> list[dict[str, Any]]:
    games = []
    for i, game in enumerate(_list(match.get("games"), f"{path}.games")):
        where = f"{path}.games[{i}]"
        game = _object(game, where)
        games.append(
            {
                "winner": _winner(game.get("winner"), f"{where}.winner", table.sides),
                "score": _sides(game.get("score"), f"{where}.score", table.sides),
            }
        )
    return games


def check_match(
    championship: Mapping[str, Any],
    match: Mapping[str, Any],
    path: str,
    placement: Sequence[str] | None = None,
) -> tuple[int, list[Disagreement]]:
    """Score one match of an archive; returns its number of hands and its disagreements.

    ``placement``: the chain its stage ranks a table of three by (None: the engine's)."""
    match_id = _int(match.get("id"), f"{path}.id")
    head, hands, table = _head(championship, match, path)
    sides = table.sides
    stored_hands = []
    entries = []
    for i, hand in enumerate(hands):
        where = f"{path}.hands[{i}]"
        hand = _object(hand, where)
        stored_hands.append(
            {
                "number": _int(hand.get("number"), f"{where}.number"),
                "game": None if hand.get("game") is None else _int(hand["game"], f"{where}.game"),
                "order": _names(hand.get("order"), f"{where}.order"),
                "score_before": _sides(hand.get("score_before"), f"{where}.score_before", sides),
                "points": _sides(hand.get("points"), f"{where}.points", sides),
                "score": _sides(hand.get("score"), f"{where}.score", sides),
                "status": _text(hand.get("status"), f"{where}.status"),
            }
        )
        entries.append(_object(hand.get("record"), f"{where}.record"))
    outcome = match.get("outcome")
    played = outcome not in DECIDED_WITHOUT_PLAY
    if played:
        stored_games = _stored_games(match, path, table)
        stored_winner = _winner(match.get("winner"), f"{path}.winner", sides)
        chicos = _sides(match.get("chicos"), f"{path}.chicos", sides)
        tantos = _sides(match.get("tantos"), f"{path}.tantos", sides)
        if table.three:
            places = _places(match.get("places"), f"{path}.places")
    if not hands:
        if not played:
            return 0, []
        # Nothing played: no game, no winner (the seats may not be chosen yet).
        result = None
    else:
        try:
            result = score_match_result({**head, "hands": entries})
        except EngineError as failure:
            # The hands before the refused one are still compared; the match is not.
            refused = _refused(match_id, stored_hands, failure)
            before = entries[: failure.hand] if refused.hand is not None else []
            try:
                found = _compare_hands(match_id, stored_hands, head, table, before)
            except EngineError:
                found = []
            return len(hands), [*found, refused]
    found = _compare_hands(match_id, stored_hands, head, table, entries, result)
    scored_hands = result.hands if result is not None else ()
    if not played:
        return len(hands), found
    finished = result.games if result is not None else ()
    games = [{"winner": g.winner, "score": table.figures(g.score)} for g in finished]
    last = scored_hands[-1] if scored_hands else None
    if last is not None and str(last.status) != "game_over":
        games.append({"winner": None, "score": table.figures(last.score)})
    engine_chicos = {key: sum(1 for g in finished if g.winner == table.side(key)) for key in sides}
    engine_tantos = {key: sum(g["score"].get(key, 0) for g in games) for key in sides}
    compared = [
        ("winner", stored_winner, result.winner if result is not None else None),
        ("chicos", chicos, engine_chicos),
        ("tantos", tantos, engine_tantos),
        ("games", stored_games, games),
    ]
    if table.three:
        compared.append(("places", places, _engine_places(result, table, placement)))
    for field, stored_value, engine_value in compared:
        if stored_value != engine_value:
            found.append(Disagreement(match_id, None, field, stored_value, engine_value))
    return len(hands), found


def _engine_places(
    result: MatchResult | None, table: _Table, placement: Sequence[str] | None
) -> dict[str, int]:
    """The table's places as the engine ranks them, under the archive's keys (a fijo
    pair's two players share the pair's); none before the first hand."""
    if result is None or not result.hands:
        return {}
    chain = {"tiebreaks": placement} if placement is not None else {}
    place = {p.side: p.place for p in table_placement(result, **chain)}
    return table.figures(place)


def _compare_hands(
    match_id: int,
    stored_hands: list[dict[str, Any]],
    head: Mapping[str, Any],
    table: _Table,
    entries: list[Any],
    result: MatchResult | None = None,
) -> list[Disagreement]:
    """Each stored hand against the engine's scoring of ``entries`` (``result`` when it is
    already scored)."""
    if result is None:
        if not entries:
            return []
        result = score_match_result({**head, "hands": entries})
    found: list[Disagreement] = []
    for stored, scored in zip(stored_hands, result.hands, strict=False):
        engine = {
            "game": scored.game,
            "order": list(scored.order),
            "score_before": table.figures(scored.score_before),
            "points": table.figures(scored.points),
            "score": table.figures(scored.score),
            "status": str(scored.status),
        }
        for field in ("points", "score", "score_before", "status", "order", "game"):
            if stored[field] != engine[field]:
                found.append(
                    Disagreement(match_id, stored["number"], field, stored[field], engine[field])
                )
    return found


def _refused(
    match_id: int, stored_hands: list[dict[str, Any]], failure: EngineError
) -> Disagreement:
    """The engine refuses a hand (or the match record): the last disagreement reported
    for the match, since neither the hands after it nor the match can be scored."""
    index = failure.hand if failure.hand is not None and failure.hand < len(stored_hands) else None
    stored = None
    number = None
    if index is not None:
        hand = stored_hands[index]
        stored = {key: hand[key] for key in ("points", "score", "status")}
        number = hand["number"]
    return Disagreement(match_id, number, "record", stored, {"error": _error(failure)})


def _error(failure: EngineError) -> dict[str, Any]:
    payload = failure.to_dict()
    payload["hand"] = failure.hand
    return payload


def check_archive(archive: Any) -> dict[str, Any]:
    """Score every match and hand of ``archive`` (parsed JSON) again with the engine.

    Returns ``{"agree", "matches", "hands", "disagreements"}``: whether everything
    agrees, how many matches and hands were checked, and each :class:`Disagreement` as an
    object. Raises ``archive_invalid`` (an :class:`EngineError`, ``params["path"]`` the
    JSON path of the first problem) when the archive is not one.

    >>> archive = {"format": "tanteo-archive", "version": 1,
    ...     "championship": {"rules": "argentine"},
    ...     "matches": [{"id": 1, "best_of": 1, "outcome": "", "winner": None,
    ...         "lineup": {"A": ["p1"], "B": ["p2"]}, "seats": ["p1", "p2"],
    ...         "chicos": {"A": 0, "B": 0}, "tantos": {"A": 1, "B": 0},
    ...         "games": [{"winner": None, "score": {"A": 1, "B": 0}}],
    ...         "hands": [{"number": 1, "game": 1, "order": ["p1", "p2"],
    ...             "score_before": {"A": 0, "B": 0}, "points": {"A": 2, "B": 0},
    ...             "score": {"A": 1, "B": 0}, "status": "complete",
    ...             "record": {"events": [{"trick": "A"}, {"trick": "A"}]}}]}]}
    >>> report = check_archive(archive)
    >>> report["agree"], [(d["hand"], d["field"], d["stored"], d["engine"])
    ...                    for d in report["disagreements"]]
    (False, [(1, 'points', {'A': 2, 'B': 0}, {'A': 1, 'B': 0})])
    """
    top = _object(archive, "$")
    if top.get("format") != ARCHIVE_FORMAT:
        raise _invalid("$.format", f"it must be '{ARCHIVE_FORMAT}'")
    version = top.get("version")
    if isinstance(version, bool) or version != ARCHIVE_VERSION:
        raise _invalid("$.version", f"this engine reads version {ARCHIVE_VERSION}")
    championship = _object(top.get("championship"), "$.championship")
    matches = _list(top.get("matches"), "$.matches")
    placement = _placements(top.get("stages"))
    disagreements: list[Disagreement] = []
    hands = 0
    for i, match in enumerate(matches):
        where = f"$.matches[{i}]"
        match = _object(match, where)
        stage = match.get("stage")
        three = match.get("team_c") is not None and isinstance(stage, int)
        chain = placement.get(stage) if three else None
        counted, found = check_match(championship, match, where, chain)
        hands += counted
        disagreements += found
    return {
        "agree": not disagreements,
        "matches": len(matches),
        "hands": hands,
        "disagreements": [d.to_dict() for d in disagreements],
    }


def _placements(stages: Any) -> dict[Any, list[str] | None]:
    """Each stage's id -> the ``placement`` chain its settings give (only a stage with
    tables of three may have one; an archive without stages has the engine's default)."""
    chains: dict[Any, list[str] | None] = {}
    if stages is None:
        return chains
    for i, stage in enumerate(_list(stages, "$.stages")):
        where = f"$.stages[{i}]"
        stage = _object(stage, where)
        settings = _object(stage.get("settings", {}), f"{where}.settings")
        chains[_int(stage.get("id"), f"{where}.id")] = _placement(
            settings.get("placement"), f"{where}.settings.placement"
        )
    return chains


def _rename(name: Any, mapping: Mapping[str, str]) -> Any:
    return mapping.get(name, name) if isinstance(name, str) else name


def _rename_keys(value: Any, mapping: Mapping[str, str]) -> Any:
    if not isinstance(value, dict):
        return value
    return {_rename(key, mapping): item for key, item in value.items()}


def _rename_events(events: Any, mapping: Mapping[str, str]) -> Any:
    if not isinstance(events, list):
        return events
    renamed = []
    for event in events:
        if isinstance(event, dict):
            event = dict(event)
            if "by" in event:
                event["by"] = _rename(event["by"], mapping)
            for settlement in ("envido", "flor"):
                if settlement in event:
                    event[settlement] = _rename_keys(event[settlement], mapping)
        renamed.append(event)
    return renamed


def _rename_list(value: Any, mapping: Mapping[str, str]) -> Any:
    return [_rename(name, mapping) for name in value] if isinstance(value, list) else value


def rename_players(record: Mapping[str, Any], mapping: Mapping[str, str]) -> dict[str, Any]:
    """``record`` (a hand record, a match's hand entry or a match record) with each player
    named in ``mapping`` renamed, wherever the format puts a player: ``teams``, ``order``,
    ``seats``, ``captains``, ``cards``, ``gallo``, each event's ``by`` and the keys of its
    ``envido``/``flor`` settlement, and the same inside pica-pica sub-hands and a match's
    ``hands``. Names not in ``mapping`` and everything else are kept as they are."""
    renamed = dict(record)
    if isinstance(renamed.get("teams"), dict):
        renamed["teams"] = {
            side: _rename_list(players, mapping) for side, players in renamed["teams"].items()
        }
    for key in ("order", "seats"):
        if key in renamed:
            renamed[key] = _rename_list(renamed[key], mapping)
    if isinstance(renamed.get("captains"), dict):
        renamed["captains"] = {
            side: _rename(name, mapping) for side, name in renamed["captains"].items()
        }
    if "cards" in renamed:
        renamed["cards"] = _rename_keys(renamed["cards"], mapping)
    if "gallo" in renamed:
        renamed["gallo"] = _rename(renamed["gallo"], mapping)
    if "events" in renamed:
        renamed["events"] = _rename_events(renamed["events"], mapping)
    for key in ("pica_pica", "hands"):
        if isinstance(renamed.get(key), list):
            renamed[key] = [
                rename_players(part, mapping) if isinstance(part, dict) else part
                for part in renamed[key]
            ]
    return renamed
