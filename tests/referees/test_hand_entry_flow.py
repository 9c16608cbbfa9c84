"""Recording hands at the table through the tablet's buttons (Django test client)."""

from __future__ import annotations

from tests.referees.conftest import html_of, key
from tournaments.models import Hand


def test_a_truco_accepted_and_two_tricks_saved_then_the_mano_moves(started, tablet):
    match = started
    page = tablet(match)
    assert "Mano: Ana" in page.page
    assert page.events == {"events": []}
    page.tap("Ana calls truco")
    assert "Ana calls truco" in page.page  # the summary, in words
    page.tap("Beto: quiero")
    page.tap("Trick to Ana and Alba")
    assert "Save hand" not in page.page
    page.tap("Trick to Ana and Alba")
    assert "Save hand" in page.page
    assert "Points: Los Anchos 2 – 0 Las Flores" in page.page
    assert Hand.objects.count() == 0  # nothing is stored before the referee saves

    page.save()
    hand = Hand.objects.get(match=match)
    assert hand.number == 1
    assert (hand.points_a, hand.points_b) == (2, 0)
    assert hand.record == {
        "events": [
            {"by": key(match, "Ana"), "call": "truco"},
            {"by": key(match, "Beto"), "answer": "quiero"},
            {"trick": "A"},
            {"trick": "A"},
        ]
    }
    assert "Hand 1 saved: Los Anchos 2 – 0 Las Flores." in page.page
    assert '<p class="scoreboard__points" data-side="A">2</p>' in page.page
    assert "Mano: Beto" in page.page  # the mano moved one seat counter-clockwise
    assert "Hand 2" in page.page
    assert page.events == {"events": []}


def test_undo_and_start_over_store_no_hand(started, tablet):
    page = tablet(started)
    page.tap("Ana calls envido")
    page.tap("Beto: no quiero")
    assert len(page.events["events"]) == 2
    page.op("undo")
    assert page.events["events"] == [{"by": key(started, "Ana"), "call": "envido"}]
    assert "Beto: no quiero" in page.buttons()
    # Starting again asks first: the hand is still there until the referee confirms.
    page.op("reset")
    assert "Start hand 1 again?" in page.page
    assert page.events["events"] == [{"by": key(started, "Ana"), "call": "envido"}]
    page.op("reset_confirm")
    assert page.events == {"events": []}
    # ... and can be undone.
    assert "Undo the restart" in page.page
    page.op("reset_undo")
    assert page.events["events"] == [{"by": key(started, "Ana"), "call": "envido"}]
    assert "Undo the restart" not in page.page
    assert Hand.objects.count() == 0


def test_saving_an_undecided_hand_is_refused(started, tablet):
    page = tablet(started)
    page.tap("Trick to Ana and Alba")
    page.op("save", status=400)
    assert "The hand is not decided yet" in html_of(page.response)
    assert Hand.objects.count() == 0
