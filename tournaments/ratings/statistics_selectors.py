"""Statistics from the hands, read (the writes are in ``statistics``): a championship's, a
team's and a person's, summed by SQL over the rows kept with each hand.

Nothing is replayed or scored here: every number is a ``Sum`` or a ``Count`` over
``HandSideStat`` (a side in a hand) and ``HandPlayerStat`` (a player in a hand, beside
his side's row). A team's and a championship's numbers are its sides'; a person's are his
side's points and outcomes in the hands he played, and his own calls, answers, flores and
mazos, summed per rules family (Argentine and Catalan hands are never added together).
A fixed number of queries whatever the number of hands (pinned by the tests).

Which of the numbers a game has at all is the engine's to say (``scoring.fact_items``: no
envido in catalan, no flor where it is not played): :func:`rules_items`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from scoring import RuleSet, fact_items
from tournaments.championships.selectors import rules_spec
from tournaments.models import (
    Championship,
    HandPlayerStat,
    HandSideStat,
    Match,
    Person,
    RatingFamily,
    Team,
    public_name,
)
from tournaments.people.history import public_championships
from tournaments.ratings.skill import family_of

# The points a side made, by source: the bars of the chart, the CSV's columns.
SOURCES = (
    "envido_points",
    "flor_points",
    "truco_points_0",
    "truco_points_1",
    "truco_points_2",
    "truco_points_3",
    "mazo_points",
    "penalty_points",
    "mestre_points",
)
# Counted on the side's row for a team; a person's own on his row (``PLAYER_OWN``).
OUTCOMES = ("envido_played", "envido_won", "penalties")
SIDE_ACTS = (
    "envido_accepted",
    "envido_refused",
    "truco_calls",
    "truco_accepted",
    "truco_refused",
    "truco_raised",
    "truco_answers",
    "flor_sung",
)
# A person's own acts: his row's field for each of the totals'.
PLAYER_OWN = {name: name for name in SIDE_ACTS} | {"envido_called": "envido_calls", "mazos": "mazo"}


@dataclass
class Totals:
    """The statistics of a team, a person or a championship (see the module)."""

    hands: int = 0
    points: int = 0
    envido_points: int = 0
    flor_points: int = 0
    truco_points_0: int = 0
    truco_points_1: int = 0
    truco_points_2: int = 0
    truco_points_3: int = 0
    mazo_points: int = 0
    penalty_points: int = 0
    mestre_points: int = 0
    envido_called: int = 0
    envido_accepted: int = 0
    envido_refused: int = 0
    envido_played: int = 0
    envido_won: int = 0
    truco_calls: int = 0
    truco_accepted: int = 0
    truco_refused: int = 0
    truco_raised: int = 0
    truco_answers: int = 0
    flor_sung: int = 0
    mazos: int = 0
    penalties: int = 0
    chicos_won: int = 0
    comebacks: int = 0

    @classmethod
    def of(cls, row: dict[str, Any]) -> Totals:
        return cls(**{f.name: row.get(f.name) or 0 for f in fields(cls)})

    def __add__(self, other: Totals) -> Totals:
        return Totals(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    @property
    def truco_points(self) -> int:
        return self.truco_points_0 + self.truco_points_1 + self.truco_points_2 + self.truco_points_3

    @property
    def points_per_hand(self) -> float:
        """Points made per hand played, to one decimal (0 before the first hand)."""
        return round(self.points / self.hands, 1) if self.hands else 0.0

    @property
    def sources(self) -> list[tuple[str, int]]:
        return [(name, getattr(self, name)) for name in SOURCES]


def _side_sums(prefix: str = "", hands: Any = None, only: Q | None = None) -> dict[str, Any]:
    """Aggregates of side rows (through ``prefix``, from a player's row); ``only``: the
    rows the sums read (the chicos won are each side's own, read from every row)."""
    sums: dict[str, Any] = {
        "hands": hands if hands is not None else Count("pk"),
        "points": Sum(prefix + "points", filter=only),
        **{name: Sum(prefix + name, filter=only) for name in (*SOURCES, *OUTCOMES)},
        "chicos_won": Count("pk", filter=Q(**{prefix + "chico_won": True})),
        "comebacks": Count("pk", filter=Q(**{prefix + "comeback": True})),
    }
    return sums


def _team_sums(only: Q | None = None) -> dict[str, Any]:
    return (
        _side_sums(only=only)
        | {name: Sum(name, filter=only) for name in SIDE_ACTS}
        | {
            "envido_called": Sum("envido_called", filter=only),
            "mazos": Sum("mazos", filter=only),
        }
    )


def _person_sums() -> dict[str, Any]:
    return _side_sums("side_stat__") | {name: Sum(own) for name, own in PLAYER_OWN.items()}


@dataclass
class TeamRow:
    team: Team
    totals: Totals


@dataclass
class PersonRow:
    """A player of a championship: ``name`` as the public sees it, his ``person`` (the
    link to his page) and ``team``."""

    player_id: int
    name: str
    person_id: int | None
    team: Team | None
    totals: Totals


@dataclass
class BiggestHand:
    match: Match
    number: int
    team: Team
    points: int


@dataclass
class LongestMatch:
    match: Match
    hands: int


@dataclass
class ChampionshipStatistics:
    championship: Championship
    totals: Totals
    teams: list[TeamRow] = field(default_factory=list)
    people: list[PersonRow] = field(default_factory=list)
    biggest_hand: BiggestHand | None = None
    longest_match: LongestMatch | None = None


def championship_totals(*, championship: Championship) -> Totals:
    """A championship's sums: hands and envidos played counted once (side A's rows),
    everything else over every side, a pair's side once at a table of three (its second
    player's row, ``shared``, repeats it)."""
    once = {
        "hands": Count("pk", filter=Q(side="A")),
        "envido_played": Sum("envido_played", filter=Q(side="A")),
    }
    rows = HandSideStat.objects.filter(championship=championship)
    return Totals.of(rows.aggregate(**(_team_sums(Q(shared=False)) | once)))


def championship_teams(*, championship: Championship) -> list[TeamRow]:
    """Each team's sums, most points first (one query, the teams read with it)."""
    rows = (
        HandSideStat.objects.filter(championship=championship)
        .values("team")
        .annotate(**_team_sums())
        .order_by("-points", "team")
    )
    found = list(rows)
    teams = Team.objects.in_bulk([row["team"] for row in found])
    return [TeamRow(teams[row["team"]], Totals.of(row)) for row in found]


def championship_people(*, championship: Championship) -> list[PersonRow]:
    """Each player's sums in the championship, most hands, then most points, first."""
    rows = (
        HandPlayerStat.objects.filter(championship=championship)
        .values(
            "player",
            "player__name",
            "player__person",
            "player__person__initial_only",
            "team",
            "team__name",
        )
        .annotate(**_person_sums())
        .order_by("-hands", "-points", "player__name", "player")
    )
    result = []
    for row in rows:
        name = _public_name(row["player__name"], row["player__person__initial_only"])
        team = Team(pk=row["team"], name=row["team__name"], championship=championship)
        result.append(PersonRow(row["player"], name, row["player__person"], team, Totals.of(row)))
    return result


def _public_name(name: str, initial_only: bool | None) -> str:
    return public_name(name, initial_only=bool(initial_only))


def biggest_hand(*, championship: Championship) -> BiggestHand | None:
    """The hand in which a side made the most points (the first such hand)."""
    row = (
        HandSideStat.objects.filter(championship=championship, points__gt=0)
        .select_related("hand", "team", "match__team_a", "match__team_b")
        .order_by("-points", "hand_id")
        .first()
    )
    if row is None:
        return None
    return BiggestHand(row.match, row.hand.number, row.team, row.points)


def longest_match(*, championship: Championship) -> LongestMatch | None:
    """The match with the most hands (the first such match)."""
    row = (
        HandSideStat.objects.filter(championship=championship, side="A")
        .values("match")
        .annotate(hands=Count("pk"))
        .order_by("-hands", "match")
        .first()
    )
    if row is None:
        return None
    match = Match.objects.select_related("team_a", "team_b").get(pk=row["match"])
    return LongestMatch(match, row["hands"])


def championship_statistics(*, championship: Championship) -> ChampionshipStatistics:
    """Everything the statistics page shows (six queries)."""
    return ChampionshipStatistics(
        championship=championship,
        totals=championship_totals(championship=championship),
        teams=championship_teams(championship=championship),
        people=championship_people(championship=championship),
        biggest_hand=biggest_hand(championship=championship),
        longest_match=longest_match(championship=championship),
    )


def team_statistics(*, team: Team) -> Totals:
    """A team's sums over every hand it played (one query)."""
    return Totals.of(HandSideStat.objects.filter(team=team).aggregate(**_team_sums()))


def person_statistics(
    *, person: Person | int, championships: QuerySet[Championship] | None = None
) -> Totals:
    """A person's sums over every hand he played, in every championship (or those of
    ``championships``, by default the public ones, as on his page) (one query)."""
    if championships is None:
        championships = public_championships()
    rows = HandPlayerStat.objects.filter(player__person=person, championship__in=championships)
    return Totals.of(rows.aggregate(**_person_sums()))


def championship_rules(championship: Championship) -> RuleSet:
    """The championship's rule set, as the engine reads it."""
    return RuleSet.from_spec(rules_spec(championship))


def rules_items(rules: RuleSet) -> frozenset[str]:
    """The statistics ``rules`` can have: the engine's facts (``scoring.fact_items``),
    what every game has (hands, chicos won), and the chicos won from the malas where a
    side can be in them (the engine's ``trailing``)."""
    items = fact_items(rules)
    return items | {"hands", "chicos_won"} | ({"comebacks"} if "trailing" in items else set())


@dataclass
class FamilyTotals:
    """A person's sums in one rules family: ``items`` are the statistics its
    championships' rules have (:func:`rules_items`, over all of them), ``rules`` one of
    them (its truco's calls name the steps)."""

    family: str
    totals: Totals
    items: frozenset[str]
    rules: RuleSet


def person_statistics_by_family(
    *, person: Person | int, championships: QuerySet[Championship] | None = None
) -> list[FamilyTotals]:
    """A person's sums per rules family (Argentine first), over every hand he played in
    ``championships`` (by default the public ones, as on his page); a family he never
    played in is left out (two queries)."""
    if championships is None:
        championships = public_championships()
    rows = list(
        HandPlayerStat.objects.filter(player__person=person, championship__in=championships)
        .values("championship")
        .annotate(**_person_sums())
        .order_by("championship")
    )
    found = Championship.objects.in_bulk([row["championship"] for row in rows])
    families: dict[str, FamilyTotals] = {}
    for row in rows:
        championship = found[row["championship"]]
        rules = championship_rules(championship)
        family = str(family_of(championship))
        known = families.get(family)
        if known is None:
            families[family] = FamilyTotals(family, Totals.of(row), rules_items(rules), rules)
        else:
            known.totals = known.totals + Totals.of(row)
            known.items = known.items | rules_items(rules)
    return [families[f] for f in RatingFamily.values if f in families]
