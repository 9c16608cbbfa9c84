"""Benchmark: rebuild the ratings of 100,000 matches; rate one more match incrementally.

    .venv/bin/python bench/ratings.py                          # 100,000 matches, SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tanteo_bench .venv/bin/python bench/ratings.py

Builds, in a database of its own (a temporary SQLite file unless ``DATABASE_URL`` names an
empty PostgreSQL database), ``--championships`` Argentine championships of teams of two
drawn from a pool of ``--people`` persons, and ``--matches`` decided matches between
their teams, written in bulk (the ratings read a match's status, outcome, winner,
decision time and line-up; they never replay its hands). Winners are drawn with the odds
of a hidden skill per person, seeded (``--seed``), so the run is reproducible.

Then it times ``ratings_rebuild`` (best of ``--repeat``), checks that a second rebuild
gives the same numbers, and times ``rating_update`` of one more match decided after all
the others (median and worst of ``--updates`` fresh matches), the path a result takes.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCH = 5000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=4000)
    parser.add_argument("--championships", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from tournaments.models import Rating, RatingChange
    from tournaments.ratings import services as rating_services

    call_command("migrate", verbosity=0)
    chance = random.Random(args.seed)
    started = time.perf_counter()
    teams_of, skill_of = _people_and_teams(args, chance)
    matches = _matches(args, chance, teams_of, skill_of)
    print(f"database: {connection.vendor}; Python {sys.version.split()[0]}")
    print(
        f"built {len(matches):,} matches of {args.championships} championships, "
        f"{args.people:,} people in {time.perf_counter() - started:.1f} s"
    )

    times = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        rated = rating_services.ratings_rebuild()
        times.append(time.perf_counter() - started)
    first = _numbers(Rating, RatingChange)
    rating_services.ratings_rebuild()
    assert _numbers(Rating, RatingChange) == first, "two rebuilds differ"
    print(
        f"rebuild: {rated['argentine']:,} matches, {len(first[1]):,} rating changes, "
        f"best {min(times):.2f} s of {args.repeat} ({', '.join(f'{t:.2f}' for t in times)})"
    )

    updates = []
    for match in _more_matches(args, chance, teams_of, skill_of, args.updates):
        started = time.perf_counter()
        assert rating_services.rating_update(match=match) == 1
        updates.append(time.perf_counter() - started)
    print(
        f"incremental update, one match after {rated['argentine']:,}: median "
        f"{statistics.median(updates) * 1000:.1f} ms, worst {max(updates) * 1000:.1f} ms "
        f"of {len(updates)}"
    )
    folder.cleanup()


def _people_and_teams(args, chance):
    from tournaments.models import Championship, Membership, Person, Player, Team

    persons = Person.objects.bulk_create(
        (Person(name=f"Persona {n}") for n in range(args.people)), batch_size=BATCH
    )
    skill_of = {p.pk: chance.gauss(0, 1) for p in persons}
    teams_of: dict[int, list] = {}
    for number in range(args.championships):
        championship = Championship.objects.create(
            name=f"Banco {number}",
            slug=f"bench-ratings-{number}",
            start_date=datetime.date(2026, 1, 1) + datetime.timedelta(days=number),
            status=Championship.Status.FINISHED,
            rules={"preset": "argentine"},
        )
        chosen = chance.sample(persons, 64)
        teams = Team.objects.bulk_create(
            Team(championship=championship, name=f"Equipo {n}") for n in range(32)
        )
        players = Player.objects.bulk_create(Player(name=p.name, person=p) for p in chosen)
        Membership.objects.bulk_create(
            Membership(team=teams[n // 2], player=player, order=n % 2)
            for n, player in enumerate(players)
        )
        for team, pair in zip(teams, zip(players[::2], players[1::2], strict=True), strict=True):
            team.persons = (pair[0].person_id, pair[1].person_id)
            team.keys = [f"p{pair[0].pk}", f"p{pair[1].pk}"]
        teams_of[championship.pk] = teams
    return teams_of, skill_of


def _stage(championship_id, order=1):
    from tournaments.models import Round, Stage

    stage = Stage.objects.create(championship_id=championship_id, format="round_robin", order=order)
    return stage, Round.objects.create(stage=stage, number=1)


def _match(stage, round_, chance, teams, skill_of, at):
    from tournaments.models import Match

    a, b = chance.sample(teams, 2)
    strength = sum(skill_of[p] for p in a.persons) - sum(skill_of[p] for p in b.persons)
    a_wins = chance.random() < 1 / (1 + 10 ** (-strength / 2))
    return Match(
        stage=stage,
        round=round_,
        team_a=a,
        team_b=b,
        status=Match.Status.FINISHED,
        outcome=Match.Outcome.PLAYED,
        winner=a if a_wins else b,
        chicos_a=2 if a_wins else 1,
        chicos_b=1 if a_wins else 2,
        finished_at=at,
        # Half the matches with the line-up stored when play started, half without.
        lineup={"A": a.keys, "B": b.keys} if chance.random() < 0.5 else {},
    )


def _matches(args, chance, teams_of, skill_of):
    from tournaments.models import Match

    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    per = args.matches // len(teams_of)
    made = []
    for index, (championship_id, teams) in enumerate(teams_of.items()):
        stage, round_ = _stage(championship_id)
        count = per if index < len(teams_of) - 1 else args.matches - per * index
        batch = [
            _match(
                stage,
                round_,
                chance,
                teams,
                skill_of,
                start + datetime.timedelta(minutes=len(made) + n),
            )
            for n in range(count)
        ]
        made += Match.objects.bulk_create(batch, batch_size=BATCH)
    return made


def _more_matches(args, chance, teams_of, skill_of, count):
    """Matches decided after every other one: each is the newest result."""
    from django.utils import timezone

    championship_id, teams = next(iter(teams_of.items()))
    stage, round_ = _stage(championship_id, order=2)
    for _ in range(count):
        match = _match(stage, round_, chance, teams, skill_of, timezone.now())
        match.save()
        yield match


def _numbers(rating, change):
    return (
        sorted(rating.objects.values_list("person_id", "mu", "sigma", "matches")),
        sorted(change.objects.values_list("person_id", "match_id", "mu_after", "sigma_after")),
    )


if __name__ == "__main__":
    main()
