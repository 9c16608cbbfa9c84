"""A table's placement: who is first, second and third at a table of three (gallo).

docs/rules.md "A table's placement". A championship of tables of three ranks the players
of each table; the rule books say how a game of three is scored (gallo por turno: every
player keeps his own score) but not how to rank the two who did not win, nor a table
stopped before anyone won. The engine ranks the sides of a match by, in turn:

1. ``chicos``: the chicos each side won;
2. ``last_chico``: the tantos each side had in the last chico played, the one in progress
   when the table stopped or, if the last hand closed a chico, that chico's final score;
3. ``tantos``: the tantos over the match, every finished chico's final score plus the
   chico in progress (capped scores, as the sheet shows them).

Sides equal on every criterion of the chain share a place (1, 1, 3). The chain is a
championship's choice (``tiebreaks``): any of the three keys in any order, or none (only
the match's winner ranks first, the others share second). A decided match's winner is
always first (he alone has a majority of chicos). With ``gallo: fijo`` the pair is one
side: its two players share its place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import error
from scoring.match import MatchResult, MatchState

__all__ = ["PLACEMENT_KEYS", "Placement", "table_placement"]

#: The criteria a placement may use, and the default chain, in this order.
PLACEMENT_KEYS = ("chicos", "last_chico", "tantos")


@dataclass(frozen=True, slots=True)
class Placement:
    """One side's place at the table (1 is best; equal sides share a place) and the
    figures it was decided on: chicos won, tantos in the last chico, tantos over the match.
    ``players`` are the side's players when the match's teams were given, else ``()``."""

    side: str
    place: int
    chicos: int
    last_chico: int
    tantos: int
    players: tuple[str, ...] = ()


def table_placement(
    match: MatchResult | MatchState,
    *,
    teams: Mapping[str, Sequence[str]] | None = None,
    tiebreaks: Sequence[str] = PLACEMENT_KEYS,
) -> tuple[Placement, ...]:
    """The sides of a scored match ranked best first, each with its place.

    ``match`` is a :class:`~scoring.match.MatchResult` (``score_match_result(record)``) or
    the :class:`~scoring.match.MatchState` a match stands at; ``teams`` (the record's) adds
    each side's players; ``tiebreaks`` is the chain of :data:`PLACEMENT_KEYS` to rank by.
    An unknown or repeated key is ``placement_invalid``.

    >>> import scoring
    >>> rec = {"rules": {"preset": "argentine", "target": 15, "best_of": 3},
    ...        "teams": {"A": ["ana"], "B": ["beto"], "C": ["caro"]},
    ...        "seats": ["ana", "beto", "caro"],
    ...        "hands": [{"events": [{"trick": "B"}, {"trick": "B"}]},
    ...                  {"events": [{"trick": "A"}, {"trick": "A"}]}]}
    >>> result = scoring.score_match_result(rec)
    >>> [(p.side, p.place, p.last_chico) for p in table_placement(result)]
    [('A', 1, 2), ('B', 2, 1), ('C', 3, 0)]
    >>> [(p.side, p.place) for p in table_placement(result, tiebreaks=["chicos"])]
    [('A', 1), ('B', 1), ('C', 1)]
    """
    state = match.state if isinstance(match, MatchResult) else match
    if state is None:  # pragma: no cover - score_match_result always sets it
        raise error("placement_invalid", detail="The match has no state to rank.")
    chain = list(tiebreaks)
    unknown = [k for k in chain if k not in PLACEMENT_KEYS]
    if unknown or len(set(chain)) != len(chain):
        raise error(
            "placement_invalid",
            detail=f"A placement ranks by some of {', '.join(PLACEMENT_KEYS)}, each once.",
        )
    sides = list(state.wins)
    # The last chico is the one the last counted hand belonged to: the chico in progress,
    # unless the last hand closed one (the running score is then back at 0 for everyone).
    closed = bool(state.games) and not any(state.score.values())
    last = state.games[-1].score if closed else state.score
    figures = {
        side: {
            "chicos": state.wins[side],
            "last_chico": last.get(side, 0),
            "tantos": sum(g.score.get(side, 0) for g in state.games) + state.score.get(side, 0),
        }
        for side in sides
    }

    def key(side: str) -> tuple[int, ...]:
        won = state.winner == side
        return (-int(won), *(-figures[side][k] for k in chain))

    ranked = sorted(sides, key=key)  # stable: equal sides keep the record's order
    placements = []
    for i, side in enumerate(ranked):
        place = placements[-1].place if i and key(side) == key(ranked[i - 1]) else i + 1
        placements.append(
            Placement(
                side=side,
                place=place,
                players=tuple(teams.get(side, ())) if teams else (),
                **figures[side],
            )
        )
    return tuple(placements)
