"""Values shared by every championship format: team ids, pairings and the format error."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

TeamId = int | str
"""A team is known to the formats only by its id (the Django primary key or any label)."""


class FormatError(ValueError):
    """Bad input to a championship format.

    ``code`` is stable so the Django side can translate the message at the edge.

    >>> err = FormatError("duplicate_team", "team 3 is listed twice")
    >>> err.code, str(err)
    ('duplicate_team', 'team 3 is listed twice')
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Pairing:
    """One match of a round: ``home`` and ``away`` (home is listed first on the sheet)."""

    home: TeamId
    away: TeamId

    @property
    def teams(self) -> frozenset[TeamId]:
        return frozenset((self.home, self.away))


def check_teams(teams: Iterable[TeamId], *, minimum: int = 2) -> list[TeamId]:
    """Return ``teams`` as a list, rejecting duplicates, ``None`` and too few teams.

    >>> check_teams([3, 1, 2])
    [3, 1, 2]
    >>> check_teams([1, 1])
    Traceback (most recent call last):
    ...
    tournaments.formats.base.FormatError: team 1 is listed twice
    """
    result = list(teams)
    seen: set[TeamId] = set()
    for team in result:
        if team is None or isinstance(team, bool) or not isinstance(team, int | str):
            raise FormatError("bad_team", f"{team!r} is not a team id (an int or a str)")
        if team in seen:
            raise FormatError("duplicate_team", f"team {team} is listed twice")
        seen.add(team)
    if len(result) < minimum:
        raise FormatError(
            "too_few_teams", f"at least {minimum} teams are needed, got {len(result)}"
        )
    return result


def canonical_order(teams: Sequence[TeamId]) -> list[TeamId]:
    """Sort ids independently of how they were given (ints before strs, then by value).

    >>> canonical_order(["b", 10, 2, "a"])
    [2, 10, 'a', 'b']
    """
    return sorted(teams, key=lambda t: (isinstance(t, str), t if isinstance(t, int) else 0, str(t)))
