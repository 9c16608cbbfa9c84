"""Tables of three (gallo): a Swiss-like round of tables and the final table.

A championship of single players may seat them three to a table (docs/rules.md "Three
players, gallo"); each table is ranked first, second and third (docs/rules.md "A table's
placement") and the standings add up placement points (``tournaments.standings.tables``).
The round robin of tables is in ``tables_schedule.py``.

``tables_swiss`` seats the present players, best first, by these rules in strict order:

1. every present player sits at exactly one table or has the bye; the table sizes follow
   the remainder rule (``"table_of_two"``: n = 3k + 1 plays two tables of two, 3k + 2 one;
   ``"bye"``: the one or two players left over sit out);
2. the byes go to the players with the fewest byes so far (none, while someone has none),
   the lowest placed among them first;
3. nobody meets a player he already met while an arrangement without a repeat meeting
   exists (given rule 2); otherwise as few repeat meetings as possible;
4. players with similar standings sit together: the highest player not yet seated takes
   the two nearest players below him that rule 3 allows (a window moving down the
   standings), so the tables of two end up at the bottom.

Rule 3 is decided by an exact search (depth first, the highest unseated player's table
first, remembering the sets of players already shown impossible), so it is the true
optimum, not a heuristic, up to a search budget that the fields of a championship (tens
of players, a handful of rounds) never come near; past it, the best arrangement found is
returned and ``exact`` is False.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.formats.base import FormatError, TeamId, canonical_order, check_teams

REMAINDERS = ("table_of_two", "bye")
"""How a field not divisible by three is seated (see the module docstring)."""

CRITICAL = 4
"""A player with at most this many possible partners left is seated before the others."""

SEARCH_BUDGET = 50_000
"""Search steps allowed per number of repeat meetings tried before giving up exactness."""


@dataclass(frozen=True)
class TablesRound:
    """One round of tables: the tables (best first, each in standing order), the players
    sitting out, the pairs who meet again, and whether the search was exact (always, but
    for a field past the search budget)."""

    tables: tuple[tuple[TeamId, ...], ...]
    byes: tuple[TeamId, ...] = ()
    repeats: tuple[frozenset[TeamId], ...] = ()
    exact: bool = True


def table_sizes(count: int, remainder: str = "table_of_two") -> tuple[int, int, int]:
    """The tables of three, the tables of two and the byes for ``count`` players.

    >>> table_sizes(9), table_sizes(7), table_sizes(8), table_sizes(4)
    ((3, 0, 0), (1, 2, 0), (2, 1, 0), (0, 2, 0))
    >>> table_sizes(7, "bye"), table_sizes(8, "bye")
    ((2, 0, 1), (2, 0, 2))
    """
    if remainder not in REMAINDERS:
        raise FormatError("bad_remainder", f"the remainder rule is one of {REMAINDERS}")
    if count < 3:
        raise FormatError("too_few_teams", f"tables of three need 3 players, got {count}")
    threes, extra = divmod(count, 3)
    if remainder == "bye":
        return threes, 0, extra
    if extra == 1:
        return threes - 1, 2, 0
    return threes, extra // 2, 0


def tables_swiss(
    players: Sequence[TeamId],
    points: Mapping[TeamId, float] | None = None,
    met: Mapping[TeamId, Iterable[TeamId]] | None = None,
    *,
    remainder: str = "table_of_two",
    byes: Iterable[TeamId] = (),
    seed: int | str | None = None,
) -> TablesRound:
    """Seat the next round of tables of three (rules in the module docstring).

    ``players`` are the present players in standings order, best first; ``points`` their
    placement points (players are stably sorted by them, highest first); ``met`` who each
    has already sat with; ``byes`` the byes had so far (a player once per bye). With
    ``seed``, players level on points are ordered by a reproducible drawing of lots
    instead of the order given. The same input always gives the same round.

    >>> tables_swiss(["a", "b", "c", "d", "e", "f"]).tables
    (('a', 'b', 'c'), ('d', 'e', 'f'))
    >>> first = tables_swiss(list("abcdefg"), remainder="table_of_two")  # 3 + 2 + 2
    >>> first.tables, first.byes
    ((('a', 'b', 'c'), ('d', 'e'), ('f', 'g')), ())
    >>> again = tables_swiss(list("abcdef"), met={"a": "bc", "b": "ac", "c": "ab"})
    >>> again.tables, [sorted(pair) for pair in again.repeats]
    ((('a', 'd', 'e'), ('b', 'c', 'f')), [['b', 'c']])
    >>> tables_swiss(list("abcd"), remainder="bye", byes=["d"]).byes
    ('c',)
    """
    order = check_teams(players, minimum=3)
    threes, twos, bye_count = table_sizes(len(order), remainder)
    points = points or {}
    if seed is not None:
        lots = canonical_order(order)
        random.Random(f"{seed}").shuffle(lots)
        lot_of = {p: k for k, p in enumerate(lots)}
        order.sort(key=lambda p: lot_of[p])
    order.sort(key=lambda p: -points.get(p, 0))
    index = {p: i for i, p in enumerate(order)}
    n = len(order)
    conflict = [0] * n
    for player, others in (met or {}).items():
        if player not in index:
            continue
        for other in others:
            if other in index and other != player:
                conflict[index[player]] |= 1 << index[other]
                conflict[index[other]] |= 1 << index[player]
    had: dict[TeamId, int] = {}
    for player in byes:
        had[player] = had.get(player, 0) + 1

    search = _Search(conflict, threes, twos)
    everyone = (1 << n) - 1
    choices = [
        (bye_set, everyone & ~sum(1 << i for i in bye_set))
        for bye_set in _bye_sets([had.get(p, 0) for p in order], bye_count)
    ]
    bye_set, found = search.best(choices)
    tables = sorted(found)  # best table first
    seated = tuple(tuple(order[i] for i in table) for table in tables)
    repeats = tuple(
        frozenset((order[i], order[j]))
        for table in tables
        for i, j in combinations(table, 2)
        if conflict[i] >> j & 1
    )
    return TablesRound(
        tables=seated,
        byes=tuple(order[i] for i in sorted(bye_set)),
        repeats=repeats,
        exact=search.exact,
    )


def _bye_sets(had: list[int], count: int) -> Iterator[tuple[int, ...]]:
    """The sets of ``count`` positions that may sit out, preferred first: all from the
    players with the fewest byes (as many as there are), the lowest placed first."""
    if count == 0:
        yield ()
        return
    ranked = sorted(range(len(had)), key=lambda i: (had[i], -i))
    fewest = had[ranked[count - 1]]
    forced = [i for i in ranked if had[i] < fewest]
    pool = [i for i in ranked if had[i] == fewest]
    need = count - len(forced)
    # Prefer the lowest placed: the combination whose best-placed member is lowest first.
    for combo in sorted(combinations(range(len(pool)), need), key=lambda c: sorted(c)[::-1]):
        yield tuple(forced) + tuple(pool[k] for k in combo)


class _OutOfBudget(Exception):
    pass


class _Search:
    """Depth-first seating of a set of positions (bit masks) with at most ``k`` repeat
    meetings; the highest position not yet seated takes its table first."""

    def __init__(self, conflict: list[int], threes: int, twos: int) -> None:
        self.conflict = conflict
        self.threes = threes
        self.twos = twos
        self.exact = True
        # (mask, threes, twos) -> the largest k shown impossible for it.
        self.failed: dict[tuple[int, int, int], int] = {}

    def best(
        self, choices: Sequence[tuple[tuple[int, ...], int]]
    ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
        """The arrangement with the fewest repeats over ``choices`` (bye sets, preferred
        first, and the mask of the players they leave to seat): the first choice that
        reaches the fewest repeats wins."""
        most = 3 * self.threes + self.twos
        for k in range(min(self._fewest_repeats(m, self.twos) for _, m in choices), most + 1):
            self.steps = 0
            for bye_set, mask in choices:
                try:
                    tables = self._seat(mask, self.threes, self.twos, k)
                except _OutOfBudget:
                    self.exact = False
                    break
                if tables is not None:
                    return bye_set, tables
        raise AssertionError("tables can always be formed when repeats are allowed")

    def _pick(self, mask: int, twos: int) -> int | None:
        """Without repeats: the player to seat next, or None when someone left has no
        table without a repeat. A player with few partners left he has not met goes first
        (he would be stranded otherwise); else the highest in the standing."""
        pick, fewest = (mask & -mask).bit_length() - 1, CRITICAL + 1
        rest = mask
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            rest ^= low
            free = mask & ~self.conflict[i] & ~low
            if not free:
                return None
            if not twos and not any(free & ~self.conflict[j] & ~(1 << j) for j in _bits(free)):
                return None
            count = free.bit_count()
            if count < fewest:
                pick, fewest = i, count
        return pick

    def _fewest_repeats(self, mask: int, twos: int) -> int:
        """A lower bound on the repeats left: each repeat is met by two players, and a
        player with fewer than two players left he has not met (one, while a table of two
        remains) meets the difference again."""
        need = 1 if twos else 2
        ends = 0
        for i in _bits(mask):
            ends += max(0, need - (mask & ~self.conflict[i] & ~(1 << i)).bit_count())
        return (ends + 1) // 2

    def _cost(self, table: tuple[int, ...]) -> int:
        return sum(self.conflict[i] >> j & 1 for i, j in combinations(table, 2))

    def _seat(self, mask: int, threes: int, twos: int, k: int) -> list[tuple[int, ...]] | None:
        if mask == 0:
            return []
        key = (mask, threes, twos)
        if self.failed.get(key, -1) >= k:
            return None
        self.steps += 1
        if self.steps > SEARCH_BUDGET:
            raise _OutOfBudget
        if k and self._fewest_repeats(mask, twos) > k:
            self.failed[key] = k
            return None
        if k == 0:
            first = self._pick(mask, twos)
            if first is None:
                self.failed[key] = k
                return None
            pool = mask & ~self.conflict[first]
        else:
            first = (mask & -mask).bit_length() - 1
            pool = mask
        # The nearest players in the standing first.
        others = sorted(_bits(pool & ~(1 << first)), key=lambda i: (abs(i - first), i))
        # Cheapest tables first (no repeat).
        for cost in range(min(k, 3) + 1):
            for table in self._tables(first, others, threes, twos):
                if self._cost(table) != cost:
                    continue
                left = mask
                for i in table:
                    left &= ~(1 << i)
                three = len(table) == 3
                below = self._seat(left, threes - three, twos - (not three), k - cost)
                if below is not None:
                    return [tuple(sorted(table)), *below]
        self.failed[key] = k
        return None

    @staticmethod
    def _tables(first: int, others: list[int], threes: int, twos: int) -> Iterator[tuple[int, ...]]:
        # The two nearest first: by the farther member, then the nearer (a moving window).
        if threes:
            for b in range(1, len(others)):
                for a in range(b):
                    yield (first, others[a], others[b])
        if twos:
            for a in others:
                yield (first, a)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def final_table(standings: Sequence[TeamId]) -> tuple[TeamId, TeamId, TeamId]:
    """The final table: the best three of the standings (best first).

    >>> final_table(["ana", "beto", "caro", "dani"])
    ('ana', 'beto', 'caro')
    """
    order = check_teams(standings, minimum=3)
    return order[0], order[1], order[2]
