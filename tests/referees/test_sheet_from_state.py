"""The sheet, every tap and the save go on from the match's stored engine state: none of
them replays the match's hands (a long match costs what a short one does, bench/)."""

from __future__ import annotations

from unittest import mock

import pytest

import scoring.match
from tournaments.models import Hand, Match
from tournaments.results import services as result_services

POINT_A = {"events": [{"trick": "A"}, {"trick": "A"}]}
VOID = {"events": [{"void": "cards shown"}]}


@pytest.fixture
def played(started) -> Match:
    result_services.match_hands_import(
        match=started, records=[POINT_A, VOID, POINT_A, VOID, POINT_A], recorded_by=None
    )
    started.refresh_from_db()
    return started


def no_replay():
    return mock.patch.object(
        scoring.match, "_replay", side_effect=AssertionError("the match was replayed")
    )


def test_sheet_taps_and_save_never_replay_the_match(played, tablet):
    with no_replay():
        page = tablet(played)
        # Five hands, two of them void (the mano stays): the sixth's mano is Bruno.
        assert "Hand 6" in page.page and "Mano: Bruno" in page.page
        assert '<p class="scoreboard__points" data-side="A">3</p>' in page.page
        page.tap("Bruno calls truco")
        page.tap("Ana: no quiero")
        page.save()
    hand = Hand.objects.get(match=played, number=6)
    assert (hand.points_a, hand.points_b) == (0, 1)
    assert "Hand 7" in page.page and "Mano: Ana" in page.page


def test_a_match_without_a_stored_state_still_shows_its_next_hand(played, tablet):
    """Matches stored before the state existed: the sheet replays them (and the next save
    stores the state)."""
    Match.objects.filter(pk=played.pk).update(state=None)
    page = tablet(played)
    assert "Hand 6" in page.page and "Mano: Bruno" in page.page
    with no_replay(), pytest.raises(AssertionError, match="replayed"):
        tablet(played)
    page.tap("Bruno calls truco")
    page.tap("Ana: no quiero")
    page.save()
    played.refresh_from_db()
    assert played.state["hands"] == 6
    with no_replay():
        assert "Mano: Ana" in tablet(played).page
