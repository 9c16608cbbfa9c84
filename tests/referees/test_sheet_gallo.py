"""The referee's sheet at a table of three (gallo): three players seated, three scores,
the gallo of the hand marked as the engine says, the engine's legal actions offered."""

from __future__ import annotations

import json
import re

import pytest

from tests.tournaments.test_gallo_tables import _table
from tournaments.models import ChampionshipReferee, Hand
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services


@pytest.fixture
def table(referee):
    match = _table()
    ChampionshipReferee.objects.create(championship=match.stage.championship, user=referee)
    result_services.match_assign(match=match, referee=referee)
    result_services.match_start(match=match)
    match.refresh_from_db()
    return match


def _gallo(page) -> str:
    found = re.search(r'data-gallo-player="([^"]+)"', page.raw)
    return found.group(1) if found else ""


def test_the_sheet_seats_three_and_marks_the_gallo_the_engine_names(table, tablet):
    page = tablet(table)
    for side in "ABC":
        assert f'data-scoreboard-side="{side}"' in page.raw
    # Por turno the dealer (the third seat) is the first hand's gallo.
    first = table.seats[2]
    assert _gallo(page) == first
    # The gallo's calls are offered on his own card, facing the pair's column.
    buttons = page.buttons()
    gallo_name = records.names(result_selectors.match_detail(pk=table.pk))[first]
    assert f"{gallo_name} calls truco" in buttons
    assert "Gallo: " + gallo_name in page.page


def test_a_whole_table_through_the_tablet(table, tablet):
    page = tablet(table)
    names = records.names(result_selectors.match_detail(pk=table.pk))
    first = names[table.seats[0]]
    gallos = []
    for _hand in range(40):
        if "This match is over" in page.page:
            break
        gallos.append(_gallo(page))
        # The first seated calls truco, it is accepted, his side takes two tricks.
        page.tap(f"{first} calls truco")
        page.tap(next(label for label in page.buttons() if label.endswith(": quiero")))
        trick = next(
            event
            for label, event in page.buttons().items()
            if label.startswith("Trick to ") and first in label
        )
        page.post({"action": trick})
        page.post({"action": trick})
        assert "Save hand" in page.page
        page.save()
    table.refresh_from_db()
    assert table.is_decided
    assert Hand.objects.filter(match=table).count() == len(gallos)
    # Por turno the gallo moves every hand, as the engine says: three different gallos.
    assert gallos[:3] == [table.seats[2], table.seats[0], table.seats[1]]
    assert sorted(table.places.values()) in ([1, 2, 3], [1, 2, 2], [1, 1, 3], [1, 1, 1])
    # Every player of the table answers the result, side C too.
    assert 'name="side" value="C"' in page.raw


def test_refusals_at_the_table_are_the_engines_sentence_in_spanish(table, tablet):
    page = tablet(table)
    page.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    page.open()
    names = records.names(result_selectors.match_detail(pk=table.pk))
    gallo, mano = table.seats[2], table.seats[0]
    # A player not at the table.
    page.post({"action": json.dumps({"by": "p999999", "call": "truco"})}, status=400)
    assert "p999999 no juega esta mano." in page.page
    # A gallo out of turn, as the tablet's script posts a hand (the API, in the
    # referee's language): refused with the engine's sentence.
    posted = page.client.post(
        f"/api/v1/matches/{table.pk}/hands/",
        {"number": 1, "gallo": mano, "events": []},
        content_type="application/json",
    )
    assert posted.status_code == 400
    assert posted.json()["error"]["message"] == (
        f"El gallo de esta mano es {names[gallo]}, no {names[mano]}."
    )
    # The sheet's own page never takes a gallo from what it is sent: the engine names it.
    forged = {"gallo": mano, "events": []}
    page.client.post(page.url, {"number": "1", "hand": json.dumps(forged), "op": "save"})
    page.open()
    assert _gallo(page) == gallo
    # A hand told as if the table had two sides: a trick to a side that is not there.
    page.open()
    page.post({"action": json.dumps({"trick": "D"})}, status=400)
    assert "D no es un bando de esta mano." in page.page
    assert not Hand.objects.filter(match=table).exists()


def test_a_hand_of_three_entered_card_by_card(table, tablet):
    result_services.match_assign(match=table, referee=table.referee, entry="cards")
    page = tablet(table)
    names = records.names(result_selectors.match_detail(pk=table.pk))
    mano, second, gallo = table.seats
    assert not any(label.startswith("Trick to") for label in page.buttons())
    # The gallo's record lists the three cards he kept (he discarded the fourth).
    page.op(
        "cards",
        **{
            f"cards-{mano}": "1E 2E 3E",
            f"cards-{second}": "4C 5C 6C",
            f"cards-{gallo}": "4O 5B 6O",
        },
    )
    assert f"{names[mano]} plays" in page.page
    # Each player plays in the hand's order, mano first; the gallo plays third.
    for card in (
        "1 of swords",
        "4 of cups",
        "4 of coins",
        "2 of swords",
        "5 of cups",
        "5 of clubs",
    ):
        page.tap(card)
    assert "Save hand" in page.page
    # The hand's points by its two sides, the pair named by both players.
    assert f"Points: {names[mano]} and {names[second]} 1 – {names[gallo]} 0" in page.page
    page.save()
    hand = Hand.objects.get(match=table)
    assert hand.record["cards"][gallo] == ["4O", "5B", "6O"]
    # The pair (mano and second) took the first two tricks with the 1 and 2 of swords:
    # the hand's point goes to each of them, the gallo none.
    assert (hand.points_a, hand.points_b, hand.points_c) == (1, 1, 0)
