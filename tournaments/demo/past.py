"""What the demo's past championships share: the people of a championship of this demo
entered again in other teams, and a finished Swiss played on a past day.

A past championship gives its players a history: enough rated matches for the
leaderboards (``/ratings/<family>/`` lists those with five or more) and a rating chart
that goes somewhere. Its matches are decided on its own day, before today's
championships: the ratings rate them first (their order is the decision time).
"""

from __future__ import annotations

import datetime
import random

from django.utils import timezone

from tournaments.championships import services as championship_services
from tournaments.demo.table import list_referees, play
from tournaments.models import Championship, Match, Person
from tournaments.people.services import PersonDetails
from tournaments.stages import services as stage_services


def people_of(slug: str) -> list[Person]:
    """The people of the championship ``slug``, team by team in seed order, each team's in
    its seating order."""
    return [
        membership.player.person
        for team in Championship.objects.get(slug=slug).teams.order_by("seed")
        for membership in team.memberships.select_related("player__person").order_by("order")
    ]


def finished_swiss(
    *,
    rng: random.Random,
    championship: Championship,
    teams: list[tuple[str, list[Person]]],
    rounds: int,
    day: datetime.date,
    referees: list,
) -> Championship:
    """Enter ``teams`` (a name, its people), play a Swiss of ``rounds`` rounds on ``day``,
    every match to its end, and finish the championship."""
    list_referees(championship, referees)
    for seed, (name, people) in enumerate(teams, start=1):
        championship_services.team_create(
            championship=championship,
            name=name,
            seed=seed,
            players=[PersonDetails(name=person.name, person=person) for person in people],
            captain=people[0].name if championship.is_catalan else None,
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(
        championship=championship, format="swiss", settings={"rounds": rounds}
    )
    start = timezone.make_aware(datetime.datetime.combine(day, datetime.time(17)))
    for number in range(rounds):
        at = start + datetime.timedelta(hours=number)
        play(rng, stage_services.round_generate(stage=stage), referees, at)
        # Decided that evening: the ratings rate them in their own day's order.
        for minutes, match in enumerate(stage.matches.filter(round__number=number + 1)):
            Match.objects.filter(pk=match.pk).update(
                finished_at=at + datetime.timedelta(minutes=50 + minutes)
            )
    championship_services.championship_set_status(championship=championship, status="finished")
    return championship
