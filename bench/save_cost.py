"""Benchmark: the cost of saving a hand, early versus late in one long match.

    .venv/bin/python bench/save_cost.py                      # a temporary SQLite database
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/EMPTY_DB .venv/bin/python bench/save_cost.py

One best-of-3, target-30 argentine match between two players, whose hands score little so
that it lasts: every other hand is void, the others are one point (two tricks) to each side
in turn, so the first chico ends at hand 117 and the match is still open at hand 150.

For each hand number N asked (``--at 1 150``), ``--runs`` times: a fresh match gets its
first N-1 hands (``match_hands_import``, not timed), then the timings are

- **save**: what a referee's "Save hand" runs, ``referees.services.hand_save`` (the stale
  check, then ``results.services.hand_record``), inside ``transaction.atomic`` as a request
  does, commit included;
- **sheet**: a GET of the referee's match sheet (``referees:sheet``) for hand N, through
  Django's test client as the match's referee;
- **tap**: one step of the hand entry posted to the sheet (the first trick), which the
  engine replays and stores as the match's draft (``results.drafts.draft_save``), then the
  page rendered again.

Prints the median and the range of each. Target: the save of hand 150 within 1.5 times
the save of hand 1 (bench/README.md, "Saving a hand").
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def entry(number: int) -> dict:
    """Hand ``number`` of the long match: void, or a point to A or B in turn."""
    if number % 2 == 0:
        return {"events": [{"void": "cards shown"}]}
    side = "A" if (number // 2) % 2 == 0 else "B"
    return {"events": [{"trick": side}, {"trick": side}]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--at", type=int, nargs="+", default=[1, 150], help="hand numbers")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    folder = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client
    from django.urls import reverse

    from referees import services as referee_services
    from tournaments.championships import services as championship_services
    from tournaments.models import Match
    from tournaments.results import services as result_services
    from tournaments.stages import services as stage_services

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    referee, _ = get_user_model().objects.get_or_create(username="bench.referee")
    client = Client()
    client.force_login(referee)

    made = 0

    def new_match(stored: int) -> Match:
        nonlocal made
        made += 1
        championship = championship_services.championship_create(
            name=f"Banco {made}",
            slug=f"bench-save-{made}-{int(time.time())}",
            start_date=datetime.date(2026, 1, 1),
            options={"target": 30, "best_of": 3},
            team_size=1,
        )
        for name in ("Norte", "Sur"):
            championship_services.team_create(
                championship=championship, name=name, players=[f"{name} 1"]
            )
        for status in ("registration", "running"):
            championship_services.championship_set_status(championship=championship, status=status)
        stage = stage_services.stage_create(championship=championship, format="round_robin")
        (match,) = stage_services.round_generate(stage=stage)
        championship_services.referee_add(championship=championship, user=referee, added_by=None)
        result_services.match_assign(match=match, referee=referee, table="1")
        match = result_services.match_start(match=match, by=referee)
        if stored:
            records = [entry(n) for n in range(1, stored + 1)]
            result_services.match_hands_import(match=match, records=records, recorded_by=referee)
        return Match.objects.get(pk=match.pk)

    print(f"database: {connection.vendor}; Python {sys.version.split()[0]}; runs: {args.runs}")
    print(
        f"{'hand':>5} {'save median':>12} {'save range':>18} {'sheet median':>13} {'range':>18}"
        f" {'tap median':>11} {'range':>18}"
    )
    for number in args.at:
        saves, sheets, taps = [], [], []
        for run in range(args.runs + 1):  # run 0 warms the caches up and is not counted
            match = new_match(number - 1)
            url = reverse("referees:sheet", args=[match.pk])
            start = time.perf_counter()
            response = client.get(url)
            if run:
                sheets.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
            step = {"number": number, "hand": "", "revision": 0, "action": '{"trick":"A"}'}
            start = time.perf_counter()
            response = client.post(url, step)
            if run:
                taps.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
            assert b'data-sync="saved"' in response.content
            start = time.perf_counter()
            with transaction.atomic():
                referee_services.hand_save(
                    match=match, number=number, record=entry(number), recorded_by=referee
                )
            if run:
                saves.append(time.perf_counter() - start)
            match.refresh_from_db()
            assert match.hands.count() == number and match.winner_id is None

        def ms(values: list[float]) -> str:
            return f"{1000 * statistics.median(values):.1f} ms"

        def span(values: list[float]) -> str:
            return f"{1000 * min(values):.1f}–{1000 * max(values):.1f} ms"

        print(
            f"{number:>5} {ms(saves):>12} {span(saves):>18} {ms(sheets):>13} {span(sheets):>18}"
            f" {ms(taps):>11} {span(taps):>18}"
        )


if __name__ == "__main__":
    main()
