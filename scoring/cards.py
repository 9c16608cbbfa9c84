"""Cards, decks, the three trick hierarchies, and envido and flor values.

docs/rules.md "Cards" (seeds ``001``, ``003``, ``004`` for the Spanish orders, ``002`` for the
Catalan one) and "Envido" / "Flor" for the values. A card is written rank then suit:
``1E``, ``7O``, ``12C``; suits espadas ``E``, bastos ``B``, oros ``O``, copas ``C``.

>>> parse_card("7E")
Card(rank=7, suit='E')
>>> str(parse_card("12c"))
'12C'
>>> envido_points([parse_card(c) for c in ("7E", "6E", "1O")])
33
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import error

__all__ = [
    "CATALAN_48",
    "HIERARCHIES",
    "SPANISH_40",
    "SUITS",
    "Card",
    "envido_points",
    "flor_points",
    "has_flor",
    "parse_card",
    "strength",
]

SUITS = ("E", "B", "O", "C")
_INTERNED: dict[tuple[int, str], Card] = {}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: ``rank`` 1–12 and ``suit`` one of ``E B O C``.

    There is one object per card (``Card(7, "E") is parse_card("7E")``, copies and pickles
    included), so equality and hashing are identity's, done in C: cards are looked up in
    sets and dicts at every play, and a generated ``__hash__`` was a hot spot.

    >>> Card(7, "E") is parse_card("7e"), Card(7, "E") == Card(7, "O")
    (True, False)
    """

    rank: int
    suit: str

    def __new__(cls, rank: int, suit: str) -> Card:
        card = _INTERNED.get((rank, suit))
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            _INTERNED[(rank, suit)] = card
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return Card, (self.rank, self.suit)  # copies and pickles are the one card too

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    @property
    def envido_value(self) -> int:
        """The card's value for envido and flor: its rank, figures (10–12) count 0."""
        return self.rank if self.rank <= 7 else 0


_ALL = {f"{rank}{suit}": Card(rank, suit) for rank in range(1, 13) for suit in SUITS}
# Spanish 40: no 8s and 9s (docs/rules.md "Cards"); Catalan 48 ("Ducale", seed 002) has them.
SPANISH_40 = frozenset(c for c in _ALL.values() if c.rank not in (8, 9))
CATALAN_48 = frozenset(_ALL.values())
_DECK_NAMES = {SPANISH_40: "Spanish 40", CATALAN_48: "Catalan 48"}
# Each deck's cards by the texts that name them ("7E", "7e"): one lookup on the hot path.
CARD_TEXTS: dict[frozenset[Card], dict[str, Card]] = {
    deck: {
        text: card
        for card in deck
        for text in (f"{card.rank}{card.suit}", f"{card.rank}{card.suit.lower()}")
    }
    for deck in (SPANISH_40, CATALAN_48)
}


def parse_card(text: str, deck: frozenset[Card] = CATALAN_48) -> Card:
    """Parse ``"7E"`` into a :class:`Card` of ``deck``; anything else is a ``bad_card`` error.

    >>> parse_card("9O", SPANISH_40)
    Traceback (most recent call last):
    ...
    scoring.errors.CardError: '9O' is not a card of the Spanish 40 deck.
    """
    if type(text) is str:
        texts = CARD_TEXTS.get(deck)
        if texts is not None:
            card = texts.get(text)
            if card is not None:
                return card
    card = _ALL.get(text.upper()) if isinstance(text, str) else None
    if card is None or card not in deck:
        raise error("bad_card", card=text, deck=_DECK_NAMES.get(deck, "given"))
    return card


def _ranking(groups: Sequence[Iterable[Card]]) -> dict[Card, int]:
    """Strength table from groups listed strongest first (cards of one group are equal)."""
    table: dict[Card, int] = {}
    for position, group in enumerate(groups):
        for card in group:
            table[card] = len(groups) - position
    return table


def _ranks(*ranks: int, exclude: Iterable[str] = ()) -> list[Card]:
    skip = set(exclude)
    return [_ALL[f"{r}{s}"] for r in ranks for s in SUITS if f"{r}{s}" not in skip]


# Argentine order, strongest first (001, 003): 1E, 1B, 7E, 7O, 3s, 2s, false 1s, 12s, 11s,
# 10s, false 7s, 6s, 5s, 4s.
_TRADITIONAL = [
    [_ALL["1E"]],
    [_ALL["1B"]],
    [_ALL["7E"]],
    [_ALL["7O"]],
    _ranks(3),
    _ranks(2),
    [_ALL["1O"], _ALL["1C"]],
    _ranks(12),
    _ranks(11),
    _ranks(10),
    [_ALL["7C"], _ALL["7B"]],
    _ranks(6),
    _ranks(5),
    _ranks(4),
]
# Catalan order (002): 10 of oros, then 3s, 2s, 1s, 12s, 11s, 10s, 9s ... 4s, suit irrelevant.
_CATALAN = [
    [_ALL["10O"]],
    _ranks(3),
    _ranks(2),
    _ranks(1),
    _ranks(12),
    _ranks(11),
    _ranks(10, exclude=["10O"]),
    *[_ranks(r) for r in (9, 8, 7, 6, 5, 4)],
]

HIERARCHIES: dict[str, dict[Card, int]] = {
    "traditional": _ranking(_TRADITIONAL),
    # Trucardo's "jerarquía alternativa" (004): exactly the reverse order.
    "inverse": _ranking(_TRADITIONAL[::-1]),
    "catalan": _ranking(_CATALAN),
}


def strength(card: Card, hierarchy: str = "traditional") -> int:
    """How strong ``card`` is in ``hierarchy`` (higher wins a trick; equal is a parda).

    >>> strength(parse_card("1E")) > strength(parse_card("1B")) > strength(parse_card("7E"))
    True
    >>> strength(parse_card("1O")) == strength(parse_card("1C"))
    True
    >>> strength(parse_card("4C"), "inverse") > strength(parse_card("1E"), "inverse")
    True
    >>> strength(parse_card("10O"), "catalan") > strength(parse_card("3E"), "catalan")
    True
    """
    return HIERARCHIES[hierarchy][card]


def envido_points(cards: Sequence[Card]) -> int:
    """Envido value of a hand (docs/rules.md "Envido"; seeds ``001``, ``003``).

    Two cards of one suit: their values + 20; otherwise the highest single value; figures
    count 0; three of one suit: the best two + 20. The maximum is 33.

    >>> envido_points([parse_card(c) for c in ("10E", "11E", "4O")])
    20
    >>> envido_points([parse_card(c) for c in ("7C", "3E", "1E")])
    24
    >>> envido_points([parse_card(c) for c in ("12C", "11O", "10B")])
    0
    """
    best = 0
    by_suit: dict[str, list[int]] = {}
    for card in cards:
        value = card.envido_value
        best = max(best, value)
        by_suit.setdefault(card.suit, []).append(value)
    for values in by_suit.values():
        if len(values) >= 2:
            values.sort(reverse=True)
            best = max(best, 20 + values[0] + values[1])
    return best


def has_flor(cards: Sequence[Card]) -> bool:
    """Three cards of one suit (docs/rules.md "Flor").

    >>> has_flor([parse_card(c) for c in ("5E", "6E", "12E")])
    True
    """
    return len(cards) == 3 and len({c.suit for c in cards}) == 1


def flor_points(cards: Sequence[Card]) -> int:
    """Flor value: the three values + 20, figures 0; at most 38 (docs/rules.md "Flor", ``003``).

    >>> flor_points([parse_card(c) for c in ("5E", "6E", "7E")])
    38
    >>> flor_points([parse_card(c) for c in ("5E", "6E", "7O")])
    Traceback (most recent call last):
    ...
    scoring.errors.CardError: 5E 6E 7O is not a flor: a flor is three cards of one suit.
    """
    if not has_flor(cards):
        raise error("not_a_flor", cards=" ".join(map(str, cards)))
    return 20 + sum(c.envido_value for c in cards)
