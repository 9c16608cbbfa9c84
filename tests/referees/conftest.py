"""Fixtures of the referee tests: a match at a table, its referee, and a tablet client."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from html import unescape
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory
from tournaments.championships import services as championship_services
from tournaments.models import Match
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

PAIR_NAMES = (("Ana", "Alba"), ("Beto", "Bruno"))
VISIBLE = re.compile(r'<script id="tablet-context" type="application/json">.*?</script>', re.S)


def make_match(
    *,
    rules: dict | None = None,
    teams: Sequence[Sequence[str]] = PAIR_NAMES,
    team_names: Sequence[str] = ("Los Anchos", "Las Flores"),
    captains: Sequence[str | None] = (None, None),
    referee: Any = None,
) -> Match:
    """A round-robin match between two teams of the given players, assigned to ``referee``
    (put on its championship's list of referees)."""
    championship = ChampionshipFactory(
        rules=rules or {"preset": "argentine"}, team_size=len(teams[0])
    )
    for seed, (name, players, captain) in enumerate(
        zip(team_names, teams, captains, strict=True), start=1
    ):
        championship_services.team_create(
            championship=championship, name=name, seed=seed, players=players, captain=captain
        )
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    if referee is not None:
        # A referee of the championship: only its list's referees may be assigned.
        championship_services.referee_add(championship=championship, user=referee, added_by=None)
        result_services.match_assign(match=match, referee=referee, table="7")
    return match


def key(match: Match, name: str) -> str:
    """The record key (p<id>) of the player called ``name`` in ``match``."""
    for team in (match.team_a, match.team_b):
        for membership in team.memberships.select_related("player"):
            if membership.player.name == name:
                return membership.player.record_key
    raise KeyError(name)


def html_of(response) -> str:
    return unescape(VISIBLE.sub("", response.content.decode()))


class Tablet:
    """A referee's tablet: reads the sheet's hidden fields and taps buttons by label."""

    def __init__(self, client, match: Match) -> None:
        self.client = client
        self.match = match
        self.url = reverse("referees:sheet", args=[match.pk])
        self.page = self.raw = ""
        self.response = None

    def open(self) -> Tablet:
        self.response = self.client.get(self.url)
        assert self.response.status_code == 200
        self._read()
        return self

    def _read(self) -> None:
        self.raw = self.response.content.decode()
        # What the referee reads: the tablet's JSON data (labels for its script) left out.
        self.page = unescape(VISIBLE.sub("", self.raw))

    @property
    def context(self) -> Any:
        """The page's ``tablet-context`` JSON (docs/api.md, "The tablet page")."""
        found = re.search(
            r'<script id="tablet-context" type="application/json">(.*?)</script>', self.raw, re.S
        )
        assert found, "no tablet-context on the page"
        return json.loads(found.group(1))

    @property
    def sync(self) -> str:
        found = re.search(r'data-sync="([a-z]+)"', self.raw)
        assert found, "no sync indicator on the page"
        return found.group(1)

    def hidden(self, name: str) -> str:
        found = re.search(rf'name="{name}" value="([^"]*)"', self.raw)
        assert found, f"no hidden {name} on the page"
        return unescape(found.group(1))

    @property
    def events(self) -> Any:
        return json.loads(self.hidden("hand"))

    def buttons(self) -> dict[str, str]:
        """Button label (its aria-label, else its text) -> the event it posts."""
        found = {}
        for attrs, value, text in re.findall(
            r'<button([^>]*name="action" value="([^"]*)"[^>]*)>([^<]*)</button>', self.raw
        ):
            label = re.search(r'aria-label="([^"]*)"', attrs)
            found[unescape(label.group(1) if label else text).strip()] = unescape(value)
        return found

    def post(self, data: dict[str, Any], *, status: int = 200):
        payload = {"number": self.hidden("number"), "hand": self.hidden("hand"), **data}
        if 'name="revision"' in self.raw:
            payload.setdefault("revision", self.hidden("revision"))
        if 'name="undo"' in self.raw:
            payload.setdefault("undo", self.hidden("undo"))
        self.response = self.client.post(self.url, payload)
        assert self.response.status_code == status, html_of(self.response)[:3000]
        if status != 302:
            self._read()
        return self.response

    def tap(self, label: str, *, status: int = 200):
        buttons = self.buttons()
        assert label in buttons, f"{label!r} not among {sorted(buttons)}"
        return self.post({"action": buttons[label]}, status=status)

    def op(self, op: str, *, status: int = 200, **data: Any):
        return self.post({"op": op, **data}, status=status)

    def save(self):
        response = self.op("save", status=302)
        self.open()
        return response


@pytest.fixture
def referee(db):
    return RefereeFactory(username="arbitra")


@pytest.fixture
def match(referee) -> Match:
    return make_match(referee=referee)


@pytest.fixture
def tablet(client, referee) -> Callable[[Match], Tablet]:
    client.force_login(referee)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"  # tests read the English labels

    def open_(match: Match) -> Tablet:
        return Tablet(client, match).open()

    return open_


@pytest.fixture
def started(match) -> Match:
    result_services.match_start(match=match)
    match.refresh_from_db()
    return match


@pytest.fixture
def user_factory(db):
    def make(username: str, **fields: Any):
        return get_user_model().objects.create_user(username=username, **fields)

    return make
