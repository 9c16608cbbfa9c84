"""Small archives made with the engine alone (no database), for the checker's tests."""

from __future__ import annotations

from typing import Any

from scoring import score_match_result, table_placement

RULES = {"preset": "argentine", "target": 15}
LINEUP = {"A": ["p1"], "B": ["p2"]}


def hand_entry(number: int, mano: str, other: str) -> dict[str, Any]:
    """A quick hand: every third one a truco called by the mano and accepted."""
    winner = "A" if number % 3 else "B"
    events: list[dict[str, Any]] = []
    if number % 3 == 0:
        events += [{"by": mano, "call": "truco"}, {"by": other, "answer": "quiero"}]
    return {"events": [*events, {"trick": winner}, {"trick": winner}]}


def duel_archive(hands: int | None = None) -> dict[str, Any]:
    """An archive of one best-of-one duel played to its end (or ``hands`` hands), its
    stored results the engine's."""
    head = {"rules": {**RULES, "best_of": 1}, "teams": LINEUP, "seats": ["p1", "p2"]}
    entries: list[dict[str, Any]] = []
    result = score_match_result({**head, "hands": entries})
    while result.next is not None and (hands is None or len(entries) < hands):
        mano = result.next.mano
        entries.append(hand_entry(len(entries) + 1, mano, "p2" if mano == "p1" else "p1"))
        result = score_match_result({**head, "hands": entries})
    games = [g.to_dict() for g in result.games]
    last = result.hands[-1] if result.hands else None
    if last is not None and str(last.status) != "game_over":
        games.append({"winner": None, "score": dict(last.score)})
    return {
        "format": "tanteo-archive",
        "version": 1,
        "championship": {"rules": RULES},
        "matches": [
            {
                "id": 1,
                "best_of": 1,
                "outcome": "played" if result.winner else "",
                "lineup": LINEUP,
                "seats": ["p1", "p2"],
                "winner": result.winner,
                "chicos": {s: sum(1 for g in result.games if g.winner == s) for s in "AB"},
                "tantos": {s: sum(g["score"][s] for g in games) for s in "AB"},
                "games": [{"number": n, **g} for n, g in enumerate(games, start=1)],
                "hands": [
                    {
                        "number": h.number,
                        "game": h.game,
                        "record": entry,
                        "order": list(h.order),
                        "score_before": dict(h.score_before),
                        "points": dict(h.points),
                        "score": dict(h.score),
                        "status": str(h.status),
                    }
                    for h, entry in zip(result.hands, entries, strict=True)
                ],
            }
        ],
    }


TABLE = {"A": ["p1"], "B": ["p2"], "C": ["p3"]}


def table_archive(gallo: str, hands: int | None = None) -> dict[str, Any]:
    """An archive of one table of three (best of one, target 15) played to its end (or
    ``hands`` hands), its stored results the engine's: with ``gallo: fijo`` the pair
    (p2, p3) is the engine's side B and the archive's ``"C"`` figures repeat B's."""
    rules = {**RULES, "gallo": gallo}
    fijo = gallo == "fijo"
    teams = {"A": ["p1"], "B": ["p2", "p3"]} if fijo else TABLE
    head = {"rules": {**rules, "best_of": 1}, "teams": teams, "seats": ["p1", "p2", "p3"]}
    columns = {"A": "A", "B": "B", "C": "B" if fijo else "C"}

    def figures(engine: Any) -> dict[str, int]:
        return {key: engine.get(side, 0) for key, side in columns.items()}

    entries: list[dict[str, Any]] = []
    result = score_match_result({**head, "hands": entries})
    while result.next is not None and (hands is None or len(entries) < hands):
        sides = sorted(result.next.record["teams"])  # the hand's two sides
        winner = sides[1 if len(entries) % 3 == 0 else 0]
        entries.append({"events": [{"trick": winner}, {"trick": winner}]})
        result = score_match_result({**head, "hands": entries})
    games = [{"winner": g.winner, "score": figures(g.score)} for g in result.games]
    last = result.hands[-1] if result.hands else None
    if last is not None and str(last.status) != "game_over":
        games.append({"winner": None, "score": figures(last.score)})
    places = {p.side: p.place for p in table_placement(result)} if entries else {}
    return {
        "format": "tanteo-archive",
        "version": 1,
        "championship": {"rules": rules},
        "matches": [
            {
                "id": 1,
                "stage": 1,
                "best_of": 1,
                "outcome": "played" if result.winner else "",
                "team_c": 3,
                "lineup": {side: list(players) for side, players in TABLE.items()},
                "seats": ["p1", "p2", "p3"],
                "winner": result.winner,
                "chicos": {
                    k: sum(1 for g in result.games if g.winner == s) for k, s in columns.items()
                },
                "tantos": {k: sum(g["score"][k] for g in games) for k in columns},
                "places": figures(places) if places else {},
                "games": [{"number": n, **g} for n, g in enumerate(games, start=1)],
                "hands": [
                    {
                        "number": h.number,
                        "game": h.game,
                        "record": entry,
                        "order": list(h.order),
                        "score_before": figures(h.score_before),
                        "points": figures(h.points),
                        "score": figures(h.score),
                        "status": str(h.status),
                    }
                    for h, entry in zip(result.hands, entries, strict=True)
                ],
            }
        ],
    }


def result_match(
    scores: list[dict[str, int]], *, winner: str | None = None, **fields: Any
) -> dict[str, Any]:
    """A match recorded as its result (docs/archive.md): ``scores`` are its chicos' final
    scores, each chico's winner the side at the target (the first, when two are), the
    match's winner, chicos and tantos as Tanteo stores them; ``fields`` change any of it.
    Every field the schema requires is there."""
    sides = sorted(scores[0]) if scores else ["A", "B"]
    games = []
    for number, score in enumerate(scores, start=1):
        top = max(score.values())
        games.append({"number": number, "winner": next(s for s in sides if score[s] == top),
                      "score": dict(score)})  # fmt: skip
    chicos = {s: sum(1 for g in games if g["winner"] == s) for s in sides}
    match: dict[str, Any] = {
        "id": 1,
        "stage": 1,
        "round": 1,
        "team_a": 1,
        "team_b": 2,
        "status": "finished" if scores else "scheduled",
        "outcome": "played" if scores else "",
        "recorded": "result",
        "best_of": 3,
        "lineup": {s: [f"p{i}"] for i, s in enumerate(sides, start=1)},
        "seats": [],
        "winner": winner
        if winner is not None
        else (max(chicos, key=chicos.get) if scores else None),
        "chicos": chicos,
        "tantos": {s: sum(g["score"][s] for g in games) for s in sides},
        "games": games,
        "hands": [],
    }
    if "C" in sides:
        match["team_c"] = 3
        match["places"] = {}
    match.update(fields)
    return match


def result_archive(rules: Any, *matches: dict[str, Any]) -> dict[str, Any]:
    """An archive of ``matches`` (each :func:`result_match`'s) under ``rules``."""
    return {
        "format": "tanteo-archive",
        "version": 1,
        "championship": {"rules": rules},
        "matches": [{**m, "id": i} for i, m in enumerate(matches, start=1)],
    }
