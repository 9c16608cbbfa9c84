"""Where the server's CPU goes during the load day, per kind of request (``run.py --cpu``).

With ``--cpu``, gunicorn runs with ``cpu_settings.py`` (this folder): the project's
settings with :class:`CpuMiddleware` first, which measures the CPU time of each request's
thread (``time.thread_time``: the time it ran, not the time it waited for the GIL, the
database or Redis) and its queries, and writes each process's running sums to
``BENCH_CPU_DIR`` every few seconds. A public page that ran no query came from the cache
("hit"). ``run.py`` reads the sums when the ramp-up ends and again at the end: the
difference is the measured window's, printed by :func:`table`.

Bench only: nothing in the project imports this module.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse

WRITE_EVERY = 2.0  # seconds
# A kind measured inside another (a page renewed, inside the work after a write's answer).
INSIDE = "· renewed: "


class CpuMiddleware:
    """Sum, per kind of request, the count, thread CPU seconds, wall seconds and queries."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.lock = threading.Lock()
        self.sums: dict[str, list[float]] = {}
        self.written = time.monotonic()
        self.out = Path(os.environ["BENCH_CPU_DIR"]) / f"cpu-{os.getpid()}.json"
        # What a write leaves for after its answer (its pages rendered again, the
        # broadcast) runs once the response is closed, outside ``get_response``: measured
        # apart, as a kind of its own. (Imported here: run.py imports this module without
        # Django set up.)
        from tournaments.live import announce

        after = announce._run_after_response

        def measured_after() -> None:
            if not getattr(announce._after_response, "pending", None):
                after()
                return
            self._measure("after the answer (pages rendered again, broadcast)", after)

        announce._run_after_response = measured_after
        # Each page renewed, by its view: where the two kinds above (and below) go. Listed
        # apart (``INSIDE``), out of the total: their time is in those kinds already.
        from django.urls import Resolver404, resolve

        from tournaments.live import pagecache

        # (``_render_again`` in the code before the renewals' moments.)
        renders = "render_again" if hasattr(pagecache, "render_again") else "_render_again"
        render_again = getattr(pagecache, renders)

        def measured_render(relative: str) -> bool:
            try:
                name = resolve("/" + relative.partition("/")[2].removesuffix("index.html"))
                kind = f"{INSIDE}{name.view_name}"
            except Resolver404:
                kind = f"{INSIDE}?"
            done = [False]

            def work() -> None:
                done[0] = render_again(relative)

            self._measure(kind, work)
            return done[0]

        setattr(pagecache, renders, measured_render)
        # The pages renewed at the end of their moment (tournaments/live/renewing.py), by a
        # thread of the process outside any request: measured apart too. (The code before
        # it renewed each page after every write's answer.)
        try:
            from tournaments.live import renewing
        except ImportError:
            return
        renew = renewing.later.renew

        def measured_renew(pages: list[str], *args: Any) -> None:
            if not pages:
                renew(pages, *args)
                return
            self._measure("renewed at a moment's end (its thread)", lambda: renew(pages, *args))

        renewing.later.renew = measured_renew

    def _measure(self, kind: str, work: Callable[[], None]) -> None:
        queries, cpu, wall = [0], time.thread_time(), time.perf_counter()
        with connection.execute_wrapper(_counting(queries)):
            work()
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        self._add(kind, cpu, wall, queries[0])

    def __call__(self, request: HttpRequest) -> HttpResponse:
        queries = [0]
        cpu, wall = time.thread_time(), time.perf_counter()
        with connection.execute_wrapper(_counting(queries)):
            response = self.get_response(request)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        self._add(_kind(request, queries[0]), cpu, wall, queries[0])
        return response

    def _add(self, kind: str, cpu: float, wall: float, queries: int) -> None:
        with self.lock:
            sums = self.sums.setdefault(kind, [0, 0.0, 0.0, 0])
            sums[0] += 1
            sums[1] += cpu
            sums[2] += wall
            sums[3] += queries
            if time.monotonic() - self.written < WRITE_EVERY:
                return
            self.written = time.monotonic()
            temporary = self.out.with_suffix(".tmp")
            temporary.write_text(json.dumps(self.sums))
            temporary.replace(self.out)


def _counting(queries: list[int]) -> Callable[..., Any]:
    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries[0] += 1
        return execute(sql, params, many, context)

    return count


def _kind(request: HttpRequest, queries: int) -> str:
    match = getattr(request, "resolver_match", None)
    name = match.view_name if match is not None else "?"
    if request.method != "GET":
        return f"{request.method} {name}"
    if name.startswith("tournaments:"):
        return f"{name} ({'cache' if queries == 0 else 'rendered'})"
    return name


def read(folder: Path) -> dict[str, list[float]]:
    """Every process's sums, added up."""
    total: dict[str, list[float]] = {}
    for file in folder.glob("cpu-*.json"):
        try:
            sums = json.loads(file.read_text())
        except (OSError, ValueError):
            continue
        for kind, values in sums.items():
            kept = total.setdefault(kind, [0, 0.0, 0.0, 0])
            for i, value in enumerate(values):
                kept[i] += value
    return total


def table(before: dict[str, list[float]], after: dict[str, list[float]], seconds: float) -> str:
    """The window between two readings as a Markdown table, the costliest kind first."""
    rows = []
    for kind, values in after.items():
        start = before.get(kind, [0, 0.0, 0.0, 0])
        n, cpu, wall, queries = (values[i] - start[i] for i in range(4))
        if n > 0:
            rows.append((kind, n, cpu, wall, queries))
    total = sum(row[2] for row in rows if not row[0].startswith(INSIDE)) or 1.0
    lines = [
        "| request | per second | CPU ms each | wall ms each | queries each | CPU share |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind, n, cpu, wall, queries in sorted(rows, key=lambda row: -row[2]):
        lines.append(
            f"| {kind} | {n / seconds:.1f} | {1000 * cpu / n:.1f} | {1000 * wall / n:.0f} "
            f"| {queries / n:.1f} | {100 * cpu / total:.0f} % |"
        )
    lines.append(f"| **all: cores of Django work** | | **{total / seconds:.2f}** | | | |")
    lines.append(
        f"\n(Rows starting with {INSIDE.strip()!r} are inside the work after the answer "
        "or the moment's end, and out of the total.)"
    )
    return "\n".join(lines)
