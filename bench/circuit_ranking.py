"""Benchmark: a circuit's season recomputed after one result; its ranking read.

    .venv/bin/python bench/circuit_ranking.py                  # 50 events, 5,000 people, SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tanteo_bench_circuits \
        .venv/bin/python bench/circuit_ranking.py

Builds, in a database of its own (a temporary SQLite file unless ``DATABASE_URL`` names an
empty PostgreSQL database), a circuit of ``--events`` finished championships, each a
Swiss of ``--rounds`` rounds between ``--teams`` pairs drawn from a pool of ``--people``
persons, every match decided (written in bulk: the placements read the standings, never
the hands), winners drawn by a hidden skill per person, seeded. Each event's placements
are stored once (``placements_store``, as the announcements would have).

Then it times what a result costs: ``circuit_event_refresh`` of one event (its standings
and placements computed again from its matches, its rows rewritten, the final's entries
synced, the circuit announced) after one of its results changed, then ``circuit_ranking``
(the persons' and the teams' lines of the whole season, as the page renders them on a
cache miss): median and worst of ``--repeat``, with the queries each takes; then
``person_circuit_lines`` (one person's line, ranked among everyone's: his page).
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
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--people", type=int, default=5000)
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--best-of", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true", help="profile one ranking read")
    parser.add_argument("--no-gc", action="store_true", help="the cyclic collector off")
    args = parser.parse_args()

    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.circuits import qualification
    from tournaments.circuits.selectors import circuit_ranking, person_circuit_lines
    from tournaments.models import CircuitPlacement, Match, Person

    call_command("migrate", verbosity=0)
    chance = random.Random(args.seed)
    started = time.perf_counter()
    circuit, events = _season(args, chance)
    for event in events:
        qualification.placements_store(event=event)
    print(f"database: {connection.vendor}; Python {sys.version.split()[0]}")
    print(
        f"built {len(events)} events of {args.teams} pairs ({args.rounds} rounds each), "
        f"{args.people:,} people, {CircuitPlacement.objects.count():,} placements, "
        f"{Match.objects.count():,} matches in {time.perf_counter() - started:.1f} s"
    )

    if args.no_gc:
        import gc

        gc.disable()
    refresh, ranking, queries, cpu = [], [], [], []
    for n in range(args.repeat):
        event = events[n % len(events)]
        # A result corrected: the other team wins one match of the event.
        match = (
            Match.objects.filter(stage__championship=event.championship_id).order_by("?").first()
        )
        match.winner_id = match.team_b_id if match.winner_id == match.team_a_id else match.team_a_id
        match.save(update_fields=["winner"])
        with CaptureQueriesContext(connection) as captured:
            processed = time.process_time()
            started = time.perf_counter()
            qualification.circuit_event_refresh(event=event)
            middle = time.perf_counter()
            lines = circuit_ranking(circuit=circuit)
            ended = time.perf_counter()
        cpu.append(time.process_time() - processed)
        refresh.append(middle - started)
        ranking.append(ended - middle)
        queries.append(len(captured.captured_queries))
    total = [a + b for a, b in zip(refresh, ranking, strict=True)]
    print(
        f"ranking: {len(lines.persons):,} persons, {len(lines.teams):,} teams "
        f"(best {args.best_of} of each)"
    )
    for name, times in (("event refresh", refresh), ("ranking", ranking), ("both", total)):
        print(
            f"{name}: median {statistics.median(times) * 1000:.0f} ms, "
            f"worst {max(times) * 1000:.0f} ms of {len(times)}"
        )
    person = Person.objects.filter(players__isnull=False).order_by("pk").first()
    alone = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        assert len(person_circuit_lines(person=person)) == 1
        alone.append(time.perf_counter() - started)
    print(
        f"a person's line (his page): median {statistics.median(alone) * 1000:.0f} ms, "
        f"worst {max(alone) * 1000:.0f} ms of {len(alone)}"
    )
    print(f"both, this process's CPU time: median {statistics.median(cpu) * 1000:.0f} ms")
    print(f"queries, refresh and ranking: {min(queries)} to {max(queries)}")
    if args.profile:
        import cProfile
        import pstats

        with cProfile.Profile() as profile:
            circuit_ranking(circuit=circuit)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    folder.cleanup()


def _season(args, chance):
    from tournaments.models import (
        Championship,
        Circuit,
        CircuitEvent,
        Membership,
        Person,
        Player,
        Round,
        Stage,
        Team,
    )

    circuit = Circuit.objects.create(
        name="Banco",
        slug="bench-circuit",
        start_date=datetime.date(2026, 1, 1),
        end_date=datetime.date(2026, 12, 31),
        best_of=args.best_of,
        points=[200 - 5 * n for n in range(32)],
    )
    persons = Person.objects.bulk_create(
        (Person(name=f"Persona {n}") for n in range(args.people)), batch_size=BATCH
    )
    skill = {p.pk: chance.gauss(0, 1) for p in persons}
    events = []
    for number in range(args.events):
        championship = Championship.objects.create(
            name=f"Banco {number}",
            slug=f"bench-circuit-{number}",
            start_date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * number),
            status=Championship.Status.FINISHED,
            rules={"preset": "argentine"},
        )
        chosen = chance.sample(persons, 2 * args.teams)
        teams = Team.objects.bulk_create(
            Team(championship=championship, name=f"Pareja {n}", seed=n + 1)
            for n in range(args.teams)
        )
        players = Player.objects.bulk_create(Player(name=p.name, person=p) for p in chosen)
        Membership.objects.bulk_create(
            Membership(team=teams[n // 2], player=player, order=n % 2 + 1)
            for n, player in enumerate(players)
        )
        strength = {
            team.pk: skill[chosen[2 * n].pk] + skill[chosen[2 * n + 1].pk]
            for n, team in enumerate(teams)
        }
        stage = Stage.objects.create(
            championship=championship, format="swiss", settings={"rounds": args.rounds}
        )
        stage.teams.set(teams)
        _rounds(args, chance, stage, teams, strength, Round)
        events.append(
            CircuitEvent.objects.create(
                circuit=circuit, championship=championship, kind=CircuitEvent.Kind.RANKING
            )
        )
    return circuit, events


def _rounds(args, chance, stage, teams, strength, round_model):
    """Random pairings each round (the placements do not care how they were drawn)."""
    from tournaments.models import Match

    matches = []
    for number in range(1, args.rounds + 1):
        round_ = round_model.objects.create(stage=stage, number=number)
        order = list(teams)
        chance.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            edge = strength[a.pk] - strength[b.pk]
            a_wins = chance.random() < 1 / (1 + 10 ** (-edge / 2))
            matches.append(
                Match(
                    stage=stage,
                    round=round_,
                    team_a=a,
                    team_b=b,
                    status=Match.Status.FINISHED,
                    outcome=Match.Outcome.PLAYED,
                    winner=a if a_wins else b,
                    chicos_a=2 if a_wins else chance.randint(0, 1),
                    chicos_b=chance.randint(0, 1) if a_wins else 2,
                    tantos_a=chance.randint(20, 90),
                    tantos_b=chance.randint(20, 90),
                )
            )
    Match.objects.bulk_create(matches, batch_size=BATCH)


if __name__ == "__main__":
    main()
