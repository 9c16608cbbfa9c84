"""Every side of a table of three answers its result through its own link: the page offers
the answer to each of the three players, and the POST records it for his side (A, B or C).

The API has no act of a team's link (docs/api.md): the page is the one way in.
"""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tests.tournaments.test_gallo_tables import _table, play_table
from tournaments.entries.services import link_issue
from tournaments.models import MatchConfirmation, TeamAct

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def played(referee):
    match, _entries = play_table(_table(), random.Random(2), referee=referee)
    return match


def _url(match, team) -> str:
    token = link_issue(team=team, via="organiser")
    return reverse("tournaments:team_link", args=[match.stage.championship.slug, token])


@pytest.mark.parametrize("side", ["A", "B", "C"])
def test_each_player_of_a_table_confirms_through_his_page(client, played, side):
    team = played.teams_by_side()[side]
    url = _url(played, team)
    page = client.get(url, **EN).content.decode()
    assert f'id="result-{played.pk}"' in page and "Confirm the result" in page
    after = client.post(url, {"action": "confirm", "match": played.pk}, follow=True, **EN)
    text = after.content.decode()
    assert "Result confirmed." in text and "is not one of" not in text
    answer = MatchConfirmation.objects.get(match=played)
    assert (answer.side, answer.status, answer.on_behalf) == (side, "confirmed", False)
    assert TeamAct.objects.get(action="confirmed", via="link").team == team
    assert f'id="result-{played.pk}"' not in text  # answered: no longer offered


@pytest.mark.parametrize("side", ["A", "B", "C"])
def test_each_player_of_a_table_disputes_through_his_page(client, played, side):
    team = played.teams_by_side()[side]
    url = _url(played, team)
    data = {"action": "dispute", "match": played.pk, "comment": "The third hand was mine"}
    after = client.post(url, data, follow=True, **EN).content.decode()
    assert "Your dispute was sent to the organiser" in after
    answer = MatchConfirmation.objects.get(match=played)
    assert (answer.side, answer.status) == (side, "disputed")


def test_the_three_answers_make_the_result_final(client, played):
    for team in played.teams_by_side().values():
        client.post(_url(played, team), {"action": "confirm", "match": played.pk}, **EN)
    played.refresh_from_db()
    assert sorted(MatchConfirmation.objects.values_list("side", flat=True)) == ["A", "B", "C"]
    assert not played.is_provisional
