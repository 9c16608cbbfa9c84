"""Benchmark: printing a round — its table list and a scoresheet per match — as a page and
as a PDF, and correcting a hand early in a long match.

    .venv/bin/python bench/print_cost.py                      # a temporary SQLite database
    .venv/bin/python bench/print_cost.py --tables 100 --runs 3

A running round robin of ``2 × --tables`` pairs: round 1 has one match per table. Timed,
``--runs`` times each, through Django's test client as the organiser:

- **page**: GET of the round's print page (HTML: list and scoresheets, one QR code each);
- **pdf**: GET of the same as PDF (WeasyPrint draws it);
- **correct**: ``results.services.hand_correct`` of hand 2 of a 150-hand match (the match
  replayed by the engine, the hands after it rewritten, the revision kept).

Prints the median and the range of each (bench/README.md, "Printing and corrections").
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(run: Callable[[], object], runs: int) -> list[float]:
    run()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return times


def show(name: str, times: list[float]) -> None:
    print(f"{name:8} {statistics.median(times):9.1f} ms  ({min(times):.0f}–{max(times):.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
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
    from django.test import Client
    from django.urls import reverse

    from tournaments.championships import services as championship_services
    from tournaments.models import Championship
    from tournaments.results import services as result_services
    from tournaments.stages import services as stage_services

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    organiser = get_user_model().objects.create_user(username="bench.organiser")
    championship = championship_services.championship_create(
        name="Bench",
        slug="bench",
        start_date=datetime.date(2026, 6, 1),
        preset="argentine",
        options={},
        team_size=2,
        organisers=[organiser],
    )
    for n in range(1, 2 * args.tables + 1):
        championship_services.team_create(
            championship=championship, name=f"Pareja {n}", seed=n, players=[f"A{n}", f"B{n}"]
        )
    for status in ("registration", "running"):
        championship_services.championship_set_status(championship=championship, status=status)
    championship = Championship.objects.get(pk=championship.pk)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    for table, match in enumerate(matches, start=1):
        result_services.match_assign(match=match, table=str(table))
    client = Client()
    client.force_login(organiser)
    page = reverse("organiser:print_round", args=["bench", stage.pk, 1])
    pdf = reverse("organiser:print_round_pdf", args=["bench", stage.pk, 1])

    def get(url: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, response.status_code

    print(f"{len(matches)} tables, {args.runs} runs")
    show("page", timed(lambda: get(page), args.runs))
    show("pdf", timed(lambda: get(pdf), args.runs))

    # A long match (void and one-point hands, as bench/save_cost.py): correct hand 2.
    match = matches[0]
    hands = [
        {"events": [{"void": "cards shown"}]}
        if n % 2 == 0
        else {"events": [{"trick": "AB"[(n // 2) % 2]}] * 2}
        for n in range(1, 151)
    ]
    result_services.match_hands_import(match=match, records=hands, recorded_by=None)
    second = match.hands.get(number=2)
    flips = iter(range(10**6))

    def correct() -> None:
        side = "AB"[next(flips) % 2]
        result_services.hand_correct(
            hand=second,
            record={"events": [{"trick": side}, {"trick": side}]},
            corrected_by=organiser,
            reason="bench",
        )

    show("correct", timed(correct, args.runs))


if __name__ == "__main__":
    main()
