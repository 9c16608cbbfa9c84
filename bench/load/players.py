"""The players of the load benchmark: each team's phone, on its personal link.

Imported by ``locustfile.py`` (Locust runs every user class the locustfile holds). A
``Player`` is one team's phone (``BENCH_PLAYERS`` of them, the teams of ``setup.py``'s
``teams`` in order: those that report first, each match's two teams side by side):

1. It waits for the check-in window: the measured window's start (the spawning done),
   then a moment of the first ``BENCH_CHECK_IN`` seconds (``run.py``: the first 5
   minutes of the window, or its first third when shorter), and opens its link
   (``link``) and checks in (``check-in``, a POST with the page's CSRF token; the page
   read again must say "Checked in").
2. It looks for its table on the schedule, searched by one of its players' names or its
   team's (``search``), and reads its team's page (``team``) and a player's (``person``).
3. Until its match ends, every ``BENCH_PLAYER_THINK`` seconds (15 to 45: a player at a
   table glances at his phone between hands) it reads one page: its link, the schedule
   searched, a team's or a person's page (its own or its opponent's), the championship's
   statistics (``statistics``) or its circuit's page (``circuit``).
4. At its match's end: where the teams report (``setup.py``'s stage with nobody keeping
   the score), the reporting team sends the result from its link (``report``) at a time
   of the window set for its match (spread over what is left after the check-in, leaving
   ``CONFIRM_ROOM`` seconds); the other team, told at the table, confirms it from its own
   link a few seconds later (``confirm``; ``BENCH_PLAYER_TOLD`` seconds, 3 to 10). At a
   referee's table, both teams confirm once the referee saves the deciding hand
   (``match_over``, called by the ``Referee``). Each act's page read again must show the
   answer.

A second phone of the same team (more players than teams) only reads: the acts are the
first phone's. The acts are POSTs answered with a redirect (302), measured alone; the
page the browser then loads is a ``link``.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import Any

import gevent
from gevent.event import Event
from locust import FastHttpUser, constant, events, task

DATA = json.loads(Path(os.environ.get("BENCH_LOAD_DATA", "bench/load/out/data.json")).read_text())
TEAMS: list[dict[str, Any]] = DATA.get("teams", [])
PLAYERS = int(os.environ.get("BENCH_PLAYERS", 0))
DURATION = float(os.environ.get("BENCH_DURATION", 180))
CHECK_IN = float(os.environ.get("BENCH_CHECK_IN", min(300.0, DURATION / 3)))


def _seconds(name: str, default: str) -> tuple[float, ...]:
    """A range of seconds from the environment, written ``low,high``."""
    return tuple(float(x) for x in os.environ.get(name, default).split(","))


THINK = _seconds("BENCH_PLAYER_THINK", "15,45")
# The last seconds of the window, left for the other team to confirm the last report.
CONFIRM_ROOM = 30.0
# From "we've sent it" at the table to the other team's confirmation on its phone.
TOLD = _seconds("BENCH_PLAYER_TOLD", "3,10")

_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_window = Event()  # set when the measured window starts
_window_start = [0.0]
_over: dict[int, Event] = {}  # a match's end, as its teams learn it
_phones = count()


def match_over(match: int) -> None:
    """The match is decided (the referee's deciding hand, or a team's report): its teams
    answer the result."""
    _over.setdefault(match, Event()).set()


@events.spawning_complete.add_listener
def _open_window(**_: Any) -> None:
    _window_start[0] = time.monotonic()
    _window.set()


# What the page shows after an act that succeeded (``templates/_messages.html``).
_DONE = 'class="message message--success"'


def _report_ends() -> dict[int, float]:
    """When each match the teams report ends, in seconds into the window: evenly over what
    the window leaves after the check-in (at least right after it)."""
    matches = DATA.get("report_matches", [])
    room = max(0.0, DURATION - CHECK_IN - CONFIRM_ROOM)
    return {m: CHECK_IN + (i + 0.5) / len(matches) * room for i, m in enumerate(matches)}


_ENDS = _report_ends()


class Player(FastHttpUser):
    """One team's phone on its personal link: check-in, the pages a player reads, and its
    match's result reported or confirmed at its end."""

    fixed_count = PLAYERS
    wait_time = constant(0)  # the day's script paces itself

    def on_start(self) -> None:
        phone = next(_phones)
        self.me = TEAMS[phone % len(TEAMS)]
        self.acts = phone < len(TEAMS)  # the team's first phone acts, another only reads
        self.rng = random.Random(f"{self.me['token'][:8]}-{phone}")
        self.base = f"/c/{DATA['slug']}/"
        self.link = f"{self.base}team/{self.me['token']}/"
        self.match = self.me["match"]
        self.answered = not self.acts
        self.csrf = ""

    # -- the link --------------------------------------------------------------------
    def _open(self, expect: str = "", why: str = "") -> str:
        """The team's page (``link``); a failure when it does not show ``expect``."""
        with self.client.get(self.link, name="link", catch_response=True) as page:
            text = page.text or ""
            if page.status_code != 200:
                page.failure(f"the link answered {page.status_code}")
                return ""
            if expect and expect not in text:
                page.failure(why)
            found = _CSRF.search(text)
            self.csrf = found.group(1) if found else self.csrf
            return text

    def _act(self, name: str, data: dict[str, str], expect: str, why: str) -> bool:
        """One act posted from the page (``name``): a redirect to the page, which, read
        again, shows ``expect``; else the act is a failure."""
        with self.client.post(
            self.link,
            data={"csrfmiddlewaretoken": self.csrf, **data},
            headers={"Referer": f"{self.host}/"},  # strict-origin: the origin alone
            name=name,
            allow_redirects=False,
            catch_response=True,
        ) as posted:
            if posted.status_code != 302:
                posted.failure(f"{name} answered {posted.status_code}, not a redirect")
                return False
            if expect not in self._open():
                posted.failure(why)
                return False
        return True

    def _check_in(self) -> None:
        if not self.acts:
            self._open()  # another phone of the team: it reads the page
            return
        page = self._open('value="check_in"', "the link offers no check-in")
        if 'value="check_in"' in page:
            # The answer is the page's message, not its check-in section: a team of the
            # stage whose round it waited for (reported and confirmed meanwhile by the
            # other teams) is offered that stage's next round at once, as it should be.
            self._act("check-in", {"action": "check_in"}, _DONE, "not checked in")

    def _report(self) -> None:
        page = self._open(f'id="report-{self.match}"', "the link offers no report")
        if f'id="report-{self.match}"' not in page:
            self.answered = True  # nothing to report: counted on the page already
            return
        data = {"action": "report", "match": str(self.match), **self.me["result"]}
        if self._act("report", data, f'id="answered-{self.match}"', "the report not shown"):
            match_over(self.match)
        self.answered = True

    def _confirm(self) -> None:
        gevent.sleep(self.rng.uniform(*TOLD))
        form = f'name="match" value="{self.match}"'
        page = self._open(form, "the link offers no result to confirm")
        if form in page and 'value="confirm"' in page:
            data = {"action": "confirm", "match": str(self.match)}
            self._act("confirm", data, f'id="answered-{self.match}"', "the answer not shown")
        self.answered = True

    # -- the public pages ------------------------------------------------------------
    def _search(self) -> None:
        name = self.rng.choice([*self.me["names"], self.me["name"]])
        self.client.get(f"{self.base}schedule/", params={"q": name}, name="search")

    def _team(self) -> None:
        team = self.rng.choice([self.me["team"], self.me["opponent"]])
        self.client.get(f"{self.base}teams/{team}/", name="team")

    def _person(self) -> None:
        self.client.get(f"/people/{self.rng.choice(self.me['people'])}/", name="person")

    def _statistics(self) -> None:
        self.client.get(f"{self.base}statistics/", name="statistics")

    def _circuit(self) -> None:
        self.client.get(f"/circuits/{DATA['circuit']}/", name="circuit")

    def _browse(self) -> None:
        reads: list[tuple[Callable[[], Any], int]] = [
            (self._open, 3),
            (self._search, 2),
            (self._team, 2),
            (self._person, 2),
            (self._statistics, 1),
            (self._circuit, 1),
        ]
        self.rng.choices([r for r, _w in reads], [w for _r, w in reads])[0]()

    # -- the day ---------------------------------------------------------------------
    def _due(self) -> bool:
        """Whether the team is to answer its match's result now."""
        if self.answered:
            return False
        if self.me["reports"]:
            return time.monotonic() - _window_start[0] >= _ENDS[self.match]
        return _over.setdefault(self.match, Event()).is_set()

    def _pause(self, seconds: float) -> None:
        """A player's pause, cut short by its match's end."""
        if self.answered:
            gevent.sleep(seconds)
        elif self.me["reports"]:
            left = _ENDS[self.match] - (time.monotonic() - _window_start[0])
            gevent.sleep(max(0.0, min(seconds, left)))
        else:
            _over.setdefault(self.match, Event()).wait(seconds)

    @task
    def day(self) -> None:
        _window.wait()
        gevent.sleep(self.rng.uniform(0, CHECK_IN))
        self._check_in()
        self._search()
        self._team()
        self._person()
        while True:
            if self._due():
                if self.me["reports"]:
                    self._report()
                else:
                    self._confirm()
                continue
            self._pause(self.rng.uniform(*THINK))
            if not self._due():
                self._browse()
