"""Posts the engine refuses, pages that went stale, and taking back the last hand."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.referees.conftest import html_of, key, make_match
from tournaments.models import Hand, Match
from tournaments.results import services as result_services


def test_an_illegal_action_stores_nothing_and_says_why_in_english(started, tablet):
    page = tablet(started)
    page.tap("Trick to Ana and Alba")
    illegal = json.dumps({"by": key(started, "Beto"), "answer": "quiero"})
    page.post({"action": illegal}, status=400)
    assert "There is no call waiting for an answer." in page.page
    assert page.events == {"events": [{"trick": "A"}]}  # the hand is as it was
    assert Hand.objects.count() == 0


def test_an_illegal_action_says_why_in_spanish(started, tablet):
    page = tablet(started)
    page.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    page.open()
    assert "Ana canta truco" in page.buttons()
    illegal = json.dumps({"by": key(started, "Beto"), "answer": "quiero"})
    page.post({"action": illegal}, status=400)
    assert "No hay ningún canto esperando respuesta." in page.page
    stranger = json.dumps({"by": "p999", "call": "truco"})
    page.post({"action": stranger}, status=400)
    assert "p999 no juega esta mano." in page.page
    assert Hand.objects.count() == 0


def test_events_that_no_longer_replay_are_cut_at_the_first_bad_one(started, tablet):
    page = tablet(started)
    beto = key(started, "Beto")
    forged = {"events": [{"trick": "A"}, {"by": beto, "answer": "quiero"}, {"trick": "A"}]}
    response = page.client.post(page.url, {"number": "1", "hand": json.dumps(forged), "op": "save"})
    assert response.status_code == 400
    page.response = response
    page._read()
    assert "There is no call waiting for an answer." in page.page
    assert page.events == {"events": [{"trick": "A"}]}
    assert Hand.objects.count() == 0


@pytest.mark.parametrize("hand", ["{not json", "[1, 2]", json.dumps({"events": "trick"})])
def test_a_damaged_hidden_field_is_refused(started, tablet, hand):
    page = tablet(started)
    response = page.client.post(page.url, {"number": "1", "hand": hand, "op": "save"})
    assert response.status_code == 400
    assert "The hand sent by the page is damaged or out of date" in html_of(response)
    assert Hand.objects.count() == 0


def test_a_stale_hand_number_stores_nothing(started, tablet, referee):
    page = tablet(started)
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    # Meanwhile another referee records hand 1 from another tablet.
    result_services.hand_record(
        match=started, record={"events": [{"trick": "B"}, {"trick": "B"}]}, recorded_by=referee
    )
    response = page.op("save", status=302)
    assert response["Location"] == reverse("referees:sheet", args=[started.pk])
    assert Hand.objects.count() == 1
    assert Hand.objects.get().points_b == 1  # the other referee's hand, untouched
    page.open()
    assert "The match has changed since this page was shown (it now expects hand 2)" in page.page
    assert "Hand 2" in page.page


def test_a_stale_button_for_an_old_hand_is_refused(started, tablet):
    page = tablet(started)
    response = page.client.post(
        page.url, {"number": "5", "hand": "{}", "action": json.dumps({"trick": "A"})}
    )
    assert response.status_code == 302
    assert Hand.objects.count() == 0


def test_undo_deletes_the_last_hand_and_the_score_goes_back(started, tablet):
    page = tablet(started)
    for _ in range(2):
        page.tap("Trick to Ana and Alba")
        page.tap("Trick to Ana and Alba")
        page.save()
    assert '<p class="scoreboard__points" data-side="A">2</p>' in page.raw

    undo_url = reverse("referees:undo", args=[started.pk])
    confirm = page.client.get(undo_url)
    assert confirm.status_code == 200
    assert "Delete hand 2" in html_of(confirm)
    assert Hand.objects.count() == 2  # asking is not deleting

    response = page.client.post(undo_url, {"number": "2"})
    assert response.status_code == 302
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    page.open()
    assert "Hand 2 deleted." in page.page
    assert '<p class="scoreboard__points" data-side="A">1</p>' in page.raw
    assert "Mano: Beto" in page.page


def test_undo_of_a_hand_that_is_no_longer_the_last_is_refused(started, tablet):
    page = tablet(started)
    for _ in range(2):
        result_services.hand_record(
            match=started, record={"events": [{"trick": "A"}, {"trick": "A"}]}, recorded_by=None
        )
    response = page.client.post(reverse("referees:undo", args=[started.pk]), {"number": "1"})
    assert response.status_code == 302
    assert Hand.objects.count() == 2
    started.refresh_from_db()
    assert started.tantos_a == 2


def test_the_referee_seats_the_players_before_the_first_hand(match, tablet):
    page = tablet(match)
    assert "Start the match" in page.page
    assert 'name="hand"' not in page.raw  # no hand entry before the seating
    ana, alba, beto, bruno = (key(match, n) for n in ("Ana", "Alba", "Beto", "Bruno"))
    seats_url = reverse("referees:seats", args=[match.pk])
    duplicate = {"seat_0": beto, "seat_1": ana, "seat_2": beto, "seat_3": alba}
    response = page.client.post(seats_url, duplicate)
    assert response.status_code == 200
    assert "Each player must sit in exactly one seat." in html_of(response)
    match.refresh_from_db()
    assert match.seats == []

    chosen = {"seat_0": beto, "seat_1": ana, "seat_2": bruno, "seat_3": alba}
    assert page.client.post(seats_url, chosen).status_code == 302
    match.refresh_from_db()
    assert match.seats == [beto, ana, bruno, alba]
    assert match.status == Match.Status.IN_PROGRESS
    page.open()
    assert "Mano: Beto" in page.page
    page.tap("Beto calls truco")
    assert "Ana: quiero" in page.buttons()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "[" * 5000 + "]" * 5000},  # nested past any sensible depth
        {"action": json.dumps({"by": "p1", "play": "1E"})},  # cards are not entered here
        {"op": "next_pair"},  # not a pica-pica hand
        {"op": "format_disk"},
    ],
    ids=["deep-json", "card-play", "next-pair", "unknown-op"],
)
def test_forged_steps_are_refused_without_a_server_error(started, tablet, data):
    page = tablet(started)
    page.post(data, status=400)
    assert "The hand sent by the page is damaged or out of date" in page.page
    assert page.events == {"events": []}
    assert Hand.objects.count() == 0


def test_forged_pica_pica_pairs_are_refused(referee, tablet):
    match = make_match(
        referee=referee, teams=(("Ana", "Alba", "Aurora"), ("Beto", "Bruno", "Blas"))
    )
    result_services.match_start(match=match)
    result_services.hand_record(
        match=match, record={"events": [{"trick": "A"}, {"trick": "A"}]}, recorded_by=None
    )
    page = tablet(match)
    for step in ({"op": "envido", "envido-p1": "20"}, {"action": '{"trick":"A"}'}):
        response = page.client.post(page.url, {"number": "2", "hand": "{}", **step})
        assert response.status_code == 400  # the pairs come first
        assert "The hand sent by the page is damaged" in html_of(response)
    forged = {"pica_pica": [{"order": [1, 2], "events": []}], "current": 0}
    response = page.client.post(page.url, {"number": "2", "hand": json.dumps(forged), "op": "undo"})
    assert response.status_code == 400
    assert "Each player must be in exactly one pair, facing an opponent." in html_of(response)
    assert Hand.objects.count() == 1


def test_the_seats_cannot_change_once_a_hand_is_recorded(started, tablet):
    page = tablet(started)
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    page.save()
    assert "Change the seating" not in page.page
    seats_before = list(started.seats)
    reversed_seats = {f"seat_{i}": key for i, key in enumerate(reversed(seats_before))}
    response = page.client.post(reverse("referees:seats", args=[started.pk]), reversed_seats)
    assert response.status_code == 302
    page.open()
    assert "The seats cannot change once hands have been recorded." in page.page
    started.refresh_from_db()
    assert started.seats == seats_before
