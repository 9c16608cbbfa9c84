"""Benchmark: a championship's statistics are read from what is kept, not recomputed.

(Named ``statistics_pages``: a ``bench/statistics.py`` would be the standard library's
``statistics`` module for every script run from this folder.)

    .venv/bin/python bench/statistics_pages.py                   # 5,000 hands, SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tanteo_bench \
        .venv/bin/python bench/statistics_pages.py

Builds, in a database of its own (a temporary SQLite file unless ``DATABASE_URL`` names an
empty PostgreSQL database), one championship of 16 teams of two playing round-robin
rounds whose matches are played out with random legal hands (seeded: the same hands every
run), imported through the results services (``match_hands_import``, which keeps each
hand's statistics in its transaction) until the championship holds ``--hands`` hands.
Then it times, best of ``--repeat``: the selector (``championship_statistics``), the
page rendered by Django (the page cache off: every request reads the database), with the
number of queries of each; and, for comparison, what a page would cost if it recomputed
the statistics per request (every match replayed by the engine and its hands told,
``scoring.match_hand_facts``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["PAGE_CACHE"] = "false"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    import scoring
    from tournaments.championships import services as championship_services
    from tournaments.errors import TournamentError
    from tournaments.models import Hand, Match
    from tournaments.ratings import statistics_selectors
    from tournaments.results import records
    from tournaments.results import services as result_services
    from tournaments.stages import services as stage_services

    setup_test_environment()
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    championship = championship_services.championship_create(
        name="Banco de estadísticas", slug="bench-stats", start_date=datetime.date(2026, 1, 1)
    )
    for n in range(16):
        championship_services.team_create(
            championship=championship, name=f"Equipo {n:02}", players=[f"J{n}a", f"J{n}b"]
        )
    for status in ("registration", "running"):
        championship_services.championship_set_status(championship=championship, status=status)

    started = time.perf_counter()
    hands = 0
    stage = None
    while hands < args.hands:
        try:
            matches = stage_services.round_generate(stage=stage) if stage else None
        except TournamentError:
            matches = None  # every round played: another league
        if not matches:
            stage = stage_services.stage_create(
                championship=championship, format="round_robin", name=f"Liga {hands}"
            )
            matches = stage_services.round_generate(stage=stage)
        for match in matches:
            if match.team_b_id is None or hands >= args.hands:
                continue
            match = result_services.match_start(match=match)
            entries = _random_match(rng, records.match_head(records_match(match)))
            result_services.match_hands_import(match=match, records=entries, recorded_by=None)
            hands += len(entries)
        if hands >= args.hands:
            break
    built = time.perf_counter() - started
    print(f"database: {connection.vendor}; Python {sys.version.split()[0]}")
    print(
        f"built: {Hand.objects.count():,} hands in {Match.objects.exclude(hands=None).count()}"
        f" matches, statistics kept as they were imported ({built:.1f} s)"
    )

    def best(run: Any) -> tuple[float, int]:
        times = []
        queries = 0
        for _ in range(args.repeat):
            connection.queries_log.clear()  # a full log (the build's) counts nothing new
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                run()
                times.append(time.perf_counter() - began)
            queries = len(captured.captured_queries)
        return min(times), queries

    client = Client()
    url = f"/c/{championship.slug}/statistics/"
    selector, selector_queries = best(
        lambda: statistics_selectors.championship_statistics(championship=championship)
    )
    page, page_queries = best(lambda: _ok(client.get(url)))
    parts = {
        name: best(lambda read=read: read(championship=championship))
        for name, read in (
            ("totals", statistics_selectors.championship_totals),
            ("teams", statistics_selectors.championship_teams),
            ("players", statistics_selectors.championship_people),
            ("biggest hand", statistics_selectors.biggest_hand),
            ("longest match", statistics_selectors.longest_match),
        )
    }

    def recompute() -> None:
        for match in Match.objects.exclude(hands=None).select_related("stage__championship"):
            stored = [h.record for h in match.hands.order_by("number")]
            for hand in records.score(records_match(match), stored).hands:
                scoring.match_hand_facts(hand)

    replay, replay_queries = best(recompute)
    print(f"{'what':<40} {'ms':>8} {'queries':>8}")
    print(
        f"{'selector (championship_statistics)':<40} {selector * 1000:>8.1f} {selector_queries:>8}"
    )
    print(f"{'page /c/<slug>/statistics/':<40} {page * 1000:>8.1f} {page_queries:>8}")
    for name, (took, queries) in parts.items():
        print(f"{'  of which ' + name:<40} {took * 1000:>8.1f} {queries:>8}")
    print(
        f"{'recomputed per request (for comparison)':<40} {replay * 1000:>8.1f} {replay_queries:>8}"
    )
    folder.cleanup()


def records_match(match: Any) -> Any:
    """The match with what its records need (teams' players)."""
    from django.db.models import Prefetch

    from tournaments.championships.selectors import MEMBERS_IN_ORDER
    from tournaments.models import Match

    return (
        Match.objects.select_related("stage__championship", "team_a", "team_b")
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
        )
        .get(pk=match.pk)
    )


def _ok(response: Any) -> None:
    assert response.status_code == 200, response.status_code


def _random_match(rng: random.Random, head: dict[str, Any]) -> list[dict[str, Any]]:
    """A whole match of random legal hands (quick entry), with the referee's rare penalty."""
    import scoring

    entries: list[dict[str, Any]] = []
    state = None
    while state is None or state.winner is None:
        entry = scoring.HandEntry.from_state(head, state)
        for _ in range(400):
            if entry.finished:
                break
            actions = [a for a in entry.legal_actions() if not isinstance(a, scoring.Play)]
            if rng.random() < 0.02:
                actions = [scoring.Penalty(rng.choice(entry.state.sides), 1, "pido")]
            entry.apply(rng.choice(actions))
        hand = entry.to_entry()
        _scored, state = scoring.score_next_hand(head, state, hand)
        entries.append(hand)
    return entries


if __name__ == "__main__":
    main()
