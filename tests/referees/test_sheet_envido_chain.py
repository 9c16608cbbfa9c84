"""The sheet offers exactly the envido raises the championship's rules allow (option
``envido_chain``, docs/rules.md "Envido"): the tablet shows the engine's legal actions,
so Trucardo's free chain (004) is there and 001's ladder keeps argentine to its order."""

from __future__ import annotations

import pytest

from tests.referees.conftest import make_match
from tournaments.results import services as result_services

ENVIDO_CALLS = ("calls envido", "calls real envido", "calls falta envido")


def envido_buttons(page) -> set[str]:
    return {label for label in page.buttons() if label.endswith(ENVIDO_CALLS)}


@pytest.fixture
def sheet(referee, tablet):
    def open_(rules):
        match = make_match(rules=rules, referee=referee)
        result_services.match_start(match=match)
        return tablet(match)

    return open_


def test_a_trucardo_sheet_offers_envido_over_real_envido_up_to_three_calls(sheet):
    page = sheet({"preset": "trucardo"})
    page.tap("Ana calls real envido")
    # 004: any of the three answers a real envido; the raise is the other side's.
    assert envido_buttons(page) == {
        f"{name} calls {call}"
        for name in ("Beto", "Bruno")
        for call in ("envido", "real envido", "falta envido")
    }
    page.tap("Beto calls envido")
    page.tap("Alba calls envido")
    # A call and two replies: no fourth call, only the answers.
    assert envido_buttons(page) == set()
    assert {"Beto: quiero", "Beto: no quiero"} <= set(page.buttons())
    page.tap("Beto: quiero")
    said = [e.get("call") or e.get("answer") for e in page.events["events"]]
    assert said == ["real_envido", "envido", "envido", "quiero"]


def test_a_trucardo_sheet_offers_three_envidos_and_not_a_fourth(sheet):
    page = sheet({"preset": "trucardo"})
    page.tap("Ana calls envido")
    page.tap("Beto calls envido")
    assert "Ana calls envido" in envido_buttons(page)
    page.tap("Ana calls envido")
    assert envido_buttons(page) == set()
    assert [e.get("call") for e in page.events["events"]] == ["envido", "envido", "envido"]


def test_an_argentine_sheet_keeps_the_ladder(sheet):
    page = sheet({"preset": "argentine"})
    page.tap("Ana calls real envido")
    # 001: after a real envido only the falta envido is left.
    assert envido_buttons(page) == {"Beto calls falta envido", "Bruno calls falta envido"}
