"""The open archive's checker: every hand and every match of an archive scored again.

An archive (docs/archive.md) is one JSON document holding a whole championship, each of
its matches with its hand records and the results Tanteo stored for them. Anyone can
check those results with the engine alone: :func:`check_archive` rebuilds each match
record (the championship's ``rules`` with the match's ``best_of``, its ``lineup`` and
``seats``, the hands' records), scores it and lists every difference with what the
archive says, as ``python -m scoring archive-check FILE`` prints them.

Only what the check reads is validated (:mod:`scoring.archive_read`), and a file that
does not fit is refused with ``archive_invalid`` and the JSON path of the first problem.
A hand the engine refuses is a disagreement (the archive stored a result for it), not an
invalid file.

A match recorded as its result (``"recorded": "result"``; absent, ``"hands"``) has no
hands: its ``games`` are the chicos' final scores, checked as a reported result
(:func:`scoring.score_reported_result`) and compared with its ``winner``, ``chicos``,
``tantos``, ``games`` and a table's ``places``; an impossible result is the disagreement
of field ``result``.

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

from scoring.archive_read import (
    Columns,
    columns_of,
    invalid,
    match_head,
    read_int,
    read_list,
    read_names,
    read_object,
    read_places,
    read_sides,
    read_text,
    read_winner,
    rules_of,
    stage_placements,
    stored_games,
)
from scoring.errors import EngineError
from scoring.match import MatchResult, score_match_result
from scoring.placement import table_placement
from scoring.reported import score_reported_result

__all__ = ["ARCHIVE_FORMAT", "ARCHIVE_VERSION", "Disagreement", "check_archive", "rename_players"]

ARCHIVE_FORMAT = "tanteo-archive"
ARCHIVE_VERSION = 1
# Matches whose result the organiser decided (no hands, or hands then a forfeit): their
# games and winner are not the engine's, only their hands are checked.
DECIDED_WITHOUT_PLAY = ("walkover", "forfeit", "bye")
# How a match's result was recorded: hand by hand (the default) or as its result.
RECORDED = ("hands", "result")


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One difference between the archive and the engine.

    ``match`` is the match's id in the archive, ``hand`` the hand's number (None for the
    match as a whole), ``field`` what differs (``points``, ``score``, ``score_before``,
    ``order``, ``status``, ``game``; ``games``, ``winner``, ``chicos``, ``tantos``,
    ``places`` (a table of three); ``record``: the engine refuses the hand, or
    ``result``: it refuses a match recorded as its result, ``engine`` holding its error
    object).
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


def check_match(
    championship: Mapping[str, Any],
    match: Mapping[str, Any],
    path: str,
    placement: Sequence[str] | None = None,
) -> tuple[int, list[Disagreement]]:
    """Score one match of an archive; returns its number of hands and its disagreements.

    ``placement``: the chain its stage ranks a table of three by (None: the engine's).
    A match recorded as its result is checked by :func:`check_result_match`."""
    recorded = match.get("recorded", "hands")
    if recorded not in RECORDED:
        raise invalid(f"{path}.recorded", "it must be 'hands' or 'result'")
    if recorded == "result":
        return 0, check_result_match(championship, match, path, placement)
    match_id = read_int(match.get("id"), f"{path}.id")
    head, hands, table = match_head(championship, match, path)
    sides = table.sides
    stored_hands = []
    entries = []
    for i, hand in enumerate(hands):
        where = f"{path}.hands[{i}]"
        hand = read_object(hand, where)
        stored_hands.append(
            {
                "number": read_int(hand.get("number"), f"{where}.number"),
                "game": None
                if hand.get("game") is None
                else read_int(hand["game"], f"{where}.game"),
                "order": read_names(hand.get("order"), f"{where}.order"),
                "score_before": read_sides(
                    hand.get("score_before"), f"{where}.score_before", sides
                ),
                "points": read_sides(hand.get("points"), f"{where}.points", sides),
                "score": read_sides(hand.get("score"), f"{where}.score", sides),
                "status": read_text(hand.get("status"), f"{where}.status"),
            }
        )
        entries.append(read_object(hand.get("record"), f"{where}.record"))
    outcome = match.get("outcome")
    played = outcome not in DECIDED_WITHOUT_PLAY
    if played:
        kept_games = stored_games(match, path, table)
        stored_winner = read_winner(match.get("winner"), f"{path}.winner", sides)
        chicos = read_sides(match.get("chicos"), f"{path}.chicos", sides)
        tantos = read_sides(match.get("tantos"), f"{path}.tantos", sides)
        if table.three:
            places = read_places(match.get("places"), f"{path}.places")
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
        ("games", kept_games, games),
    ]
    if table.three:
        compared.append(("places", places, _engine_places(result, table, placement)))
    for field, stored_value, engine_value in compared:
        if stored_value != engine_value:
            found.append(Disagreement(match_id, None, field, stored_value, engine_value))
    return len(hands), found


def check_result_match(
    championship: Mapping[str, Any],
    match: Mapping[str, Any],
    path: str,
    placement: Sequence[str] | None = None,
) -> list[Disagreement]:
    """Check a match recorded as its result: its ``games`` (each chico's final score) as
    a reported result under the match's rules, then its ``winner``, ``chicos``,
    ``tantos``, ``games`` and a table's ``places`` against the engine's.

    It has no hands. Not reported yet (no game, no winner, not played) or decided without
    play (a walkover, forfeit or bye: the organiser's result) there is nothing to check.
    A result the engine refuses is one disagreement of field ``result``."""
    match_id = read_int(match.get("id"), f"{path}.id")
    rules = rules_of(
        championship, read_int(match.get("best_of"), f"{path}.best_of"), "$.championship.rules"
    )
    table = columns_of(match, rules)
    if read_list(match.get("hands"), f"{path}.hands"):
        raise invalid(f"{path}.hands", "a match recorded as its result has no hands")
    if match.get("outcome") in DECIDED_WITHOUT_PLAY:
        return []
    games = stored_games(match, path, table)
    winner = read_winner(match.get("winner"), f"{path}.winner", table.sides)
    if not games and winner is None and match.get("outcome") != "played":
        return []
    stored = {
        "winner": winner,
        "chicos": read_sides(match.get("chicos"), f"{path}.chicos", table.sides),
        "tantos": read_sides(match.get("tantos"), f"{path}.tantos", table.sides),
        "games": games,
    }
    if table.three:
        stored["places"] = read_places(match.get("places"), f"{path}.places")
    try:
        result = score_reported_result(_report(rules, table, games, placement))
    except EngineError as failure:
        refused = {**failure.to_dict(), "game": failure.params.get("index")}
        return [Disagreement(match_id, None, "result", games, {"error": refused})]
    engine: dict[str, Any] = {
        "winner": result.winner,
        "chicos": table.figures(result.chicos),
        "tantos": table.figures(result.tantos),
        "games": [{"winner": g.winner, "score": table.figures(g.score)} for g in result.games],
    }
    if table.three:
        engine["places"] = table.figures({p.side: p.place for p in result.places})
    return [
        Disagreement(match_id, None, field, stored[field], engine[field])
        for field in stored
        if stored[field] != engine[field]
    ]


def _report(
    rules: Mapping[str, Any],
    table: Columns,
    games: Sequence[Mapping[str, Any]],
    placement: Sequence[str] | None,
) -> dict[str, Any]:
    """The reported result (docs/hand-record.md) of an archive's games, on the engine's
    sides (a fijo pair once, as B), each chico with its stored winner."""
    sides = sorted({table.side(key) for key in table.sides})
    report_games = []
    for game in games:
        entry: dict[str, Any] = {"score": {side: game["score"][side] for side in sides}}
        if game["winner"] is not None:
            entry["winner"] = table.side(game["winner"])
        report_games.append(entry)
    report: dict[str, Any] = {"rules": rules, "sides": len(sides), "games": report_games}
    if placement is not None:
        report["tiebreaks"] = list(placement)
    return report


def _engine_places(
    result: MatchResult | None, table: Columns, placement: Sequence[str] | None
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
    table: Columns,
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
    top = read_object(archive, "$")
    if top.get("format") != ARCHIVE_FORMAT:
        raise invalid("$.format", f"it must be '{ARCHIVE_FORMAT}'")
    version = top.get("version")
    if isinstance(version, bool) or version != ARCHIVE_VERSION:
        raise invalid("$.version", f"this engine reads version {ARCHIVE_VERSION}")
    championship = read_object(top.get("championship"), "$.championship")
    matches = read_list(top.get("matches"), "$.matches")
    placement = stage_placements(top.get("stages"))
    disagreements: list[Disagreement] = []
    hands = 0
    for i, match in enumerate(matches):
        where = f"$.matches[{i}]"
        match = read_object(match, where)
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
