"""The statistics page's rows kept by what they show (``live.by_content``): every hand
renews the page, and draws again only the rows it changed."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.tournaments.conftest import chico_hand
from tests.tournaments.test_page_cache import _league
from tournaments.results import services as result_services
from tournaments.web.public import statistics

pytestmark = pytest.mark.page_cache


def test_the_statistics_draw_again_only_the_rows_a_hand_changed(
    client, db, commit, referee, monkeypatch
):
    """Every hand renews the statistics page; of its tables' rows (a team's, a player's),
    only those of the hand's two teams and their players are drawn again, in the page
    as every other row is, and the page is the one a fresh render gives."""
    league = _league("Copa Rosario", commit)
    first = league["match"]
    second = league["stage"].matches.exclude(pk=first.pk).get(round__number=1)
    for match in (first, second):
        commit(
            result_services.hand_record,
            match=match,
            record=chico_hand(match, "A"),
            recorded_by=referee,
        )
    url = reverse("tournaments:statistics", args=[league["championship"].slug])
    before = client.get(url).content.decode()
    drawn: list[tuple[str, int]] = []
    original = statistics.render_to_string

    def spy(template, context=None, *args, **kwargs):
        if template == "tournaments/_statistics_row.html":
            drawn.append((context["kind"], context["row"].team.pk))
        return original(template, context, *args, **kwargs)

    monkeypatch.setattr(statistics, "render_to_string", spy)
    commit(
        result_services.hand_record, match=first, record=chico_hand(first, "B"), recorded_by=referee
    )

    page = client.get(url).content.decode()
    players = sum(team.memberships.count() for team in (first.team_a, first.team_b))
    assert sorted(kind for kind, _team in drawn) == ["person"] * players + ["team"] * 2
    assert {team for _kind, team in drawn} == {first.team_a_id, first.team_b_id}
    # Two header rows, then every team's and every player's of the four teams.
    assert page.count("<tr>") == before.count("<tr>") == 2 + 4 + 2 * players
    with override_settings(PAGE_CACHE=False):  # every row drawn afresh
        fresh = client.get(url).content.decode()
    # The tables, from the teams' heading on (above them, the page's time of rendering).
    assert _tables(fresh) == _tables(page)


def _tables(page: str) -> str:
    return page[page.index('<h2 id="stats-teams">') :]
