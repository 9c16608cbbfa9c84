"""An organiser corrects a recorded hand with the referee's buttons: the editor opens on
the hand as recorded, steps are undone and tapped again (the engine's legal actions only),
and the save goes through the results services with its reason, or changes nothing.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tests.referees.conftest import Tablet, html_of, make_match
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import StaffFactory
from tournaments.models import HandRevision, Match
from tournaments.results import services as result_services

POINT_A = {"events": [{"trick": "A"}, {"trick": "A"}]}


@pytest.fixture
def organiser(db):
    return StaffFactory(username="organitzadora")


@pytest.fixture
def played(referee, organiser) -> Match:
    """Two hands: a point to A, then a chico to A by a falta envido given to A."""
    match = make_match(referee=referee)
    match.stage.championship.organisers.add(organiser)
    result_services.match_start(match=match)
    for record in (POINT_A, chico_hand(match, "A")):
        result_services.hand_record(match=match, record=record, recorded_by=referee)
    match.refresh_from_db()
    assert (match.chicos_a, match.chicos_b) == (1, 0)
    return match


@pytest.fixture
def editor(client, organiser):
    client.force_login(organiser)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"

    def open_(match: Match, number: int) -> Tablet:
        tablet = Tablet(client, match)
        tablet.url = reverse("referees:hand_editor", args=[match.pk, number])
        return tablet.open()

    return open_


def test_the_falta_envido_given_to_the_other_side_with_two_taps(played, editor):
    hand = played.hands.get(number=2)
    page = editor(played, 2)
    recorded = hand.record["events"]
    assert page.events["events"] == recorded  # the hand as recorded
    assert "Save the correction" in page.page
    assert "Correct hand 2" in page.page
    # The browser must not hold every tap until a reason is typed: the save checks it.
    reason = re.search(r'<textarea[^>]*name="reason"[^>]*>', page.raw)
    assert reason and "required" not in reason.group(0)

    page.op("undo")
    assert page.events["events"] == recorded[:-1]
    assert "Save the correction" not in page.page  # not decided any more
    # The falta envido to B (A leads by 1: B gets 29), then B takes the two tricks.
    page.tap("Envido to Beto and Bruno")
    assert "Save the correction" not in page.page
    page.tap("Trick to Beto and Bruno")
    page.tap("Trick to Beto and Bruno")
    page.post({"op": "save", "reason": "The referee gave the envido to the wrong side"}, status=302)

    hand.refresh_from_db()
    changed = [{"envido_winner": "B"}, {"trick": "B"}, {"trick": "B"}]
    assert hand.record["events"] == [*recorded[:-1], *changed]
    played.refresh_from_db()
    assert (played.chicos_a, played.chicos_b) == (0, 1)
    revision = played.revisions.filter(action=HandRevision.Action.CORRECTED).get()
    assert revision.reason == "The referee gave the envido to the wrong side"


def test_no_reason_no_decision_or_a_refused_step_change_nothing(played, editor):
    hand = played.hands.get(number=2)
    before = hand.record
    page = editor(played, 2)
    page.op("undo")
    page.post({"op": "save", "reason": "why not"}, status=400)
    assert "The hand is not decided yet" in page.page

    # A step the rules refuse: a second falta envido in the same hand.
    mano = before["events"][0]["by"]
    page.post({"action": json.dumps({"by": mano, "call": "falta_envido"})}, status=400)
    assert "entry-errors" in page.raw
    assert page.events["events"] == before["events"][:-1]  # the last valid step kept

    page.op("recorded")
    assert page.events["events"] == before["events"]
    page.post({"op": "save", "reason": ""}, status=400)
    assert "This field is required." in page.page
    hand.refresh_from_db()
    assert hand.record == before and not played.revisions.filter(action="corrected").exists()


def test_a_change_made_meanwhile_is_refused(played, editor, referee):
    page = editor(played, 2)
    page.op("undo")
    page.tap("Envido to Beto and Bruno")
    page.tap("Trick to Beto and Bruno")
    page.tap("Trick to Beto and Bruno")
    result_services.hand_record(match=played, record=POINT_A, recorded_by=referee)
    page.post({"op": "save", "reason": "wrong side"}, status=400)
    assert played.hands.get(number=2).record["events"][-1] == {"envido_winner": "A"}


def test_the_results_page_links_the_editor_and_strangers_get_404(played, editor, client):
    results = reverse("organiser:match_results", args=[played.stage.championship.slug, played.pk])
    page = html_of(client.get(results))
    assert reverse("referees:hand_editor", args=[played.pk, 2]) in page
    assert client.get(reverse("referees:hand_editor", args=[played.pk, 9])).status_code == 404
    client.force_login(StaffFactory(username="otro", is_staff=False))
    assert client.get(reverse("referees:hand_editor", args=[played.pk, 2])).status_code == 404
