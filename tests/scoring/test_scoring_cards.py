"""Cards, hierarchies, envido and flor values (docs/rules.md "Cards", "Envido", "Flor")."""

from __future__ import annotations

from itertools import pairwise

import pytest

from scoring.cards import (
    CATALAN_48,
    SPANISH_40,
    envido_points,
    flor_points,
    parse_card,
    strength,
)
from scoring.errors import CardError


def cards(text: str):
    return [parse_card(c) for c in text.split()]


# docs/rules.md "Cards", seeds 001 and 003: strongest first, "=" joins equal cards.
TRADITIONAL = "1E 1B 7E 7O 3E=3B=3O=3C 2E=2B=2O=2C 1O=1C 12E=12B=12O=12C 11E=11B=11O=11C "
TRADITIONAL += "10E=10B=10O=10C 7C=7B 6E=6B=6O=6C 5E=5B=5O=5C 4E=4B=4O=4C"
# Seed 002 (and the 11s between 12 and 10, docs/rules.md): 10O, then by rank, suit irrelevant.
CATALAN = "10O 3E=3B=3O=3C 2E=2B=2O=2C 1E=1B=1O=1C 12E=12B=12O=12C 11E=11B=11O=11C "
CATALAN += "10E=10B=10C 9E=9B=9O=9C 8E=8B=8O=8C 7E=7B=7O=7C 6E=6B=6O=6C 5E=5B=5O=5C 4E=4B=4O=4C"


def _groups(spec: str):
    return [[parse_card(c) for c in group.split("=")] for group in spec.split()]


@pytest.mark.parametrize(
    ("hierarchy", "spec"),
    [
        ("traditional", TRADITIONAL),  # 001, 003
        ("inverse", " ".join(reversed(TRADITIONAL.split()))),  # 004: exactly the reverse
        ("catalan", CATALAN),  # 002
    ],
)
def test_card_order_per_hierarchy(hierarchy, spec):
    groups = _groups(spec)
    for stronger, weaker in pairwise(groups):
        assert strength(stronger[0], hierarchy) > strength(weaker[0], hierarchy)
    for group in groups:
        assert len({strength(c, hierarchy) for c in group}) == 1, group
    deck = CATALAN_48 if hierarchy == "catalan" else SPANISH_40
    assert sum(len(g) for g in groups) == len(deck)


def test_decks():
    assert len(SPANISH_40) == 40 and len(CATALAN_48) == 48
    assert parse_card("9O") in CATALAN_48
    with pytest.raises(CardError) as info:
        parse_card("8E", SPANISH_40)
    assert info.value.code == "bad_card"


@pytest.mark.parametrize("text", ["13E", "0B", "7X", "E7", "", "7 E", "1.5E"])
def test_cards_that_do_not_exist(text):
    with pytest.raises(CardError):
        parse_card(text)


@pytest.mark.parametrize(
    ("hand", "value", "source"),
    [
        ("7E 6E 1O", 33, "docs/hand-record.md envido example; 001 max 33"),
        ("3E 1E 7C", 24, "001: 7 de copas loses to 3 and 1 of espadas"),
        ("10B 11B 4O", 20, "001: two figures of one suit are 20"),
        ("12C 11O 10B", 0, "003: three figures of different suits"),
        ("7C 5O 2B", 7, "no pair: the highest card"),
        ("7E 12E 4E", 31, "three of a suit, no flor in play: best two + 20 (004)"),
        ("5E 6E 7E", 33, "three of a suit: 6 + 7 + 20"),
        ("1E 2O", 2, "fewer cards (a played hand): highest single"),
    ],
)
def test_envido_values(hand, value, source):
    assert envido_points(cards(hand)) == value, source


@pytest.mark.parametrize(
    ("hand", "value"),
    [("5E 6E 7E", 38), ("10C 11C 12C", 20), ("1B 2B 3B", 26), ("7O 12O 4O", 31)],
)
def test_flor_values(hand, value):
    # docs/rules.md "Flor", 003: the three values + 20, figures 0, max 38, min 20.
    assert flor_points(cards(hand)) == value


def test_not_a_flor():
    with pytest.raises(CardError) as info:
        flor_points(cards("5E 6E 7O"))
    assert info.value.code == "not_a_flor"
