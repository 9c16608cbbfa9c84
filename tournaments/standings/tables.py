"""Standings of a championship of tables of three, over plain table results.

Each table is ranked by the engine (``scoring.table_placement``); this module adds up
placement points and orders the players (docs/tournaments.md "Tables of three"):

- Placement points (``PlacementPoints``, the organiser's choice): first 3, second 1, third
  0; at a table of two the winner scores the first place's points and the loser the third
  place's; a bye scores ``bye`` (1, a second place). Players sharing a place share the
  points of the places they cover (two first: (3 + 1) / 2 each).
- The chain (``TABLE_CHAIN`` by default): placement points, then tantos made, then the
  opponents' placement points (a Buchholz over tables: for each table, the average of the
  final placement points of the others at it; a bye counts the player's own points, so it
  neither helps nor hurts), then the drawing of lots. Players equal on a chain without
  lots share a rank.

The tie-breaks of two-team matches (``tiebreaks.py``) read ``MatchResult`` rows of two
teams; a table of three is not one, so these are computed here, with the same lots.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.formats.base import FormatError, TeamId, canonical_order, check_teams
from tournaments.standings.tiebreaks import draw_lots

Number = int | float

TABLE_TIEBREAKS = ("points", "tantos", "opponents", "firsts", "lots")
"""The keys a chain may use: placement points, tantos made, opponents' placement points,
first places, lots."""

TABLE_CHAIN = ("points", "tantos", "opponents", "lots")


@dataclass(frozen=True)
class PlacementPoints:
    """The placement points of each place, a table of two and a bye."""

    first: Number = 3
    second: Number = 1
    third: Number = 0
    bye: Number = 1

    def for_places(self, places: Mapping[TeamId, int]) -> dict[TeamId, Number]:
        """Each player's points at one table from his place (shared places share points).

        >>> PlacementPoints().for_places({"a": 1, "b": 1, "c": 3})
        {'a': 2.0, 'b': 2.0, 'c': 0}
        >>> PlacementPoints().for_places({"a": 2, "b": 1})  # a table of two
        {'a': 0, 'b': 3}
        """
        size = len(places)
        if size not in (2, 3) or any(not 1 <= p <= size for p in places.values()):
            raise FormatError("bad_places", "a table has two or three players, placed 1 to n")
        scale = (self.first, self.third) if size == 2 else (self.first, self.second, self.third)
        result: dict[TeamId, Number] = {}
        for player, place in places.items():
            sharing = sum(1 for p in places.values() if p == place)
            covered = scale[place - 1 : place - 1 + sharing]
            result[player] = covered[0] if sharing == 1 else sum(covered) / sharing
        return result


@dataclass(frozen=True)
class TableResult:
    """One finished table: each player's place (1 best, shared allowed) and tantos made.
    A bye is a table of one player with ``bye=True``."""

    places: Mapping[TeamId, int]
    tantos: Mapping[TeamId, int] = field(default_factory=dict)
    bye: bool = False


@dataclass(frozen=True)
class TableStandingRow:
    """One line of the standings: shared ``rank`` where the whole chain ties."""

    player: TeamId
    rank: int
    position: int
    metrics: dict[str, Number]
    tables: int
    byes: int


def table_standings(
    players: Iterable[TeamId],
    results: Iterable[TableResult],
    *,
    chain: Sequence[str] = TABLE_CHAIN,
    points: PlacementPoints | None = None,
    seed: int | str | None = None,
) -> list[TableStandingRow]:
    """The standings of a championship of tables, best first.

    >>> rows = table_standings("abcd", [
    ...     TableResult({"a": 1, "b": 2, "c": 3}, {"a": 30, "b": 21, "c": 12}),
    ...     TableResult({"d": 1}, bye=True),
    ... ], chain=["points", "tantos"])
    >>> [(r.rank, r.player, r.metrics["points"]) for r in rows]
    [(1, 'a', 3), (2, 'b', 1), (3, 'd', 1), (4, 'c', 0)]
    """
    roster = check_teams(players, minimum=1)
    if not chain or any(k not in TABLE_TIEBREAKS for k in chain) or len(set(chain)) != len(chain):
        raise FormatError("bad_chain", f"a chain uses some of {TABLE_TIEBREAKS}, each once")
    if "lots" in chain and chain[-1] != "lots":
        raise FormatError("lots_not_last", "the drawing of lots must be the last tie-break")
    scheme = points or PlacementPoints()
    known = set(roster)
    own: dict[TeamId, Number] = dict.fromkeys(roster, 0)
    tantos: dict[TeamId, Number] = dict.fromkeys(roster, 0)
    firsts: dict[TeamId, Number] = dict.fromkeys(roster, 0)
    tables: dict[TeamId, int] = dict.fromkeys(roster, 0)
    byes: dict[TeamId, int] = dict.fromkeys(roster, 0)
    seatings: list[tuple[TeamId, list[TeamId]]] = []  # (player, the others at his table)
    for result in list(results):
        unknown = [p for p in result.places if p not in known]
        if unknown:
            raise FormatError("unknown_team", f"a table names {unknown[0]}, not in these standings")
        if result.bye:
            if len(result.places) != 1:
                raise FormatError("bad_places", "a bye is a table of one player")
            (player,) = result.places
            own[player] += scheme.bye
            byes[player] += 1
            seatings.append((player, []))
            continue
        for player, value in scheme.for_places(result.places).items():
            own[player] += value
            tantos[player] += result.tantos.get(player, 0)
            firsts[player] += result.places[player] == 1
            tables[player] += 1
            seatings.append((player, [p for p in result.places if p != player]))
    opponents: dict[TeamId, Number] = dict.fromkeys(roster, 0)
    for player, others in seatings:
        if others:
            opponents[player] += sum(own[o] for o in others) / len(others)
        else:
            opponents[player] += own[player]
    lots = draw_lots(roster, seed) if "lots" in chain else {}
    metric = {"points": own, "tantos": tantos, "opponents": opponents, "firsts": firsts}

    def key(player: TeamId) -> tuple[Number, ...]:
        return tuple(lots[player] if k == "lots" else -metric[k][player] for k in chain)

    ordered = sorted(canonical_order(roster), key=key)  # stable: id order inside a tie
    rows: list[TableStandingRow] = []
    for i, player in enumerate(ordered):
        tied = i and key(player) == key(ordered[i - 1])
        rows.append(
            TableStandingRow(
                player=player,
                rank=rows[-1].rank if tied else i + 1,
                position=i + 1,
                metrics={k: (lots if k == "lots" else metric[k])[player] for k in chain},
                tables=tables[player],
                byes=byes[player],
            )
        )
    return rows
