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

# The rating chart's drawing, in SVG units: the plot, with room on the left for the
# ratings' values and below for the matches' numbers and the axis's name.
CHART_WIDTH = 320
CHART_HEIGHT = 180
PLOT_LEFT = 40
PLOT_RIGHT = 312
PLOT_TOP = 8
PLOT_BOTTOM = 142
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
class Tick:
    """A value marked on an axis, at ``at`` (x or y) along it."""

    at: float
    value: int


@dataclass(frozen=True)
class Chart:
    """A polyline of the shown rating after each match, with its axes, for an inline SVG
    (coordinates are plain numbers: the template writes them with ``localize off``): the
    ratings marked on the left (``y_ticks``), the matches' numbers below (``x_ticks``,
    0 the start)."""

    width: int
    height: int
    points: str
    baseline_y: float | None  # a newcomer's rating (1000), when in the drawn range
    low: int
    high: int
    left: int = PLOT_LEFT
    right: int = PLOT_RIGHT
    top: int = PLOT_TOP
    bottom: int = PLOT_BOTTOM
    y_ticks: list[Tick] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)

    # Where the axes' values and names are written.
    @property
    def y_value_x(self) -> int:
        return self.left - 4

    @property
    def x_value_y(self) -> int:
        return self.bottom + 13

    @property
    def x_title(self) -> tuple[float, int]:
        return ((self.left + self.right) / 2, self.height - 4)

    @property
    def y_title(self) -> tuple[int, float]:
        return (10, (self.top + self.bottom) / 2)


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


def nice_step(span: float, most: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) that cuts ``span`` into at most
    ``most`` parts.

    >>> nice_step(430, 4), nice_step(12, 6), nice_step(3, 6)
    (200, 2, 1)
    """
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            if span / (factor * magnitude) <= most:
                return factor * magnitude
        magnitude *= 10


def _ticks(low: float, high: float, most: int) -> list[int]:
    step = nice_step(max(high - low, 1), most)
    first = -(-int(low) // step) * step  # the first multiple of the step from ``low`` up
    return list(range(first, int(high) + 1, step))


def chart(history: list[Point]) -> Chart | None:
    """The shown rating after each match as a polyline (the first point is the rating
    before the first match: a newcomer's), with round ratings marked on the left and the
    matches' numbers below. None before two points can be drawn."""
    if not history:
        return None
    values = [skill.shown(skill.MU, skill.SIGMA), *(p.shown for p in history)]
    span = max(max(values) - min(values), 1)
    # Round bounds a little beyond the values, so the line never touches the frame.
    step = nice_step(span, 4)
    low = (min(values) - span // 20) // step * step
    high = -(-(max(values) + span // 20) // step) * step
    width, height = PLOT_RIGHT - PLOT_LEFT, PLOT_BOTTOM - PLOT_TOP
    last = len(values) - 1

    def x(number: float) -> float:
        return round(PLOT_LEFT + width * number / last, 1)

    def y(value: float) -> float:
        return round(PLOT_BOTTOM - height * (value - low) / (high - low), 1)

    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    return Chart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        points=points,
        baseline_y=y(skill.OFFSET) if low <= skill.OFFSET <= high else None,
        low=min(values),
        high=max(values),
        y_ticks=[Tick(y(value), value) for value in _ticks(low, high, 4)],
        x_ticks=[Tick(x(number), number) for number in _ticks(0, last, 6)],
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
