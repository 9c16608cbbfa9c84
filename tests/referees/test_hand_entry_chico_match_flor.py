"""Hands that end a chico or the match, flor settled by declared points, the sheet's cost."""

from __future__ import annotations

from django.urls import reverse

from tests.referees.conftest import key, make_match
from tournaments.models import Hand, Match
from tournaments.results import services as result_services


def win_chico_by_falta_envido(page, mano: str, answer: str, winners: str) -> None:
    page.tap(f"{mano} calls falta envido")
    page.tap(f"{answer}: quiero")
    # The falta envido is worth the whole chico: it may be saved before any trick.
    page.tap(f"Envido to {winners}")
    assert "Save hand" in page.page
    page.save()


def test_a_chico_ended_by_the_envido_and_a_match_played_to_its_end(started, tablet):
    page = tablet(started)
    win_chico_by_falta_envido(page, "Ana", "Beto", "Ana and Alba")
    started.refresh_from_db()
    assert (started.chicos_a, started.chicos_b) == (1, 0)
    assert "Chicos won: 1" in page.page
    assert "Chico 2" in page.page
    assert '<p class="scoreboard__points" data-side="A">0</p>' in page.raw  # a new chico
    assert "Mano: Beto" in page.page

    win_chico_by_falta_envido(page, "Beto", "Alba", "Ana and Alba")
    started.refresh_from_db()
    assert started.status == Match.Status.FINISHED
    assert started.winner_id == started.team_a_id
    assert "This match is over: no more hands to record." in page.page
    assert "Winner: Los Anchos" in page.page
    assert 'name="hand"' not in page.raw
    # The match no longer waits to be played: it waits for the teams' confirmation.
    listed = page.client.get(reverse("referees:matches")).content.decode()
    assert "In play" not in listed and "To play" not in listed
    assert "Waiting for the teams&#x27; confirmation" in listed
    assert "Los Anchos – Las Flores" in listed


def test_a_contested_flor_settled_by_declared_points(referee, tablet):
    match = make_match(referee=referee, rules={"preset": "argentine_flor"})
    result_services.match_start(match=match)
    page = tablet(match)
    page.tap("Ana calls flor")
    page.tap("Beto calls flor")
    assert "Who won the flor?" in page.page
    assert "Flor to Beto and Bruno" in page.buttons()
    ana, beto = key(match, "Ana"), key(match, "Beto")
    page.op("flor", **{f"flor-{ana}": "33", f"flor-{beto}": "35"})
    assert "Flor declared: Ana 33, Beto 35" in page.page
    page.tap("Trick to Ana and Alba")
    page.tap("Trick to Ana and Alba")
    page.save()
    hand = Hand.objects.get()
    assert (hand.points_a, hand.points_b) == (1, 3)  # the best flor's side: 3; the hand: 1


def test_the_sheet_costs_the_same_queries_with_more_hands(
    started, tablet, django_assert_max_num_queries
):
    page = tablet(started)

    def queries_for_the_sheet() -> int:
        with django_assert_max_num_queries(20) as captured:
            page.open()
        return len(captured.captured_queries)

    before = queries_for_the_sheet()
    for _ in range(6):
        result_services.hand_record(
            match=started, record={"events": [{"trick": "B"}, {"trick": "B"}]}, recorded_by=None
        )
    assert queries_for_the_sheet() == before


def test_malas_and_buenas_are_shown_only_with_a_target_of_30(started, tablet, referee):
    result_services.hand_record(
        match=started,
        record={"events": [{"penalty": {"to": "A", "points": 16, "reason": "x"}}, {"void": "y"}]},
        recorded_by=referee,
    )
    page = tablet(started)
    # 16: one into the buenas
    assert '<p class="scoreboard__half" data-half-side="A">1 buena</p>' in page.raw
    assert '<p class="scoreboard__half" data-half-side="B">0 malas</p>' in page.raw

    short = make_match(
        referee=referee,
        rules={"preset": "argentine", "target": 15},
        team_names=("Cortos", "Rápidos"),
    )
    result_services.match_start(match=short)
    raw = tablet(short).raw
    assert "malas" not in raw and "buenas" not in raw
    assert raw.count('data-half-side="A" hidden></p>') == 1
    assert raw.count('data-half-side="B" hidden></p>') == 1
