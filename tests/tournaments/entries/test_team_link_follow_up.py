"""The team's page behind its personal link follows the team up: a result it answered
stays on the page with its answer (confirmed, or disputed and waiting for the organiser),
a team on the waiting list reads its number, a team that is out sees no "next match", the
withdrawal says what it does for a team still waiting, and a knockout takes no check-in
(the team reads so; the organiser's check-in page lists nobody and offers no window)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import acts
from tournaments.entries.services import link_issue
from tournaments.models import Championship, Entry
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def page_url(team):
    token = link_issue(team=team, via="organiser")
    return reverse("tournaments:team_link", args=[team.championship.slug, token])


@pytest.fixture
def finished(db):
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    return play(match, match.team_a)


def test_a_confirmed_result_stays_on_the_page_with_its_answer(client, finished):
    url = page_url(finished.team_b)
    client.post(url, {"action": "confirm", "match": finished.pk}, **EN)
    page = client.get(url, **EN).content.decode()
    assert f'id="result-{finished.pk}"' not in page  # nothing left to answer
    assert f'id="answered-{finished.pk}"' in page
    assert "Confirmed by your team: waiting for the other side" in page
    result_services.match_confirm(match=finished, side="A", by=None)
    page = client.get(url, **EN).content.decode()
    assert f'id="answer-{finished.pk}">Confirmed.<' in page


def test_a_disputed_result_waits_for_the_organiser_on_the_page(client, finished):
    url = page_url(finished.team_a)
    client.post(url, {"action": "dispute", "match": finished.pk, "comment": "Hand 3"}, **EN)
    page = client.get(url, **EN).content.decode()
    assert f'id="answered-{finished.pk}"' in page
    assert "Disputed: waiting for the organiser to settle it." in page
    # The organiser settles it by confirming for the side.
    result_services.match_confirm(match=finished, side="A", by=None)
    result_services.match_confirm(match=finished, side="B", by=None)
    assert f'id="answer-{finished.pk}">Confirmed.<' in client.get(url, **EN).content.decode()


@pytest.fixture
def full(db):
    """Entries of a championship taking them: two places taken, two teams waiting."""
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    entries = []
    for position, status in enumerate(["accepted", "accepted", "waiting", "waiting"], start=1):
        team = TeamFactory(championship=championship)
        entries.append(
            Entry.objects.create(
                championship=championship, team=team, status=status, position=position
            )
        )
    return entries


def test_a_waiting_team_reads_its_number_and_that_it_plays_no_match_yet(client, full):
    first, second = full[2], full[3]
    page = client.get(page_url(second.team), **EN).content.decode()
    assert 'id="waiting-number">number 2<' in page
    assert "Your team is number 2 on the waiting list" in page
    assert "No match scheduled yet." not in page
    first_page = client.get(page_url(first.team), **EN).content.decode()
    assert "Your team is first on the waiting list" in first_page


def test_a_waiting_team_withdrawing_gives_no_place_away(client, full):
    waiting = client.get(page_url(full[3].team), **EN).content.decode()
    assert "leaves the waiting list" in waiting
    assert "its place goes to the first team waiting" not in waiting
    holding = client.get(page_url(full[0].team), **EN).content.decode()
    assert "its place goes to the first team waiting" in holding


def test_a_withdrawn_team_sees_no_next_match(client, full):
    url = page_url(full[0].team)
    client.post(url, {"action": "withdraw"}, **EN)
    page = client.get(url, **EN).content.decode()
    assert "Your team has withdrawn: it plays no match." in page
    assert "No match scheduled yet." not in page


@pytest.fixture
def knockout(db):
    """Groups then knockout: the group rounds played, the bracket drawn, the teams' self
    check-in window open."""
    marta = get_user_model().objects.create_user(username="marta", password="x")
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    championship.organisers.add(marta)
    for seed in range(1, 9):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(
        championship=championship,
        format="groups_knockout",
        settings={"group_count": 2, "advance": 2},
    )
    for _ in range(3):
        for match in stage_services.round_generate(stage=stage):
            if not match.is_bye:
                play(match, match.team_a)
    stage_services.round_generate(stage=stage)
    stage.refresh_from_db()
    assert "bracket" in stage.settings
    acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=1)
    )
    return stage, marta


def test_a_knockout_takes_no_check_in_and_the_team_reads_so(client, knockout):
    stage, marta = knockout
    team = stage.matches.filter(round__label__startswith="W").first().team_a
    page = client.get(page_url(team), **EN).content.decode()
    assert 'id="check-in-not-needed"' in page and 'value="check_in"' not in page

    client.force_login(marta)
    url = reverse("organiser:check_in", args=[stage.championship.slug, stage.pk])
    organiser = client.get(url, **EN).content.decode()
    assert 'id="check-in-over"' in organiser
    # Nobody listed (the teams out of the knockout among them), no window offered.
    assert 'id="check-in"' not in organiser and 'id="self-check-in"' not in organiser
    refused = client.post(url, {"action": "all"}, follow=True, **EN).content.decode()
    assert "The knockout takes no check-in" in refused
    assert not stage.check_ins.exists()
