"""Standings with a chain of registered tie-breaks, over plain match results.

Each tie-break is a small class with a ``key`` (stored per championship), a translatable
``name`` and ``abbr``, and a ``metric`` computed for the teams still tied. The chain is
applied the standard way: every tie-break splits only the teams that all the earlier ones
left tied, so head-to-head is a mini-table of the matches among exactly those teams.

Definitions (documented for organisers):

- Match points: ``PointsScheme`` (default win 1, draw 0.5, loss 0, bye 1, a walkover or
  forfeit loss 0). A result with no winner is a draw, or, flagged as a walkover, a double
  forfeit that both lose. Chicos and tantos count as recorded, walkovers included: the
  service records what the rules award for one.
- Buchholz: the sum of the match points of every opponent met. A bye counts as set by
  ``ByeBuchholz``: by default (``OWN``) as a virtual opponent with the team's own
  points, as FIDE does, so a bye neither helps nor hurts; ``ZERO`` counts an opponent
  with no points; ``IGNORE`` counts nothing.
- Median-Buchholz: the Buchholz without the highest and the lowest opponent; with fewer
  than three opponents nothing is dropped (it equals the Buchholz).
- Drawing of lots: a shuffle of the teams by ``random.Random(f"{seed}")`` from an order that
  does not depend on how the teams were given, so the same championship seed always
  draws the same lots; a chain ending in lots never leaves a shared rank.

This module imports only Django's lazy ``gettext_lazy`` for the names, which works
without configured settings; everything else is plain Python.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.formats.base import FormatError, TeamId, canonical_order, check_teams

Number = int | float


@dataclass(frozen=True)
class MatchResult:
    """A finished match. ``team_b`` None: a bye for ``team_a`` or, with ``walkover``, a
    loss by walkover of ``team_a``, absent at check-in (no opponent gets the win).

    ``winner`` None with two teams: a draw, or with ``walkover`` a double forfeit.
    ``walkover`` with a winner: the other team did not play (walkover or forfeit).
    """

    team_a: TeamId
    team_b: TeamId | None = None
    winner: TeamId | None = None
    chicos_a: int = 0
    chicos_b: int = 0
    tantos_a: int = 0
    tantos_b: int = 0
    walkover: bool = False

    def __post_init__(self) -> None:
        if self.team_a == self.team_b:
            raise FormatError("same_team", f"team {self.team_a} cannot play itself")
        if self.team_b is not None and self.winner not in (None, self.team_a, self.team_b):
            raise FormatError(
                "not_in_match", f"winner {self.winner} did not play {self.team_a} v {self.team_b}"
            )
        for value in (self.chicos_a, self.chicos_b, self.tantos_a, self.tantos_b):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise FormatError("bad_score", f"chicos and tantos are counts, not {value!r}")

    @property
    def is_bye(self) -> bool:
        return self.team_b is None and not self.walkover

    @property
    def is_absence(self) -> bool:
        """``team_a`` was absent at check-in and lost by walkover, with no opponent."""
        return self.team_b is None and self.walkover


@dataclass(frozen=True)
class PointsScheme:
    """Match points for each kind of result (the organiser's choice)."""

    win: Number = 1
    draw: Number = 0.5
    loss: Number = 0
    bye: Number = 1
    walkover_loss: Number = 0

    def points(self, result: MatchResult, team: TeamId) -> Number:
        if result.is_bye:
            return self.bye
        if result.winner is None:
            return self.walkover_loss if result.walkover else self.draw
        if result.winner == team:
            return self.win
        return self.walkover_loss if result.walkover else self.loss


class ByeBuchholz(StrEnum):
    OWN = "own"
    ZERO = "zero"
    IGNORE = "ignore"


@dataclass
class TeamTotals:
    """Everything the tie-breaks read about one team, summed over its results."""

    points: Number = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    chicos_for: int = 0
    chicos_against: int = 0
    tantos_for: int = 0
    tantos_against: int = 0
    opponents: list[TeamId] = field(default_factory=list)


@dataclass
class Table:
    """The results of one stage or group, summed per team, with the standings options."""

    teams: list[TeamId]
    results: list[MatchResult]
    totals: dict[TeamId, TeamTotals]
    scheme: PointsScheme
    bye_buchholz: ByeBuchholz
    seed: int | str | None
    _lots: dict[TeamId, int] | None = field(default=None, repr=False, compare=False)

    def lots(self) -> dict[TeamId, int]:
        """The drawing of lots for this table, drawn once."""
        if self._lots is None:
            self._lots = draw_lots(self.teams, self.seed)
        return self._lots


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: shared ``rank`` where the whole chain ties."""

    team: TeamId
    rank: int
    position: int
    metrics: dict[str, Number | None]
    totals: TeamTotals


class TieBreak:
    """A tie-break: ``metric`` scores the teams still tied (higher is better by default)."""

    key: ClassVar[str]
    name: ClassVar[Any]
    abbr: ClassVar[Any]
    # The words of Catalan truc where they differ (its jocs are no chicos): name, abbr.
    catalan: ClassVar[tuple[Any, Any] | None] = None
    higher_is_better: ClassVar[bool] = True
    # A metric that depends on which teams are tied (head-to-head) is only shown for them.
    per_tie: ClassVar[bool] = False

    def metric(self, table: Table, tied: Sequence[TeamId]) -> dict[TeamId, Number]:
        raise NotImplementedError


TIEBREAKS: dict[str, type[TieBreak]] = {}


def register(cls: type[TieBreak]) -> type[TieBreak]:
    """Class decorator adding a tie-break to ``TIEBREAKS`` under its key."""
    if cls.key in TIEBREAKS:
        raise ValueError(f"tie-break {cls.key} is registered twice")
    TIEBREAKS[cls.key] = cls
    return cls


class _TotalsTieBreak(TieBreak):
    """A tie-break read straight from each team's totals."""

    def value(self, totals: TeamTotals) -> Number:
        raise NotImplementedError

    def metric(self, table: Table, tied: Sequence[TeamId]) -> dict[TeamId, Number]:
        return {t: self.value(table.totals[t]) for t in tied}


@register
class MatchPoints(_TotalsTieBreak):
    key = "points"
    name = _("Match points")
    abbr = _("Pts")

    def value(self, totals: TeamTotals) -> Number:
        return totals.points


@register
class Wins(_TotalsTieBreak):
    key = "wins"
    name = _("Matches won")
    abbr = _("W")

    def value(self, totals: TeamTotals) -> Number:
        return totals.wins


@register
class ChicosWon(_TotalsTieBreak):
    key = "chicos_won"
    name = _("Chicos won")
    abbr = _("ChW")
    catalan = (pgettext_lazy("catalan truc", "Jocs won"), pgettext_lazy("catalan truc", "JW"))

    def value(self, totals: TeamTotals) -> Number:
        return totals.chicos_for


@register
class ChicoDifference(_TotalsTieBreak):
    key = "chico_diff"
    name = _("Chico difference")
    abbr = _("ChD")
    catalan = (
        pgettext_lazy("catalan truc", "Joc difference"),
        pgettext_lazy("catalan truc", "JD"),
    )

    def value(self, totals: TeamTotals) -> Number:
        return totals.chicos_for - totals.chicos_against


@register
class TantosFor(_TotalsTieBreak):
    key = "tantos_for"
    name = _("Tantos for")
    abbr = _("TF")

    def value(self, totals: TeamTotals) -> Number:
        return totals.tantos_for


@register
class TantosDifference(_TotalsTieBreak):
    key = "tantos_diff"
    name = _("Tantos difference")
    abbr = _("TD")

    def value(self, totals: TeamTotals) -> Number:
        return totals.tantos_for - totals.tantos_against


@register
class HeadToHead(TieBreak):
    """Match points won in the matches among the tied teams only (a mini-table)."""

    key = "head_to_head"
    name = _("Head-to-head")
    abbr = _("H2H")
    per_tie = True

    def metric(self, table: Table, tied: Sequence[TeamId]) -> dict[TeamId, Number]:
        among = set(tied)
        points: dict[TeamId, Number] = dict.fromkeys(tied, 0)
        for result in table.results:
            if result.team_a in among and result.team_b in among:
                points[result.team_a] += table.scheme.points(result, result.team_a)
                points[result.team_b] += table.scheme.points(result, result.team_b)
        return points


def _opponent_points(table: Table, team: TeamId) -> list[Number]:
    totals = table.totals[team]
    values = [table.totals[o].points for o in totals.opponents]
    if table.bye_buchholz is ByeBuchholz.OWN:
        values += [totals.points] * totals.byes
    elif table.bye_buchholz is ByeBuchholz.ZERO:
        values += [0] * totals.byes
    return values


@register
class Buchholz(TieBreak):
    key = "buchholz"
    name = _("Buchholz")
    abbr = _("Bh")

    def metric(self, table: Table, tied: Sequence[TeamId]) -> dict[TeamId, Number]:
        return {t: sum(_opponent_points(table, t)) for t in tied}


@register
class MedianBuchholz(TieBreak):
    key = "median_buchholz"
    name = _("Median-Buchholz")
    abbr = _("MBh")

    def metric(self, table: Table, tied: Sequence[TeamId]) -> dict[TeamId, Number]:
        result = {}
        for t in tied:
            values = sorted(_opponent_points(table, t))
            result[t] = sum(values[1:-1]) if len(values) >= 3 else sum(values)
        return result


@register
class DrawingOfLots(TieBreak):
    """Lot 1 ranks first; the draw is seeded by the championship and always separates."""

    key = "lots"
    name = _("Drawing of lots")
    abbr = _("Lot")
    higher_is_better = False

    def metric(self, table: Table, tied: Sequence[TeamId]) -> dict[TeamId, Number]:
        lots = table.lots()
        return {t: lots[t] for t in tied}


def draw_lots(teams: Iterable[TeamId], seed: int | str | None) -> dict[TeamId, int]:
    """Lot numbers 1..n, reproducible from ``seed`` and independent of the teams' order.

    >>> draw_lots([3, 1, 2], seed="cup-2026") == draw_lots([1, 2, 3], seed="cup-2026")
    True
    >>> sorted(draw_lots(["x", "y", "z"], seed=7).values())
    [1, 2, 3]
    """
    if seed is None:
        raise FormatError("no_seed", "a drawing of lots needs the championship's seed")
    order = canonical_order(list(teams))
    random.Random(f"{seed}").shuffle(order)
    return {team: k for k, team in enumerate(order, start=1)}


DEFAULT_CHAIN = ("points", "head_to_head", "chico_diff", "tantos_diff", "lots")


def check_chain(chain: Sequence[str]) -> list[type[TieBreak]]:
    """The tie-break classes of ``chain``, rejecting unknown keys, repeats and misplaced lots.

    >>> [tb.key for tb in check_chain(["points", "lots"])]
    ['points', 'lots']
    >>> check_chain(["points", "goals"])
    Traceback (most recent call last):
    ...
    tournaments.formats.base.FormatError: unknown tie-break 'goals'
    """
    if not chain:
        raise FormatError("empty_chain", "choose at least one tie-break")
    classes = []
    for key in chain:
        if key not in TIEBREAKS:
            raise FormatError("unknown_tiebreak", f"unknown tie-break {key!r}")
        classes.append(TIEBREAKS[key])
    if len(set(chain)) != len(chain):
        raise FormatError("repeated_tiebreak", "a tie-break appears twice in the chain")
    if "lots" in chain and chain[-1] != "lots":
        raise FormatError("lots_not_last", "the drawing of lots must be the last tie-break")
    return classes


def build_table(
    teams: Iterable[TeamId],
    results: Iterable[MatchResult],
    *,
    scheme: PointsScheme | None = None,
    bye_buchholz: ByeBuchholz = ByeBuchholz.OWN,
    seed: int | str | None = None,
) -> Table:
    """Sum ``results`` per team; a result naming a team not in ``teams`` is an error."""
    team_list = check_teams(teams, minimum=1)
    scheme = scheme or PointsScheme()
    totals = {t: TeamTotals() for t in team_list}
    result_list = list(results)
    for result in result_list:
        for team in (result.team_a, result.team_b):
            if team is not None and team not in totals:
                raise FormatError("unknown_team", f"a result names team {team}, not in this table")
        a = totals[result.team_a]
        if result.is_bye:
            a.byes += 1
            a.points += scheme.bye
            continue
        if result.is_absence:
            a.played += 1
            a.losses += 1
            a.points += scheme.walkover_loss
            continue
        b = totals[result.team_b]
        sides = (
            (
                result.team_a,
                a,
                result.team_b,
                result.chicos_a,
                result.chicos_b,
                result.tantos_a,
                result.tantos_b,
            ),
            (
                result.team_b,
                b,
                result.team_a,
                result.chicos_b,
                result.chicos_a,
                result.tantos_b,
                result.tantos_a,
            ),
        )
        for team, t, opponent, chicos_for, chicos_against, tantos_for, tantos_against in sides:
            t.played += 1
            t.points += scheme.points(result, team)
            if result.winner == team:
                t.wins += 1
            elif result.winner is None and not result.walkover:
                t.draws += 1
            else:
                t.losses += 1
            t.chicos_for += chicos_for
            t.chicos_against += chicos_against
            t.tantos_for += tantos_for
            t.tantos_against += tantos_against
            t.opponents.append(opponent)
    return Table(team_list, result_list, totals, scheme, ByeBuchholz(bye_buchholz), seed)


def standings(
    teams: Iterable[TeamId],
    results: Iterable[MatchResult],
    *,
    chain: Sequence[str] = DEFAULT_CHAIN,
    seed: int | str | None = None,
    scheme: PointsScheme | None = None,
    bye_buchholz: ByeBuchholz = ByeBuchholz.OWN,
) -> list[StandingRow]:
    """The standings of one stage or group, best first.

    Teams tied on the whole chain share a rank (1, 1, 3) and are listed in id order; a
    chain ending in ``lots`` never ties. ``seed`` (the championship's) seeds the lots.

    >>> rows = standings(
    ...     ["A", "B", "C"],
    ...     [MatchResult("A", "B", "A", 2, 1, 55, 40), MatchResult("B", "C", "B", 2, 0, 60, 20),
    ...      MatchResult("C", "A", "C", 2, 1, 58, 50)],
    ...     chain=["points", "chico_diff"],
    ... )
    >>> [(r.rank, r.team, r.metrics["points"], r.metrics["chico_diff"]) for r in rows]
    [(1, 'B', 1, 1), (2, 'A', 1, 0), (3, 'C', 1, -1)]
    """
    classes = check_chain(chain)
    table = build_table(teams, results, scheme=scheme, bye_buchholz=bye_buchholz, seed=seed)
    metrics: dict[TeamId, dict[str, Number | None]] = {t: {} for t in table.teams}
    for cls in classes:
        if not cls.per_tie:
            for team, value in cls().metric(table, table.teams).items():
                metrics[team][cls.key] = value
        else:
            for team in table.teams:
                metrics[team][cls.key] = None

    groups: list[list[TeamId]] = [canonical_order(table.teams)]
    for cls in classes:
        tiebreak = cls()
        split: list[list[TeamId]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            values = tiebreak.metric(table, group)
            if cls.per_tie:
                for team, value in values.items():
                    metrics[team][cls.key] = value
            sign = -1 if cls.higher_is_better else 1
            ordered = sorted(group, key=lambda t: sign * values[t])  # stable: id order
            current = [ordered[0]]
            for team in ordered[1:]:
                if values[team] == values[current[0]]:
                    current.append(team)
                else:
                    split.append(current)
                    current = [team]
            split.append(current)
        groups = split

    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for team in group:
            rows.append(StandingRow(team, rank, len(rows) + 1, metrics[team], table.totals[team]))
    return rows


def deciders(metrics: Sequence[dict[str, Any]], chain: Sequence[str]) -> set[str]:
    """The tie-breaks of ``chain`` that separated two neighbours of ``metrics`` (rows'
    tie-break values, best first): for each pair, the first key on which they differ.
    A column a page shows only "when it decided something" (the lots) asks this.

    >>> sorted(deciders([{"points": 2, "lots": 2}, {"points": 2, "lots": 1},
    ...                  {"points": 1, "lots": 3}], ["points", "lots"]))
    ['lots', 'points']
    >>> deciders([{"points": 2, "lots": 2}, {"points": 1, "lots": 1}], ["points", "lots"])
    {'points'}
    """
    found: set[str] = set()
    for upper, lower in itertools.pairwise(metrics):
        for key in chain:
            if upper.get(key) != lower.get(key):
                found.add(key)
                break
    return found
