"""Single and double elimination brackets as plain data the Django side can store.

A bracket is a dict of matches. Each match has two slots and says where its winner and
its loser go (``winner_to`` / ``loser_to``: a match id and a slot), so advancing a team
is filling the next slot. A slot holds a team, waits for one, or is known to stay empty
(a bye): a match with one team and one empty slot is won by that team at once, and a
match with two empty slots sends emptiness on, so byes in the first round flow through
the losers bracket of a double elimination too.

Seeding is the standard one: in a bracket of 16, 1 v 16, 8 v 9, 5 v 12, 4 v 13, 6 v 11,
3 v 14, 7 v 10, 2 v 15, so when the favourites win 1 meets 8, then 4, then 2 in the
final. With fewer teams than the bracket size the missing seeds are the lowest, so the
byes go to the top seeds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from tournaments.formats.base import FormatError, TeamId, check_teams


class Section(StrEnum):
    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"
    RESET = "reset"
    THIRD_PLACE = "third_place"


class Outcome(StrEnum):
    PLAYED = "played"
    WALKOVER = "walkover"  # the loser did not turn up
    FORFEIT = "forfeit"  # the loser gave up or was disqualified during the match
    BYE = "bye"  # no opponent: decided by the bracket itself


@dataclass(frozen=True)
class SlotRef:
    """A place in a match: ``slot`` 0 is listed first (the better seed in round one)."""

    match: str
    slot: int


@dataclass
class BracketMatch:
    """One match of a bracket and where its winner and loser go next."""

    id: str
    section: Section
    round: int
    index: int
    sources: tuple[str, str]
    teams: list[TeamId | None] = field(default_factory=lambda: [None, None])
    empty: list[bool] = field(default_factory=lambda: [False, False])
    winner_to: SlotRef | None = None
    loser_to: SlotRef | None = None
    winner: TeamId | None = None
    outcome: Outcome | None = None

    @property
    def ready(self) -> bool:
        """Both teams are known and the match is still to be played."""
        return self.winner is None and not self.void and all(t is not None for t in self.teams)

    @property
    def void(self) -> bool:
        """Both slots stay empty: the match is never played (a reset not needed, say)."""
        return all(self.empty)

    @property
    def decided(self) -> bool:
        return self.winner is not None or self.void

    @property
    def loser(self) -> TeamId | None:
        if self.winner is None or self.outcome is Outcome.BYE:
            return None
        return self.teams[1] if self.teams[0] == self.winner else self.teams[0]


@dataclass
class Bracket:
    """A whole bracket; ``report`` records a result and advances the teams."""

    matches: dict[str, BracketMatch]
    double: bool = False
    reset: bool = False
    size: int = 0

    def __getitem__(self, match_id: str) -> BracketMatch:
        try:
            return self.matches[match_id]
        except KeyError:
            raise FormatError("unknown_match", f"there is no match {match_id}") from None

    def ready(self) -> list[BracketMatch]:
        """The matches that can be played now, in bracket order."""
        return [m for m in self.matches.values() if m.ready]

    @property
    def final(self) -> BracketMatch:
        return self.matches["GF"] if self.double else self.matches[_final_id(self)]

    @property
    def champion(self) -> TeamId | None:
        """The winner of the last match played, once the bracket is finished."""
        if self.double and self.reset:
            second = self.matches["GF2"]
            if second.winner is not None:
                return second.winner
            return self.final.winner if second.void else None
        return self.final.winner

    @property
    def finished(self) -> bool:
        """Every match is decided (the third-place match too, when there is one)."""
        return all(m.decided for m in self.matches.values())

    def report(
        self, match_id: str, winner: TeamId, *, outcome: Outcome | str = Outcome.PLAYED
    ) -> list[str]:
        """Record ``winner`` of a ready match; return the ids of every match changed.

        Raises FormatError, changing nothing, when the match is not ready or the winner is
        not one of its teams.
        """
        match = self[match_id]
        try:
            outcome = Outcome(outcome)
        except ValueError:
            raise FormatError("bad_outcome", f"unknown outcome {outcome!r}") from None
        if outcome is Outcome.BYE:
            raise FormatError("bad_outcome", "a bye is decided by the bracket, not reported")
        if match.decided:
            raise FormatError("already_decided", f"match {match_id} is already decided")
        if not match.ready:
            raise FormatError("not_ready", f"match {match_id} is still waiting for its teams")
        if winner not in match.teams:
            raise FormatError("not_in_match", f"team {winner} does not play match {match_id}")
        changed: list[str] = []
        self._decide(match, winner, outcome, changed)
        return changed

    def _decide(
        self, match: BracketMatch, winner: TeamId | None, outcome: Outcome | None, changed: list
    ) -> None:
        match.winner, match.outcome = winner, outcome
        changed.append(match.id)
        if match.section is Section.FINAL and self.reset:
            # The reset is played only when the losers-bracket champion (slot 1) wins:
            # then both have lost once. Otherwise it is void.
            lb_won = winner == match.teams[1]
            for slot in (0, 1):
                self._fill(SlotRef("GF2", slot), match.teams[1 - slot] if lb_won else None, changed)
            return
        loser = match.loser
        if match.winner_to:
            self._fill(match.winner_to, winner, changed)
        if match.loser_to:
            self._fill(match.loser_to, loser, changed)

    def _fill(self, ref: SlotRef, team: TeamId | None, changed: list) -> None:
        """Put ``team`` in a slot, or mark it empty when ``team`` is None."""
        target = self.matches[ref.match]
        target.teams[ref.slot] = team
        target.empty[ref.slot] = team is None
        if target.id not in changed:
            changed.append(target.id)
        resolved = [target.teams[s] is not None or target.empty[s] for s in (0, 1)]
        if not all(resolved):
            return
        if target.void:
            target.outcome = Outcome.BYE
            if target.winner_to:
                self._fill(target.winner_to, None, changed)
            if target.loser_to:
                self._fill(target.loser_to, None, changed)
        elif any(target.empty):
            alone = target.teams[0] if target.teams[0] is not None else target.teams[1]
            self._decide(target, alone, Outcome.BYE, changed)

    def losses(self, team: TeamId) -> int:
        """How many matches ``team`` has lost (byes are not matches)."""
        return sum(1 for m in self.matches.values() if m.loser == team)


def _final_id(bracket: Bracket) -> str:
    rounds = (bracket.size - 1).bit_length()
    return f"W{rounds}-1"


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order for a bracket of ``size`` (a power of two).

    Adjacent pairs meet in round one; the top seeds are as far apart as possible.

    >>> seed_order(8)
    [1, 8, 4, 5, 3, 6, 2, 7]
    >>> [tuple(sorted(p)) for p in zip(*[iter(seed_order(16))] * 2)][:4]
    [(1, 16), (8, 9), (5, 12), (4, 13)]
    """
    if size < 1 or size & (size - 1):
        raise FormatError("bad_size", f"a bracket size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        # Alternating the side of the new seed keeps 4 v 5 in 1's half, as is standard.
        order = [
            x
            for k, s in enumerate(order)
            for x in ((s, total - s) if k % 2 == 0 else (total - s, s))
        ]
    # The better seed of each first-round match is listed first.
    return [x for pair in zip(order[::2], order[1::2], strict=True) for x in sorted(pair)]


def bracket_size(team_count: int) -> int:
    """The smallest power of two holding ``team_count`` teams.

    >>> [bracket_size(n) for n in (2, 3, 8, 9)]
    [2, 4, 8, 16]
    """
    return 1 << max(1, (team_count - 1).bit_length())


def seeded_positions(seeds: Iterable[TeamId]) -> list[TeamId | None]:
    """Teams in bracket order from teams in seed order; None marks a bye.

    >>> seeded_positions(["a", "b", "c"])
    ['a', None, 'b', 'c']
    """
    teams = check_teams(seeds)
    return [teams[s - 1] if s <= len(teams) else None for s in seed_order(bracket_size(len(teams)))]


def single_elimination(seeds: Iterable[TeamId], *, third_place: bool = False) -> Bracket:
    """A single-elimination bracket from teams in seed order (best first).

    ``third_place`` adds a match (``P3``) between the losers of the semi-finals.

    >>> b = single_elimination(["a", "b", "c"])
    >>> b["W1-1"].outcome, b["W2-1"].teams  # the top seed has a bye
    (<Outcome.BYE: 'bye'>, ['a', None])
    >>> [(m.id, m.teams) for m in b.ready()]
    [('W1-2', ['b', 'c'])]
    >>> b.report("W1-2", "c", outcome=Outcome.WALKOVER)
    ['W1-2', 'W2-1']
    >>> b.report("W2-1", "c"), b.champion
    (['W2-1'], 'c')
    >>> b.report("W1-1", "a")
    Traceback (most recent call last):
    ...
    tournaments.formats.base.FormatError: match W1-1 is already decided
    """
    return bracket_from_positions(seeded_positions(seeds), third_place=third_place)


def double_elimination(seeds: Iterable[TeamId], *, reset: bool = True) -> Bracket:
    """A double-elimination bracket from teams in seed order (best first).

    ``reset``: when the losers-bracket champion wins the grand final, a second grand
    final (GF2) is played, since the winners-bracket champion had not lost before.
    """
    return bracket_from_positions(seeded_positions(seeds), double=True, reset=reset)


def bracket_from_positions(
    positions: Sequence[TeamId | None],
    *,
    double: bool = False,
    reset: bool = True,
    third_place: bool = False,
) -> Bracket:
    """Build a bracket from its first-round positions (None for a bye), then play the byes.

    Positions 0 and 1 meet in the first match, 2 and 3 in the second, and so on.
    """
    size = len(positions)
    if size < 2 or size & (size - 1):
        raise FormatError("bad_size", f"a bracket has a power of two positions, not {size}")
    check_teams([p for p in positions if p is not None], minimum=2)
    rounds = size.bit_length() - 1
    matches: dict[str, BracketMatch] = {}

    def add(mid: str, section: Section, rnd: int, index: int, sources: tuple[str, str]) -> None:
        matches[mid] = BracketMatch(mid, section, rnd, index, sources)

    for r in range(1, rounds + 1):
        for i in range(1, size // 2**r + 1):
            if r == 1:
                sources = (f"position {2 * i - 1}", f"position {2 * i}")
            else:
                sources = (f"winner W{r - 1}-{2 * i - 1}", f"winner W{r - 1}-{2 * i}")
            add(f"W{r}-{i}", Section.WINNERS, r, i, sources)
            if r > 1:
                matches[f"W{r - 1}-{2 * i - 1}"].winner_to = SlotRef(f"W{r}-{i}", 0)
                matches[f"W{r - 1}-{2 * i}"].winner_to = SlotRef(f"W{r}-{i}", 1)

    if third_place and not double and rounds >= 2:
        semis = (f"W{rounds - 1}-1", f"W{rounds - 1}-2")
        add("P3", Section.THIRD_PLACE, 1, 1, (f"loser {semis[0]}", f"loser {semis[1]}"))
        for slot, semi in enumerate(semis):
            matches[semi].loser_to = SlotRef("P3", slot)

    if double:
        _add_losers_bracket(matches, size, rounds, add)
        wb_final = matches[f"W{rounds}-1"]
        add("GF", Section.FINAL, 1, 1, (f"winner W{rounds}-1", "losers-bracket champion"))
        wb_final.winner_to = SlotRef("GF", 0)
        if rounds == 1:
            # Two teams: no losers bracket, the loser of the first match goes straight on.
            wb_final.loser_to = SlotRef("GF", 1)
            matches["GF"].sources = ("winner W1-1", "loser W1-1")
        else:
            matches[f"L{2 * (rounds - 1)}-1"].winner_to = SlotRef("GF", 1)
        if reset:
            add("GF2", Section.RESET, 1, 1, ("winner GF", "loser GF"))

    bracket = Bracket(matches, double=double, reset=double and reset, size=size)
    changed: list[str] = []
    for k, team in enumerate(positions):
        bracket._fill(SlotRef(f"W1-{k // 2 + 1}", k % 2), team, changed)
    return bracket


def _add_losers_bracket(matches: dict[str, BracketMatch], size: int, rounds: int, add) -> None:
    """The losers bracket of a double elimination, fed in the standard alternating way.

    Round 1 pairs the winners-bracket round-1 losers; each even round k = 2j lets the
    survivors meet the losers of winners round j + 1, who drop in reversed order on odd j
    and in order on even j, so a team rarely meets again the team that beat it; odd rounds
    after the first halve the field.
    """
    if rounds < 2:
        return
    for i in range(1, size // 4 + 1):
        add(f"L1-{i}", Section.LOSERS, 1, i, (f"loser W1-{2 * i - 1}", f"loser W1-{2 * i}"))
        matches[f"W1-{2 * i - 1}"].loser_to = SlotRef(f"L1-{i}", 0)
        matches[f"W1-{2 * i}"].loser_to = SlotRef(f"L1-{i}", 1)
    for j in range(1, rounds):
        count = size // 2 ** (j + 1)
        drop = f"L{2 * j}"
        for i in range(1, count + 1):
            feeder = count + 1 - i if j % 2 == 1 else i
            add(
                f"{drop}-{i}",
                Section.LOSERS,
                2 * j,
                i,
                (f"winner L{2 * j - 1}-{i}", f"loser W{j + 1}-{feeder}"),
            )
            matches[f"L{2 * j - 1}-{i}"].winner_to = SlotRef(f"{drop}-{i}", 0)
            matches[f"W{j + 1}-{feeder}"].loser_to = SlotRef(f"{drop}-{i}", 1)
        if j < rounds - 1:
            for i in range(1, count // 2 + 1):
                mid = f"L{2 * j + 1}-{i}"
                add(
                    mid,
                    Section.LOSERS,
                    2 * j + 1,
                    i,
                    (f"winner {drop}-{2 * i - 1}", f"winner {drop}-{2 * i}"),
                )
                matches[f"{drop}-{2 * i - 1}"].winner_to = SlotRef(mid, 0)
                matches[f"{drop}-{2 * i}"].winner_to = SlotRef(mid, 1)
