"""A stored hand's status on the referee's sheet, as the public match page says it: a hand
that ends a chico (a *joc* in Catalan truc) says so, never that the match is over."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory
from tournaments.results import services as result_services
from tournaments.results.story import hand_status


def test_a_hand_that_ends_a_chico_says_so_on_the_sheet_and_in_the_script(tablet, started):
    result_services.hand_record(match=started, record=chico_hand(started, "A"), recorded_by=None)
    page = tablet(started)
    assert "Ends the chico" in page.page
    assert "Game over" not in page.raw
    assert page.context["labels"]["hand_status"]["game_over"] == "Ends the chico"
    # The undo page names the last hand the same way.
    undo = page.client.get(reverse("referees:undo", args=[started.pk]))
    assert "Ends the chico" in undo.content.decode()


@pytest.mark.parametrize(
    ("preset", "language", "said"),
    [
        ("catalan", "ca", "Tanca el joc"),
        ("catalan", "en", "Ends the joc"),
        ("argentine", "es", "Cierra el chico"),
    ],
)
def test_the_hand_closes_the_championships_game_in_the_readers_language(db, preset, language, said):
    championship = ChampionshipFactory(rules={"preset": preset})
    with translation.override(language):
        assert hand_status("game_over", championship) == said
