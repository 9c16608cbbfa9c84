"""A form sent twice (a double click, a reload) does its work once and says so."""

from __future__ import annotations

from django.urls import reverse

from tests.tournaments.factories import TeamFactory
from tournaments.stages import services as stage_services


def test_generate_round_sent_twice_generates_one_round(client, organiser, registration):
    for seed in range(1, 7):
        TeamFactory(championship=registration, seed=seed)
    stage = stage_services.stage_create(championship=registration, format="round_robin")
    client.force_login(organiser)
    page = client.get(reverse("organiser:stage", args=[registration.slug, stage.pk]))
    assert b'name="number" value="1"' in page.content
    url = reverse("organiser:round_generate", args=[registration.slug, stage.pk])
    for _ in range(10):
        response = client.post(url, {"number": "1"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
    assert list(stage.rounds.values_list("number", flat=True)) == [1]
    assert stage.matches.count() == 3
    assert "Round 1 has already been generated." in response.content.decode()
    page = client.get(reverse("organiser:stage", args=[registration.slug, stage.pk]))
    assert b'name="number" value="2"' in page.content


def test_create_stage_sent_twice_creates_one_stage(client, organiser, registration, four_teams):
    client.force_login(organiser)
    data = {"format": "swiss", "teams": [t.pk for t in four_teams], "tiebreak_1": "points"}
    url = reverse("organiser:stage_create", args=[registration.slug])
    assert client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").status_code == 302
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "This championship already has a stage called Swiss." in response.content.decode()
    assert registration.stages.count() == 1


def test_add_team_sent_twice_adds_one_team(client, organiser, registration):
    client.force_login(organiser)
    data = {"name": "Los Anchos", "player_1": "Ana", "player_2": "Beto"}
    url = reverse("organiser:teams", args=[registration.slug])
    assert client.post(url, data).status_code == 302
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert "This championship already has a team called Los Anchos." in response.content.decode()
    assert registration.teams.count() == 1
    assert registration.teams.get().memberships.count() == 2
