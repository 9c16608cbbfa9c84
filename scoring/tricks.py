"""Tricks (bazas, donades): who takes a trick, who leads next, who takes the hand.

docs/rules.md "Tricks" (seeds ``000``, ``001``, ``003``, ``004``; ``002`` for the catalan
*podrides*).

>>> hand_result(["A", "parda"], mano_side="B", redeal_on_three_pardas=False)
'A'
>>> hand_result(["parda", "parda", "parda"], mano_side="B", redeal_on_three_pardas=True)
'redeal'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.cards import HIERARCHIES, Card

__all__ = ["PARDA", "REDEAL", "hand_result", "trick_result"]

PARDA = "parda"
REDEAL = "redeal"


def trick_result(
    plays: Sequence[tuple[str, Card]], team: Mapping[str, str], hierarchy: str
) -> tuple[str, str | None]:
    """``(winner side or "parda", player who leads the next trick or None to keep the lead)``.

    The highest card wins; tied between the two sides it is a parda; tied within one side,
    that side wins and the first of them to have played it leads (docs/rules.md "Tricks").

    >>> from scoring.cards import parse_card as c
    >>> team = {"ana": "A", "beto": "B", "alba": "A", "bruno": "B"}
    >>> trick_result([("ana", c("3E")), ("beto", c("3O"))], team, "traditional")
    ('parda', None)
    >>> trick_result([("ana", c("3E")), ("beto", c("4O")), ("alba", c("3C"))], team,
    ...              "traditional")
    ('A', 'ana')
    """
    best = -1
    winners: list[str] = []
    ranks = HIERARCHIES[hierarchy]
    for player, card in plays:
        value = ranks[card]
        if value > best:
            best, winners = value, [player]
        elif value == best:
            winners.append(player)
    sides = {team[p] for p in winners}
    if len(sides) > 1:
        return PARDA, None
    return team[winners[0]], winners[0]


def hand_result(
    tricks: Sequence[str], *, mano_side: str, redeal_on_three_pardas: bool
) -> str | None:
    """The side that takes the hand on these tricks, ``"redeal"``, or None if undecided.

    Two tricks win. Once any trick is parda, the side that won the earliest non-parda trick
    wins as soon as there is one (win–lose–parda goes to the first trick's winner,
    parda–win to the second's). Three pardas: the mano's side (argentine, ``000``, ``001``,
    ``004``) or a redeal (catalan *podrides*, ``002``).

    >>> hand_result(["B", "A", "A"], mano_side="A", redeal_on_three_pardas=False)
    'A'
    >>> hand_result(["B", "A"], mano_side="A", redeal_on_three_pardas=False) is None
    True
    >>> hand_result(["parda", "parda", "parda"], mano_side="A", redeal_on_three_pardas=False)
    'A'
    """
    wins: dict[str, int] = {}
    first = None
    parda = False
    for result in tricks:
        if result == PARDA:
            parda = True
            continue
        if first is None:
            first = result
        wins[result] = wins.get(result, 0) + 1
        if wins[result] == 2:
            return result
    if parda and first is not None:
        return first
    if len(tricks) == 3:
        return REDEAL if redeal_on_three_pardas else mano_side
    return None
