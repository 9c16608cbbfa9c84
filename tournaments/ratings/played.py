"""Which matches are rated, in what order, and who played them (as persons), read in bulk.

A match is rated when it was played to its end: ``status`` finished, ``outcome`` played,
a second team, a winner and a decision time. Walkovers, forfeits, byes, teams absent at
check-in and matches undecided again are not.

Its **sides** are ranked: a two-sided match has the winner's side 1st and the loser's
2nd; a table of three (``team_c`` set) has its three players, each a side of his own,
at their places (``Match.places``, the engine's; shared places repeat). With ``gallo:
fijo`` the pair's two players are two sides sharing the pair's place: ``places`` gives
each player his own, and a rating is a person's, not a pair's.

Who played is the line-up the match stored when play started (``Match.lineup``), else the
teams' current members, as ``tournaments.results.records.lineup`` reads it: each player
(``p<id>``) counted as his person.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from tournaments.models import Match, Membership, Player

Key = tuple[datetime.datetime, int]
"""The order matches are rated in: the decision time (``Match.finished_at``), then pk."""

# Above this many ids, a whole table's two columns are read at once instead of a long IN.
BULK = 2000

FIELDS = (
    "pk",
    "finished_at",
    "team_a_id",
    "team_b_id",
    "team_c_id",
    "winner_id",
    "lineup",
    "places",
)

SIDES = ("A", "B", "C")


@dataclass(frozen=True)
class Played:
    """A rated match as the ratings see it: its key, the persons of each side, best placed
    first, and each side's place (two sides: 1 and 2; a table of three: its places, a
    shared place repeated)."""

    match_id: int
    decided_at: datetime.datetime
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]

    @property
    def key(self) -> Key:
        return (self.decided_at, self.match_id)

    @property
    def persons(self) -> tuple[int, ...]:
        return tuple(p for side in self.sides for p in side)

    def placed(self) -> list[tuple[int, int]]:
        """``(person, place)`` for each person who played."""
        return [
            (p, place) for side, place in zip(self.sides, self.places, strict=True) for p in side
        ]


def rated_matches(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Those of ``matches`` that count for ratings."""
    return matches.filter(
        status=Match.Status.FINISHED,
        outcome=Match.Outcome.PLAYED,
        team_b__isnull=False,
        winner__isnull=False,
        finished_at__isnull=False,
    )


def played(matches: QuerySet[Match]) -> list[Played]:
    """The rated ones of ``matches`` with their players as persons, in rating order.

    Three queries whatever their number: the matches, the members of the teams of those
    without a stored line-up, the persons of the players. A match whose sides cannot be
    told (an empty side, a person on two, a table of three without its places) is left
    out.
    """
    rows = list(rated_matches(matches).order_by("finished_at", "pk").values_list(*FIELDS))
    teams = {team for row in rows if not row[6] for team in row[2:5] if team is not None}
    members = _members(teams)
    keys: set[int] = set()
    found: list[list[Sequence[int]]] = []
    for _pk, _at, team_a, team_b, team_c, _winner, lineup, _places in rows:
        count = 3 if team_c is not None else 2
        if lineup:
            sides: list[Sequence[int]] = [_ids(lineup.get(s, ())) for s in SIDES[:count]]
            keys.update(p for side in sides for p in side)
        else:
            sides = [members.get(team, ()) for team in (team_a, team_b, team_c)[:count]]
        found.append(sides)
    person_of = _persons(keys)
    result = []
    for (pk, at, team_a, team_b, team_c, winner, lineup, places), sides in zip(
        rows, found, strict=True
    ):
        if lineup:
            sides = [[person_of[p] for p in side if p in person_of] for side in sides]
        persons = [tuple(dict.fromkeys(side)) for side in sides]
        if not all(persons) or len({p for side in persons for p in side}) < sum(map(len, persons)):
            continue
        if team_c is None:
            ranks = [1, 2] if winner == team_a else [2, 1]
        else:
            ranks = [places.get(str(team)) for team in (team_a, team_b, team_c)]
            if not all(isinstance(r, int) and r >= 1 for r in ranks):
                continue
        # Best placed first (a stable sort: tied sides keep the table's order), so that a
        # two-sided match is rated exactly as ever, winners then losers.
        order = sorted(range(len(persons)), key=lambda i: ranks[i])
        result.append(
            Played(
                match_id=pk,
                decided_at=at,
                sides=tuple(persons[i] for i in order),
                places=tuple(ranks[i] for i in order),
            )
        )
    return result


def _ids(keys: Iterable[object]) -> list[int]:
    """Player ids from record keys (``p12``); anything else is not a player."""
    return [int(k[1:]) for k in keys if isinstance(k, str) and k[:1] == "p" and k[1:].isdigit()]


def _members(teams: set[int]) -> dict[int, list[int]]:
    """Team id → its members' persons, in membership order."""
    if not teams:
        return {}
    rows = Membership.objects.order_by("team_id", "order", "pk")
    if len(teams) <= BULK:
        rows = rows.filter(team_id__in=teams)
    result: dict[int, list[int]] = defaultdict(list)
    for team, person in rows.values_list("team_id", "player__person_id"):
        result[team].append(person)
    return result


def _persons(players: set[int]) -> dict[int, int]:
    """Player id → person id."""
    if not players:
        return {}
    rows = Player.objects.order_by()
    if len(players) <= BULK:
        rows = rows.filter(pk__in=players)
    return dict(rows.values_list("pk", "person_id"))
