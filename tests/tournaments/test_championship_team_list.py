"""The championship's page keeps its list of teams and their players (most of the page in
a big field: 400 teams drawn took 0.4 s) until its teams, line-ups or names change: a
decided result renews the page (its stages' current rounds) without drawing the list
again, and a team renamed draws it again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.models import Championship
from tournaments.stages import services as stage_services
from tournaments.web.public import championships as public

pytestmark = pytest.mark.page_cache

LIST = "tournaments/_team_list.html"


def _lists_drawn(monkeypatch) -> list[list[str]]:
    """The team lists the championship's page draws from now on, each as its teams' names."""
    drawn: list[list[str]] = []
    original = public.render_to_string

    def spy(template, context=None, *args, **kwargs):
        if template == LIST:
            drawn.append([team.name for team in context["teams"]])
        return original(template, context, *args, **kwargs)

    monkeypatch.setattr(public, "render_to_string", spy)
    return drawn


def test_a_result_renews_the_page_but_not_its_team_list_and_a_rename_does(
    client, db, commit, referee, monkeypatch
):
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    teams = [TeamFactory(championship=championship) for _ in range(4)]
    stage = commit(stage_services.stage_create, championship=championship, format="round_robin")
    matches = commit(stage_services.round_generate, stage=stage)
    url = reverse("tournaments:championship", args=[championship.slug])
    drawn = _lists_drawn(monkeypatch)
    before = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Now: Round 1" in before
    assert len(drawn) == 1 and sorted(drawn[0]) == sorted(team.name for team in teams)

    for match in matches:
        commit(play, match=match, winner=match.team_a)
    after = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The page is new (its round was played), its team list the one kept.
    assert "Last played: Round 1" in after and "Now: Round 1" not in after
    assert len(drawn) == 1
    for team in teams:
        for membership in team.memberships.all():
            assert membership.player.name in after

    commit(championship_services.team_update, team=teams[0], name="Los Renombrados")
    renamed = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Los Renombrados" in renamed and len(drawn) == 2
    # In another language the list is its own (the captain's word is translated).
    client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert len(drawn) == 3
