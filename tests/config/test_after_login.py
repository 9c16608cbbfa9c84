"""Logging in lands each user on the pages of his role."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.models import Championship
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

PASSWORD = "vale-cuatro-2026"


def log_in(client, user):
    user.set_password(PASSWORD)
    user.save()
    return client.post(
        reverse("login"), {"username": user.get_username(), "password": PASSWORD}, follow=True
    )


@pytest.fixture
def assigned_match(db):
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    for _ in range(2):
        TeamFactory(championship=championship)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    referee = RefereeFactory(championships=[championship])
    result_services.match_assign(match=match, referee=referee, table="3")
    return championship, match, referee


def test_a_referee_lands_on_his_matches(client, assigned_match):
    _, match, referee = assigned_match
    response = log_in(client, referee)
    assert response.redirect_chain[-1][0] == reverse("referees:matches")
    assert str(match.team_a) in response.content.decode()


def test_an_organiser_lands_on_his_dashboard_even_when_he_also_referees(client, assigned_match):
    championship, _, referee = assigned_match
    championship.organisers.add(referee)
    response = log_in(client, referee)
    assert response.redirect_chain[-1][0] == reverse("organiser:dashboard")
    assert championship.name in response.content.decode()


def test_a_new_user_lands_on_the_dashboard_to_create_a_championship(client, db):
    user = get_user_model().objects.create_user(username="nueva")
    response = log_in(client, user)
    assert response.redirect_chain[-1][0] == reverse("organiser:dashboard")


def test_the_navigation_offers_the_referee_pages_once_logged_in(client, db):
    user = get_user_model().objects.create_user(username="arbitro")
    log_in(client, user)
    page = client.get(reverse("tournaments:home")).content.decode()
    assert reverse("referees:matches") in page
