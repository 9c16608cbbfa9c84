"""The words of a championship's game, in whatever language the page is read.

A Catalan championship speaks of *jocs*, *partides*, *donades*, *males/bones* and its
*cap de colla* (seed ``002``) in Spanish and English too, the way an Argentine one says
*chico*, *baza* and *malas/buenas* in Catalan and English: these are the game's names,
not things to translate away. The phases of a score (``scoring.phase``) are named here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import pgettext_lazy

from tournaments.models import Championship


@dataclass(frozen=True)
class Words:
    """The game's nouns for one championship (lazy strings: translated when shown)."""

    game: str
    games: str
    match: str
    trick: str
    tricks: str
    captain: str
    phases: dict[str, str]


CATALAN = Words(
    game=pgettext_lazy("catalan truc", "joc"),
    games=pgettext_lazy("catalan truc", "jocs"),
    match=pgettext_lazy("catalan truc", "partida"),
    trick=pgettext_lazy("catalan truc", "donada"),
    tricks=pgettext_lazy("catalan truc", "donades"),
    captain=pgettext_lazy("catalan truc", "cap de colla"),
    phases={
        "malas": pgettext_lazy("catalan truc", "males"),
        "buenas": pgettext_lazy("catalan truc", "bones"),
        "mestre": pgettext_lazy("catalan truc", "mestre"),
    },
)
ARGENTINE = Words(
    game=pgettext_lazy("argentine truco", "chico"),
    games=pgettext_lazy("argentine truco", "chicos"),
    match=pgettext_lazy("argentine truco", "partida"),
    trick=pgettext_lazy("argentine truco", "baza"),
    tricks=pgettext_lazy("argentine truco", "bazas"),
    captain=pgettext_lazy("argentine truco", "captain"),
    phases={
        "malas": pgettext_lazy("argentine truco", "malas"),
        "buenas": pgettext_lazy("argentine truco", "buenas"),
        "mestre": pgettext_lazy("argentine truco", "mestre"),
    },
)


def words(championship: Championship) -> Words:
    """The words of ``championship``'s game (Catalan truc or the Argentine family)."""
    return CATALAN if championship.is_catalan else ARGENTINE
