"""The referee's match sheet as a load user reads it: hidden state and the buttons offered.

Shared by the locustfile and the profiler. The sheet (templates/referees/sheet.html) puts
the hand so far in hidden fields (``number``, ``hand``) and each legal next event in an
``action`` button (referees/README.md); a load user taps those buttons, nothing else.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

_NUMBER = re.compile(r'name="number" value="(\d+)"')
_HAND = re.compile(r'name="hand" value="([^"]*)"')
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_ACTION = re.compile(r'name="action" value="([^"]*)"')
_TABLET_CONTEXT = re.compile(
    r'<script id="tablet-context" type="application/json">(.*?)</script>', re.S
)


class Sheet:
    """What a referee reads on the sheet: the hidden state and the buttons offered."""

    def __init__(self, text: str) -> None:
        number = _NUMBER.search(text)
        hand = _HAND.search(text)
        csrf = _CSRF.search(text)
        self.number = int(number.group(1)) if number else None
        self.hand = html.unescape(hand.group(1)) if hand else ""
        self.csrf = csrf.group(1) if csrf else ""
        self.actions = [html.unescape(v) for v in _ACTION.findall(text)]
        self.can_save = 'name="op" value="save"' in text
        self.next_pair = 'name="op" value="next_pair"' in text

    @property
    def open(self) -> bool:
        """A hand is being entered (a match over shows no entry)."""
        return self.number is not None and bool(self.csrf)

    def state(self) -> dict[str, str]:
        return {"csrfmiddlewaretoken": self.csrf, "number": str(self.number), "hand": self.hand}

    def next_step(self, rng: random.Random) -> dict[str, str]:
        """The next tap: next pair when offered, else one of the action buttons."""
        if self.next_pair:
            return {**self.state(), "op": "next_pair"}
        if self.actions:
            return {**self.state(), "action": choose(rng, self.actions)}
        return {**self.state(), "op": "reset"}


def choose(rng: random.Random, actions: list[str]) -> str:
    """One of the buttons; as the demo plays (tournaments/demo/__init__.py), the mazo less often."""
    weights = [0.15 if '"mazo"' in a else 1.0 for a in actions]
    return rng.choices(actions, weights)[0]


def tablet_context(text: str) -> dict[str, Any] | None:
    """What the sheet hands the offline-first tablet (``#tablet-context``): the match, the
    device, the draft and the engine's head and state; None when the page has none."""
    found = _TABLET_CONTEXT.search(text)
    return json.loads(found.group(1)) if found else None


def tablet_event(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
    """One of the events the tablet's engine offers (``view["actions"]``), the mazo less
    often."""
    actions = view["actions"]
    weights = [1 if "mazo" in a["event"] else 6 for a in actions]
    return rng.choices(actions, weights)[0]["event"]
