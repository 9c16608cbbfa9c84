"""A round robin of tables of three for small fields: fixed designs, one per field size.

What each size guarantees (``tables_round_robin``; the tests check every line):

| players | rounds | tables a round | guarantee |
|---|---|---|---|
| 3 | 1 | 1 | every pair meets once |
| 6 | 4 | 2 | every pair meets at least once (three rounds cannot) |
| 7 | 7 | 2, one player out | every pair meets exactly twice, everyone sits out once |
| 9 | 4 | 3 | every pair meets exactly once (the affine plane of order 3) |
| 12 | 4 | 4 | no pair meets twice (12 players have no schedule meeting everyone once) |
| 15 | 7 | 5 | every pair meets exactly once (Kirkman's fifteen schoolgirls) |

Other sizes are refused (``tables_size``): play ``tables_swiss`` rounds instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from tournaments.formats.base import FormatError, TeamId, check_teams
from tournaments.formats.tables import TablesRound

Design = tuple[tuple[tuple[int, ...], ...], ...]


def _affine_plane() -> Design:
    # Points (x, y) of Z3 x Z3 as 3x + y; the four parallel classes of lines.
    point = lambda x, y: 3 * (x % 3) + y % 3  # noqa: E731
    rounds = [tuple(tuple(point(c, y) for y in range(3)) for c in range(3))]
    for m in range(3):
        rounds.append(tuple(tuple(point(x, m * x + c) for x in range(3)) for c in range(3)))
    return tuple(rounds)


def _seven() -> Design:
    # Round i: {i+1, i+2, i+4} and {i+3, i+5, i+6} mod 7, player i out. The two base blocks
    # hold every difference 1, 2, 3 twice, so every pair meets exactly twice.
    return tuple(
        (
            tuple(sorted((i + d) % 7 for d in (1, 2, 4))),
            tuple(sorted((i + d) % 7 for d in (3, 5, 6))),
        )
        for i in range(7)
    )


DESIGNS: dict[int, Design] = {
    3: (((0, 1, 2),),),
    6: (
        ((0, 1, 2), (3, 4, 5)),
        ((0, 1, 3), (2, 4, 5)),
        ((0, 1, 4), (2, 3, 5)),
        ((0, 1, 5), (2, 3, 4)),
    ),
    7: _seven(),
    9: _affine_plane(),
    12: (
        ((0, 9, 10), (1, 8, 11), (2, 3, 5), (4, 6, 7)),
        ((0, 7, 11), (1, 3, 10), (2, 6, 9), (4, 5, 8)),
        ((0, 1, 6), (2, 4, 10), (3, 7, 8), (5, 9, 11)),
        ((0, 2, 8), (1, 5, 7), (3, 4, 9), (6, 10, 11)),
    ),
    15: (
        ((0, 2, 11), (1, 4, 8), (3, 9, 14), (5, 6, 13), (7, 10, 12)),
        ((0, 3, 12), (1, 9, 13), (2, 6, 10), (4, 5, 7), (8, 11, 14)),
        ((0, 4, 9), (1, 5, 10), (2, 13, 14), (3, 7, 8), (6, 11, 12)),
        ((0, 5, 14), (1, 7, 11), (2, 4, 12), (3, 10, 13), (6, 8, 9)),
        ((0, 1, 6), (2, 7, 9), (3, 5, 11), (4, 10, 14), (8, 12, 13)),
        ((0, 8, 10), (1, 2, 3), (4, 11, 13), (5, 9, 12), (6, 7, 14)),
        ((0, 7, 13), (1, 12, 14), (2, 5, 8), (3, 4, 6), (9, 10, 11)),
    ),
}
"""Each size's rounds of tables, over the positions 0..n-1 of the players."""


def tables_round_robin(
    players: Iterable[TeamId], *, seed: int | str | None = None
) -> list[TablesRound]:
    """Every round of a round robin of tables for 3, 6, 7, 9, 12 or 15 players.

    With ``seed`` the players are first shuffled reproducibly; without it the given order
    is used. Tables list their players in the given (or shuffled) order.

    >>> rounds = tables_round_robin(range(1, 10))
    >>> len(rounds), rounds[0].tables
    (4, ((1, 2, 3), (4, 5, 6), (7, 8, 9)))
    >>> tables_round_robin("abcdefg")[0].byes
    ('a',)
    >>> tables_round_robin("abcd")
    Traceback (most recent call last):
    ...
    tournaments.formats.base.FormatError: a round robin of tables is made for 3, ... not 4
    """
    order = check_teams(players, minimum=1)
    design = DESIGNS.get(len(order))
    if design is None:
        sizes = ", ".join(map(str, sorted(DESIGNS)))
        sizes = sizes.rsplit(", ", 1)[0] + " or " + sizes.rsplit(", ", 1)[1]
        raise FormatError(
            "tables_size",
            f"a round robin of tables is made for {sizes} players, not {len(order)}",
        )
    if seed is not None:
        random.Random(f"{seed}").shuffle(order)
    rounds = []
    for tables in design:
        seated = {i for table in tables for i in table}
        rounds.append(
            TablesRound(
                tables=tuple(tuple(order[i] for i in sorted(table)) for table in tables),
                byes=tuple(order[i] for i in range(len(order)) if i not in seated),
            )
        )
    return rounds
