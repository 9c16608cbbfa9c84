"""Which matches are rated, in what order, and who played them (as persons), read in bulk.

A match is rated when it was played to its end between two teams: ``status`` finished,
``outcome`` played, a second team, a winner and a decision time. Walkovers, forfeits,
byes, teams absent at check-in and matches undecided again are not.

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

FIELDS = ("pk", "finished_at", "team_a_id", "team_b_id", "winner_id", "lineup")


@dataclass(frozen=True)
class Played:
    """A rated match as the ratings see it: its key and the persons of each side."""

    match_id: int
    decided_at: datetime.datetime
    winners: tuple[int, ...]
    losers: tuple[int, ...]

    @property
    def key(self) -> Key:
        return (self.decided_at, self.match_id)


def rated_matches(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Those of ``matches`` that count for ratings."""
    return matches.filter(
        status=Match.Status.FINISHED,
        outcome=Match.Outcome.PLAYED,
        team_b__isnull=False,
        # A table of three is not a two-sided result: the ratings leave it out.
        team_c__isnull=True,
        winner__isnull=False,
        finished_at__isnull=False,
    )


def played(matches: QuerySet[Match]) -> list[Played]:
    """The rated ones of ``matches`` with their players as persons, in rating order.

    Three queries whatever their number: the matches, the members of the teams of those
    without a stored line-up, the persons of the players. A match whose sides cannot be
    told (an empty side, a person on both) is left out.
    """
    rows = list(rated_matches(matches).order_by("finished_at", "pk").values_list(*FIELDS))
    teams = {team for row in rows if not row[5] for team in (row[2], row[3])}
    members = _members(teams)
    keys: set[int] = set()
    sides: list[tuple[Sequence[int], Sequence[int]]] = []
    for _pk, _at, team_a, team_b, _winner, lineup in rows:
        if lineup:
            a, b = _ids(lineup.get("A", ())), _ids(lineup.get("B", ()))
            keys.update(a)
            keys.update(b)
        else:
            a, b = members.get(team_a, ()), members.get(team_b, ())
        sides.append((a, b))
    person_of = _persons(keys)
    result = []
    for (pk, at, team_a, _team_b, winner, lineup), (a, b) in zip(rows, sides, strict=True):
        if lineup:
            a = [person_of[p] for p in a if p in person_of]
            b = [person_of[p] for p in b if p in person_of]
        side_a, side_b = tuple(dict.fromkeys(a)), tuple(dict.fromkeys(b))
        if not side_a or not side_b or set(side_a) & set(side_b):
            continue
        winners, losers = (side_a, side_b) if winner == team_a else (side_b, side_a)
        result.append(Played(match_id=pk, decided_at=at, winners=winners, losers=losers))
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
