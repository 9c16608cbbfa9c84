"""Where the machine's CPU goes during a load run: the cores each program took.

``run.py`` reads the CPU time of each program's processes (the server's whole process
tree, Locust's, nginx's, its own redis-server's, and every PostgreSQL process on the
machine) when the measured window starts and again just before it ends; the difference
over the seconds between is the cores each took. On this 2-core machine the load
generator shares the cores with the site, so its share says how much is left for the site.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import psutil  # installed with Locust


def _tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue  # a worker gone meanwhile: its time is lost from both readings alike
        total += times.user + times.system
    return total


def _postgres() -> list[psutil.Process]:
    names = ("postgres", "postmaster")
    return [p for p in psutil.process_iter(["name"]) if p.info["name"] in names]


class Split:
    """The CPU seconds of each named program, read at two moments."""

    def __init__(self, programs: Mapping[str, int | None]) -> None:
        # A process tree is read again at each moment: gunicorn may replace a worker.
        self.programs = {name: pid for name, pid in programs.items() if pid is not None}
        self.start: dict[str, float] = {}
        self.started = 0.0

    def _read(self) -> dict[str, float]:
        seconds = {name: _seconds(_tree(pid)) for name, pid in self.programs.items()}
        seconds["postgresql"] = _seconds(_postgres())
        return seconds

    def begin(self) -> None:
        self.started = time.monotonic()
        self.start = self._read()

    def end(self) -> str:
        """The cores each program took since :meth:`begin`, as a Markdown table."""
        elapsed = time.monotonic() - self.started
        now = self._read()
        rows = ["| program | cores |", "|---|---:|"]
        total = 0.0
        for name, seconds in now.items():
            cores = (seconds - self.start.get(name, 0.0)) / elapsed
            total += cores
            rows.append(f"| {name} | {cores:.2f} |")
        rows.append(f"| **all** (of {psutil.cpu_count()}) | **{total:.2f}** |")
        return "\n".join(rows) + f"\n\nOver {elapsed:.0f} s of the measured window."
