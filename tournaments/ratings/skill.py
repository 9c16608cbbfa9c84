"""The rating model: OpenSkill's Plackett-Luce with its parameters written out, the number
people see, and which family a championship is rated in.

Why Plackett-Luce (Weng and Lin 2011, algorithm 4): it is OpenSkill's reference model and
its fastest; it rates teams of any size by the sum of their players' skills, which fits
truco's sides of one, two or three; it ranks any number of teams, which fits a table of
three players (gallo), ranked by its places; and a truco match always has a winner, so
the draws the Thurstone-Mosteller models treat better never happen (only a shared
place at a table of three is a tie, and a fixed gallo's pair always shares one:
Plackett-Luce takes them as equal ranks). With two teams the Bradley-Terry models give
nearly the same numbers more slowly.

Nothing here touches the database: :func:`rate` takes numbers and gives numbers, the
services store them.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from tournaments.models import Championship, RatingFamily

MU = 25.0
"""A newcomer's skill (the prior mean)."""
SIGMA = MU / 3
"""A newcomer's uncertainty (the prior standard deviation): 8.33."""
BETA = SIGMA / 2
"""The spread of one match's performance around the skill: 4.17."""
TAU = SIGMA / 100
"""Added to every sigma before each match (its square to the variance), so that a rating
never freezes: someone who improves still moves. 0.083."""
KAPPA = 0.0001
"""The floor of the variance factor (OpenSkill's default): sigma never collapses to 0."""
Z = 3.0
"""Standard deviations taken off: the ordinal is ``mu − 3 sigma``, a skill the person
very probably has at least (a newcomer's is 0)."""
SCALE = 40
OFFSET = 1000
"""The shown rating is ``OFFSET + SCALE × ordinal``: a newcomer shows 1000, and one
point of OpenSkill's mu is 40 points, numbers a reader of chess ratings finds familiar."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU, limit_sigma=False)

MIN_MATCHES = 5
"""Rated matches a person needs to appear on a public leaderboard."""


def family_of(championship: Championship) -> str:
    """The family ``championship`` is rated in: its preset decides (``is_catalan``).

    >>> str(family_of(Championship(rules={"preset": "trucardo"})))
    'argentine'
    >>> str(family_of(Championship(rules="catalan")))
    'catalan'
    """
    return RatingFamily.CATALAN if championship.is_catalan else RatingFamily.ARGENTINE


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill, ``mu − 3 sigma``.

    >>> ordinal(MU, SIGMA)
    0.0
    """
    return mu - Z * sigma


def shown(mu: float, sigma: float) -> int:
    """The rating people see: the ordinal on the scale of :data:`SCALE` and
    :data:`OFFSET`, rounded.

    >>> shown(MU, SIGMA)
    1000
    >>> shown(30.0, 2.0)
    1960
    """
    return round(OFFSET + SCALE * ordinal(mu, sigma))


def shown_sigma(sigma: float) -> int:
    """The uncertainty people see: sigma on the same scale (a newcomer's is 333).

    >>> shown_sigma(SIGMA)
    333
    """
    return round(SCALE * sigma)


def rate(
    sides: Sequence[Sequence[tuple[float, float]]], places: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """The ``(mu, sigma)`` of each player of each side after their match, from those
    before it: OpenSkill's ``rate`` with the sides' places as its ranks (a two-sided
    match: the winners 1, the losers 2; a table of three: its places, a shared place a
    tie).

    >>> (w,), (l,) = rate([[(MU, SIGMA)], [(MU, SIGMA)]], [1, 2])
    >>> round(w[0], 3), round(l[0], 3), round(w[1], 3)
    (27.635, 22.365, 8.066)
    >>> [round(side[0][0], 3) for side in rate([[(MU, SIGMA)]] * 3, [1, 2, 3])]
    [27.869, 25.717, 21.414]
    >>> [round(side[0][0], 3) for side in rate([[(MU, SIGMA)]] * 3, [1, 2, 2])]
    [27.869, 23.565, 23.565]
    """
    teams = [[PlackettLuceRating(mu, sigma) for mu, sigma in side] for side in sides]
    after = MODEL.rate(teams, ranks=list(places))
    return [[(r.mu, r.sigma) for r in team] for team in after]
