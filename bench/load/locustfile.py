"""Locust users of the load benchmark: referees at their tables, spectators online, players
on their teams' personal links.

Run by ``bench/load/run.py`` (which builds the data, starts the site and passes these
variables); by hand, against a site already running on this machine:

    BENCH_LOAD_DATA=bench/load/out/data.json BENCH_TABLES=20 BENCH_SPECTATORS=100 \\
        BENCH_PLAYERS=40 BENCH_DURATION=60 \\
        .venv/bin/locust -f bench/load/locustfile.py --headless -u 160 -r 20 -t 90s \\
        --host http://127.0.0.1:8000

- ``Referee`` (one per table, ``BENCH_TABLES``): starts a hand every ``BENCH_HAND_EVERY``
  seconds (30). With ``BENCH_TABLET=browser`` (the default) it is the offline-first tablet
  (static/js/tablet-client.js): the sheet is loaded once, the engine runs here as it runs
  in the tablet's Web Worker (``scoring.session.Session``, the same module), and a tap
  reaches the server only as the draft sync (``PUT /api/v1/matches/{id}/draft/``, named
  ``tap``, one per tap: the script's debounce at its busiest); the decided hand is posted
  to ``POST /api/v1/matches/{id}/hands/`` with an ``Idempotency-Key`` (named ``save``: a
  201 is required). With ``BENCH_TABLET=server``, the page without JavaScript: the sheet is
  loaded, then each tap posts
  the page's hidden ``number`` and ``hand`` with one of the ``action`` buttons the page
  offers (chosen at random, going to the mazo less often, as the demo plays), ``BENCH_TAP_GAP``
  seconds apart (1 to 3), until the page offers "Save hand"; the save is posted, and the
  redirect it answers is followed as the next sheet load. Requests are named ``sheet``,
  ``tap`` and ``save``; a save that does not move the sheet to the next hand is a failure.
- ``Spectator`` (``BENCH_SPECTATORS``): reads the public pages with ``BENCH_THINK``
  seconds (3 to 8) between two: a match page most often (the live pages), the round, the
  standings, the championship, the home page. Named ``page: <which>``.
- ``Player`` (``BENCH_PLAYERS``, ``bench/load/players.py``): one team's phone on its
  personal link: opens it and checks in as the check-in window opens, searches the
  schedule by name, reads team and person pages, the statistics and the circuit, and at
  its match's end reports the result or confirms the other team's report. Named ``link``,
  ``check-in``, ``report``, ``confirm``, ``search``, ``team``, ``person``,
  ``statistics``, ``circuit``.

Only 127.0.0.1 is ever sent a request: any other host stops the run. When the run ends,
the latencies measured after the ramp-up (the spawning complete) are summarised per kind
(save, tap, sheet, page, and each of the players' kinds; ``link act``: the check-ins,
reports and confirmations together) into ``BENCH_SUMMARY`` (JSON), from every sample, not
Locust's rounded histogram.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import re
import time
from itertools import cycle
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import gevent
from locust import FastHttpUser, between, constant_pacing, events, task
from players import Player, match_over  # noqa: F401  (bench/load/players.py: Locust runs Player too)
from sheet import (  # bench/load/sheet.py: Locust puts this folder on the path
    Sheet,
    tablet_context,
    tablet_event,
)

from scoring.session import Session

DATA = json.loads(Path(os.environ.get("BENCH_LOAD_DATA", "bench/load/out/data.json")).read_text())
TABLES = int(os.environ.get("BENCH_TABLES", len(DATA["referees"])))
SPECTATORS = int(os.environ.get("BENCH_SPECTATORS", 2000))
HAND_EVERY = float(os.environ.get("BENCH_HAND_EVERY", 30))
TAP_GAP = tuple(float(x) for x in os.environ.get("BENCH_TAP_GAP", "1,3").split(","))
THINK = tuple(float(x) for x in os.environ.get("BENCH_THINK", "3,8").split(","))
SUMMARY = os.environ.get("BENCH_SUMMARY", "")
TABLET = os.environ.get("BENCH_TABLET", "browser")  # or "server": the page without JavaScript
# A hand has a handful of events; more taps than this means the walk is lost.
MAX_TAPS = 60

_referees = cycle(DATA["referees"][:TABLES])


def _local_only(host: str | None) -> None:
    if urlparse(host or "").hostname != "127.0.0.1":
        raise SystemExit(f"locustfile: only http://127.0.0.1 may be loaded, not {host!r}")


class Referee(FastHttpUser):
    """One table's referee: a hand every HAND_EVERY seconds, tap by tap, then save."""

    fixed_count = TABLES
    wait_time = constant_pacing(HAND_EVERY)

    def on_start(self) -> None:
        _local_only(self.host)
        me = next(_referees)
        self.rng = random.Random(me["username"])
        self.match_id = me["match"]
        self.url = f"/referee/matches/{me['match']}/"
        self.client.cookiejar.set_cookie(_cookie("sessionid", me["sessionid"]))
        self.over = False
        # Tables do not start in step: spread the first hands over one period.
        gevent.sleep(self.rng.uniform(0, HAND_EVERY))
        self.tablet: Session | None = None
        if TABLET == "browser":
            self._open_tablet()
        else:
            self.sheet = self._load()

    # -- the offline-first tablet ----------------------------------------------------------
    def _open_tablet(self) -> None:
        """Load the sheet once and start the engine from its ``#tablet-context``."""
        response = self.client.get(self.url, name="sheet")
        context = tablet_context(response.text or "")
        if response.status_code != 200 or context is None:
            return
        self.match = context["match"]
        self.device = context["device"]
        self.revision = context["draft"]["revision"]
        self.tablet = Session(context["head"], context["state"])
        token = next((c.value for c in self.client.cookiejar if c.name == "csrftoken"), "")
        self.headers = {"X-CSRFToken": token, "Referer": f"{self.host}{self.url}"}

    def _tablet_hand(self) -> None:
        if self.tablet is None:
            self._open_tablet()
            if self.tablet is None:
                return
        view = self.tablet.view()
        if view["over"]:
            self.over = True
            return
        number = view["number"]
        taps = 0
        while not view["ready"] and taps < MAX_TAPS:
            event = tablet_event(self.rng, view)
            view = self.tablet.run({"op": "event", "event": event})
            body = {
                "number": number,
                "record": view["draft"],
                "device": self.device,
                "revision": self.revision,
                "takeover": False,
            }
            with self.client.put(
                f"/api/v1/matches/{self.match}/draft/",
                json=body,
                headers=self.headers,
                name="tap",
                catch_response=True,
            ) as synced:
                if synced.status_code == 200:
                    self.revision = synced.json()["revision"]
                else:
                    synced.failure(f"draft answered {synced.status_code}")
            taps += 1
            gevent.sleep(self.rng.uniform(*TAP_GAP))
        if not view["ready"]:
            self.tablet = None  # lost: start again from the server's sheet
            return
        record = self.tablet.run({"op": "save"})["saved"]["record"]
        with self.client.post(
            f"/api/v1/matches/{self.match}/hands/",
            json={"number": number, "device": self.device, **record},
            headers={**self.headers, "Idempotency-Key": f"{self.device}-{number}"},
            name="save",
            catch_response=True,
        ) as saved:
            if saved.status_code != 201:
                saved.failure(f"save answered {saved.status_code}, not 201")
                self.tablet = None
            elif self.tablet.view()["over"]:
                match_over(self.match)  # its teams answer the result from their links

    def _load(self) -> Sheet | None:
        """The sheet, or ``None`` when the server did not answer it (timeout, error)."""
        response = self.client.get(self.url, name="sheet")
        return Sheet(response.text) if response.status_code == 200 and response.text else None

    def _post(self, data: dict[str, str], name: str) -> Sheet | None:
        response = self.client.post(self.url, data=data, name=name)
        page = Sheet(response.text) if response.text else None
        # A refused step (400) still shows the sheet at the last valid step.
        return page if page is not None and page.open else self._load()

    @task
    def hand(self) -> None:
        if self.over:
            return
        if TABLET == "browser":
            self._tablet_hand()
            return
        sheet = self.sheet if self.sheet is not None and self.sheet.open else self._load()
        if sheet is None:
            # The server failed (already counted): start this hand again next period.
            self.sheet = None
            return
        if not sheet.open:
            # The match is decided: this table is done for the day.
            self.over = True
            return
        taps = 0
        while not sheet.can_save and taps < MAX_TAPS:
            step = self._post(sheet.next_step(self.rng), "tap")
            if step is None:
                self.sheet = None
                return
            sheet = step
            taps += 1
            gevent.sleep(self.rng.uniform(*TAP_GAP))
        if not sheet.can_save:
            self.sheet = None
            return
        number = sheet.number
        with self.client.post(
            self.url,
            data={**sheet.state(), "op": "save"},
            name="save",
            allow_redirects=False,
            catch_response=True,
        ) as saved:
            if saved.status_code != 302:
                saved.failure(f"save answered {saved.status_code}, not a redirect")
                self.sheet = None
                return
            # The tablet follows the redirect: the sheet of the next hand.
            self.sheet = self._load()
            if self.sheet is not None and not self.sheet.open:
                match_over(self.match_id)  # decided: its teams answer the result
            if self.sheet is not None and self.sheet.open and self.sheet.number != number + 1:
                saved.failure(f"hand {number} not stored: the sheet shows {self.sheet.number}")


def _cookie(name: str, value: str) -> http.cookiejar.Cookie:
    return http.cookiejar.Cookie(
        version=0,
        name=name,
        value=value,
        port=None,
        port_specified=False,
        domain="127.0.0.1",
        domain_specified=False,
        domain_initial_dot=False,
        path="/",
        path_specified=True,
        secure=False,
        expires=None,
        discard=True,
        comment=None,
        comment_url=None,
        rest={},
    )


class Spectator(FastHttpUser):
    """Someone following the day online: public pages, a few seconds apart."""

    fixed_count = SPECTATORS
    wait_time = between(*THINK)

    def on_start(self) -> None:
        _local_only(self.host)
        self.base = f"/c/{DATA['slug']}/"
        self.stage = f"{self.base}stages/{DATA['stage']}/"

    @task(6)
    def match(self) -> None:
        match = random.choice(DATA["matches"])
        self.client.get(f"{self.base}matches/{match}/", name="page: match")

    @task(2)
    def round(self) -> None:
        self.client.get(f"{self.stage}rounds/{DATA['round']}/", name="page: round")

    @task(2)
    def standings(self) -> None:
        self.client.get(f"{self.stage}standings/", name="page: standings")

    @task(1)
    def championship(self) -> None:
        self.client.get(self.base, name="page: championship")

    @task(1)
    def home(self) -> None:
        self.client.get("/", name="page: home")

    @task(1)
    def bracket(self) -> None:
        if DATA.get("bracket"):
            self.client.get(f"{self.stage}bracket/", name="page: bracket")


# --- the summary ------------------------------------------------------------------------

_samples: dict[str, list[float]] = {}
_failures: dict[str, int] = {}
_window = {"start": time.time()}


# Kinds summarised together as well as each on its own: a team's acts through its link.
TOGETHER = {"link act": ("check-in", "report", "confirm")}


def _kind(name: str) -> str:
    return "page" if name.startswith("page") else name


@events.request.add_listener
def _on_request(name: str, response_time: float, exception: Any, **_: Any) -> None:
    kind = _kind(name)
    _samples.setdefault(kind, []).append(response_time)
    if exception is not None:
        _failures[kind] = _failures.get(kind, 0) + 1


@events.test_start.add_listener
def _on_start(environment: Any, **_: Any) -> None:
    _local_only(environment.host)


@events.spawning_complete.add_listener
def _on_spawned(user_count: int, **_: Any) -> None:
    # Only the steady state counts: what the ramp-up measured is dropped.
    _samples.clear()
    _failures.clear()
    _window["start"] = time.time()


def _errors(entries: Any) -> list[dict[str, Any]]:
    """Locust's errors grouped by request name and error, without each URL."""
    grouped: dict[tuple[str, str, str], int] = {}
    for e in entries:
        key = (
            e.method or "",
            e.name,
            re.sub(r"(URL )?https?://[^\s',)]+[,:]? ?", "", str(e.error)),
        )
        grouped[key] = grouped.get(key, 0) + e.occurrences
    return [
        {"method": m, "name": n, "error": error, "count": count}
        for (m, n, error), count in sorted(grouped.items(), key=lambda item: -item[1])
    ]


def _percentile(ordered: list[float], p: float) -> float:
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@events.quitting.add_listener
def _on_quit(environment: Any, **_: Any) -> None:
    if not SUMMARY:
        return
    seconds = time.time() - _window["start"]
    groups = {kind: (kind,) for kind in _samples}
    groups.update({k: parts for k, parts in TOGETHER.items() if set(parts) & set(_samples)})
    kinds = {}
    for kind, parts in sorted(groups.items()):
        ordered = sorted(t for part in parts for t in _samples.get(part, []))
        kinds[kind] = {
            "requests": len(ordered),
            "failures": sum(_failures.get(part, 0) for part in parts),
            "rps": len(ordered) / seconds if seconds else 0.0,
            **{f"p{p}": _percentile(ordered, p) for p in (50, 95, 99)},
            "max": ordered[-1] if ordered else float("nan"),
        }
    total = sum(len(t) for t in _samples.values())
    summary = {
        "seconds": seconds,
        "users": environment.runner.user_count if environment.runner else None,
        "requests": total,
        "failures": sum(_failures.values()),
        "rps": total / seconds if seconds else 0.0,
        "kinds": kinds,
        "errors": _errors(environment.stats.errors.values()),
    }
    Path(SUMMARY).write_text(json.dumps(summary, indent=1))
