"""Reads of ratings: a person's ratings with their history and chart, the leaderboards.

What people see is the shown rating (``skill.shown``: 1000 + 40 × (mu − 3 sigma)) with
its uncertainty (40 × sigma); mu and sigma themselves go to the API. Names are public
names (``Person.public_name``); nothing here reads contact data or licences.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from tournaments.models import Person, Rating, RatingChange, RatingFamily
from tournaments.ratings import skill

CHART_WIDTH = 320
CHART_HEIGHT = 120
LEADERBOARD_SIZE = 100


@dataclass(frozen=True)
class Point:
    """A person's rating after one rated match: how he fared in it (``won``; ``place``
    among ``sides``: 1 or 2 of 2, or his place at a table of three, 1 to 3 of 3, a shared
    place repeated) and his rating after it."""

    number: int
    match_id: int
    decided_at: datetime.datetime
    won: bool
    place: int
    sides: int
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return skill.shown(self.mu, self.sigma)

    @property
    def shown_sigma(self) -> int:
        return skill.shown_sigma(self.sigma)


@dataclass(frozen=True)
class Chart:
    """A polyline of the shown rating after each match, for an inline SVG (coordinates are
    plain numbers: the template writes them with ``localize off``)."""

    width: int
    height: int
    points: str
    baseline_y: float  # a newcomer's rating (1000), when in the drawn range
    low: int
    high: int


@dataclass
class FamilyRating:
    """A person's rating in one family: now, and after each of his rated matches."""

    family: str
    label: str
    mu: float
    sigma: float
    matches: int
    last_at: datetime.datetime | None
    history: list[Point] = field(default_factory=list)

    @property
    def shown(self) -> int:
        return skill.shown(self.mu, self.sigma)

    @property
    def shown_sigma(self) -> int:
        return skill.shown_sigma(self.sigma)

    @property
    def ordinal(self) -> float:
        return skill.ordinal(self.mu, self.sigma)

    @property
    def listed(self) -> bool:
        """Whether he has played enough rated matches to appear on the leaderboard."""
        return self.matches >= skill.MIN_MATCHES

    @property
    def chart(self) -> Chart | None:
        return chart(self.history)


def person_ratings(*, person_id: int) -> list[FamilyRating]:
    """A person's ratings, one per family he was rated in, each with its history (oldest
    first). Two queries."""
    labels = dict(RatingFamily.choices)
    found = {
        r.family: FamilyRating(
            family=r.family,
            label=str(labels.get(r.family, r.family)),
            mu=r.mu,
            sigma=r.sigma,
            matches=r.matches,
            last_at=r.last_at,
        )
        for r in Rating.objects.filter(person_id=person_id).order_by("family")
    }
    if not found:
        return []
    changes = RatingChange.objects.filter(person_id=person_id).order_by(
        "family", "decided_at", "match_id"
    )
    # The match's third team tells a table of three (joined: still one query).
    for family, number, match_id, at, won, place, third, mu, sigma in changes.values_list(
        "family",
        "number",
        "match_id",
        "decided_at",
        "won",
        "place",
        "match__team_c_id",
        "mu_after",
        "sigma_after",
    ):
        if family in found:
            found[family].history.append(
                Point(
                    number=number,
                    match_id=match_id,
                    decided_at=at,
                    won=won,
                    place=place,
                    sides=2 if third is None else 3,
                    mu=mu,
                    sigma=sigma,
                )
            )
    return [found[key] for key in RatingFamily.values if key in found]


def chart(history: list[Point]) -> Chart | None:
    """The shown rating after each match as a polyline (the first point is the rating
    before the first match: a newcomer's). None before two points can be drawn."""
    if not history:
        return None
    values = [skill.shown(skill.MU, skill.SIGMA), *(p.shown for p in history)]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = CHART_WIDTH / (len(values) - 1)

    def y(value: int) -> float:
        # A margin of 5 % above and below, so the line never touches the frame.
        return round(CHART_HEIGHT * (0.95 - 0.9 * (value - low) / span), 1)

    points = " ".join(f"{round(i * step, 1)},{y(v)}" for i, v in enumerate(values))
    return Chart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        points=points,
        baseline_y=y(skill.OFFSET),
        low=low,
        high=high,
    )


@dataclass(frozen=True)
class Line:
    """A place on a leaderboard."""

    rank: int
    person: Person
    mu: float
    sigma: float
    matches: int
    last_at: datetime.datetime | None

    @property
    def name(self) -> str:
        return self.person.public_name

    @property
    def shown(self) -> int:
        return skill.shown(self.mu, self.sigma)

    @property
    def shown_sigma(self) -> int:
        return skill.shown_sigma(self.sigma)


def leaderboard(
    *, family: str, min_matches: int = skill.MIN_MATCHES, limit: int | None = LEADERBOARD_SIZE
) -> list[Line]:
    """The family's rated people with at least ``min_matches`` rated matches, best
    conservative rating (ordinal) first; ties by more matches, then by person. One query."""
    rows = (
        Rating.objects.filter(family=family, matches__gte=min_matches)
        .select_related("person")
        .only(
            "mu",
            "sigma",
            "matches",
            "last_at",
            "person__name",
            "person__club",
            "person__initial_only",
        )
        .order_by("-ordinal", "-matches", "person_id")
    )
    if limit is not None:
        rows = rows[:limit]
    return [
        Line(
            rank=rank,
            person=r.person,
            mu=r.mu,
            sigma=r.sigma,
            matches=r.matches,
            last_at=r.last_at,
        )
        for rank, r in enumerate(rows, start=1)
    ]


def family_label(family: str) -> str | None:
    """The family's name for people, or None for an unknown family."""
    return dict(RatingFamily.choices).get(family)
