"""The state of one hand, shared by the rule modules and the state machine in ``hand.py``.

A :class:`HandState` is only ever changed by :func:`scoring.hand.apply` (on a private copy)
or by the record scorer on its own private state; everyone else treats it as a value.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from scoring.cards import Card
from scoring.rules import RuleSet

__all__ = ["HandState"]

QUICK = "quick"
DETAILED = "detailed"


@dataclass(slots=True)
class HandState:
    """Everything known about a hand so far. Build one with :func:`scoring.hand.new_hand`."""

    # -- the table (never changed once the hand starts)
    rules: RuleSet
    sides: tuple[str, str]
    order: tuple[str, ...]  # playing order, the hand's mano first
    team: dict[str, str]  # player -> side
    captains: dict[str, str]  # side -> cap de colla (catalan)
    score: dict[str, int]  # sides' points before the hand (11–11 already back to 6–6)
    cards: dict[str, tuple[Card, ...]]  # known hands, possibly for some players only
    pica_pica: bool = False
    gallo: str | None = None

    # -- progress
    step: int = 0  # index of the next event
    mode: str | None = None  # QUICK (trick events) or DETAILED (card plays)
    tricks: list[str] = field(default_factory=list)  # each finished trick: side or "parda"
    table: list[tuple[str, Card]] = field(default_factory=list)  # trick in progress
    leader: str = ""  # who leads the trick in progress (detailed entry)
    played: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    used: set[Card] = field(default_factory=set)
    last_player: str | None = None  # who played the last card (may still call, seed 000)
    folded: set[str] = field(default_factory=set)

    # -- truco ladder (truco.py)
    truco_level: int = 0  # steps accepted
    truco_pending: int = 0  # step awaiting an answer (0: none)
    truco_caller: str | None = None  # side of the pending step
    truco_owner: str | None = None  # side that accepted the last step: only it may raise
    truco_calls: list[str] = field(default_factory=list)

    # -- envido (envido.py)
    envido_calls: list[str] = field(default_factory=list)
    envido_callers: list[str] = field(default_factory=list)
    envido_status: str | None = None  # pending, accepted, refused, cancelled
    envido_start: int = 0
    envido_at: int = 0  # event that settled the envido so far (answer, fold, settlement)
    envido_declared: dict[str, int] = field(default_factory=dict)
    envido_winner: str | None = None

    # -- flor (flor.py)
    flores: list[str] = field(default_factory=list)  # players who sang, in order
    flor_calls: list[str] = field(default_factory=list)
    flor_level: int = 0  # 0 plain flores, 1 contraflor, 2 contraflor al resto
    flor_pending: bool = False
    flor_caller: str | None = None  # side of the last flor bet
    flor_outcome: str | None = None  # achico, accepted, refused
    flor_start: int = 0
    flor_at: int = 0  # event that settled the flor so far (call, answer, fold, settlement)
    flor_declared: dict[str, int] = field(default_factory=dict)
    flor_winner: str | None = None

    # -- catalan rule of 11 (catalan.py)
    mestre: str | None = None  # the side at 11 while the other is below
    mestre_decision: str | None = None

    # -- end of the hand
    decided: str | None = None  # tricks, refused, mazo, mestre_pass, void, redeal
    winner: str | None = None  # side that takes the hand item
    hand_points: int = 0
    decided_at: int = 0
    penalties: list[tuple[int, str, int, str]] = field(default_factory=list)
    void_reason: str = ""

    # -- helpers ---------------------------------------------------------------------
    def other(self, side: str) -> str:
        """The opposing side."""
        a, b = self.sides
        return b if side == a else a

    def active(self, side: str) -> list[str]:
        """Players of ``side`` who have not gone to the mazo, in playing order."""
        return [p for p in self.order if self.team[p] == side and p not in self.folded]

    @property
    def mano_side(self) -> str:
        return self.team[self.order[0]]

    def to_play(self) -> str | None:
        """Detailed entry: who must play the next card (None when nobody, or quick entry)."""
        if self.decided is not None or self.mode == QUICK:
            return None
        order = self.order
        n = len(order)
        start = order.index(self.leader) if self.leader else 0
        if not self.folded:
            # Everyone is in: the trick's cards were played in turn from its leader.
            played = len(self.table)
            return order[(start + played) % n] if played < n else None
        done = {p for p, _ in self.table}
        for i in range(n):
            player = order[(start + i) % n]
            if player not in done and player not in self.folded:
                return player
        return None

    def copy(self) -> HandState:
        """A private copy: containers are copied, cards and the rule set are shared."""
        new = copy.copy(self)
        for name in _MUTABLE:
            setattr(new, name, copy.copy(getattr(self, name)))
        return new


_MUTABLE = (
    "tricks",
    "table",
    "played",
    "used",
    "folded",
    "truco_calls",
    "envido_calls",
    "envido_callers",
    "envido_declared",
    "flores",
    "flor_calls",
    "flor_declared",
    "penalties",
)
