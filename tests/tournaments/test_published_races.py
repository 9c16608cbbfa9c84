"""One topic's folder of the published pages, registered and withdrawn at once by many
threads and processes (the web processes of every node and the Celery worker share the
folder): no registration fails and none is lost, and the folder ends as the last call
left it."""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from pathlib import Path

import pytest

from tournaments.live import published

TOPIC = "m.7"
CODE = "release"
THREADS = 6
PROCESSES = 3
ROUNDS = 300


def _storm(worker: str, start: multiprocessing.synchronize.Barrier) -> dict[str, list[str]]:
    """``THREADS`` threads, each registering a page of its own under ``TOPIC`` and
    withdrawing ``TOPIC`` in turn: the pages registered, those the withdrawals took, and
    what failed."""
    registered: list[str] = []
    taken: list[str] = []
    errors: list[str] = []
    together = threading.Barrier(THREADS)

    def run(thread: int) -> None:
        together.wait()
        for turn in range(ROUNDS):
            try:
                if turn % 2:
                    renewal = published.withdraw([TOPIC])
                    taken.extend(renewal.pages)
                    renewal.done()
                else:
                    page = f"es/c/copa/p-{worker}-{thread}-{turn}/index.html"
                    published.register(page, [TOPIC], CODE)
                    registered.append(page)
            except Exception:
                errors.append(traceback.format_exc())

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    start.wait()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"registered": registered, "taken": taken, "errors": errors}


def _process_storm(worker: str, start, results) -> None:
    results.put(_storm(worker, start))


@pytest.mark.page_cache
def test_a_topic_withdrawn_and_registered_from_everywhere_at_once_loses_nothing(settings, tmp_path):
    settings.PUBLISHED_PAGES_DIR = str(tmp_path / "published")
    root = Path(settings.PUBLISHED_PAGES_DIR)
    published.register("es/index.html", [TOPIC], CODE)  # the folders exist, as on a busy day
    # Forked (the settings above are this process's): before any thread of the storm starts.
    context = multiprocessing.get_context("fork")
    start = context.Barrier(PROCESSES + 1)
    results = context.Queue()
    processes = [
        context.Process(target=_process_storm, args=(f"w{n}", start, results))
        for n in range(PROCESSES)
    ]
    for process in processes:
        process.start()
    outcomes = [_storm("main", start)]
    outcomes += [results.get(timeout=300) for _process in processes]
    for process in processes:
        process.join(60)
        assert process.exitcode == 0

    errors = [error for outcome in outcomes for error in outcome["errors"]]
    assert errors == []
    registered = {page for outcome in outcomes for page in outcome["registered"]}
    assert len(registered) == (PROCESSES + 1) * THREADS * ROUNDS // 2
    taken = {page for outcome in outcomes for page in outcome["taken"]}
    last = published.withdraw([TOPIC])
    # Each registration was taken by a withdrawal after it, or is there for the next one.
    assert registered - taken - set(last.pages) == set()
    last.done()

    # A last registration: the page is published under its topic, found by the next write.
    published.register("es/c/copa/index.html", [TOPIC], CODE)
    published.place("es/c/copa/index.html", b"<p>copa</p>")
    assert (root / "pages" / "es/c/copa/index.html").read_bytes() == b"<p>copa</p>"
    assert [entry.name for entry in (root / "topics" / TOPIC).iterdir()] == ["es~c~copa~index.html"]
    # A last withdrawal: nothing left registered, nothing left in renewal once renewed.
    last = published.withdraw([TOPIC])
    assert last.pages == ["es/c/copa/index.html"]
    last.done()
    assert not (root / "topics" / TOPIC).exists()
    assert list((root / "renewing").iterdir()) == []
