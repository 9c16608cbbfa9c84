"""The players' people in the API: each player's person and public name in the team
payloads; players entered as names or objects; licence and contact for organisers only."""

from __future__ import annotations

import pytest

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import (
    ChampionshipFactory,
    PersonFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.models import Championship, Person

PRIVATE = ("licence", "email", "phone")


@pytest.fixture
def championship(organiser):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION, slug="copa")
    championship.organisers.add(organiser)
    return championship


def test_players_as_objects_with_licence_and_contact(organiser, championship):
    api = client_for(organiser)
    response = api.post(
        f"{V1}/championships/copa/teams/",
        {
            "name": "Los Anchos",
            "players": [
                {"name": "Ana Ruiz", "licence": "F-1", "email": "ana@example.com", "phone": "600"},
                "Bea",
            ],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    ana, bea = response.json()["players"]
    person = Person.objects.get(pk=ana["person"])
    assert (person.licence, person.email, person.phone) == ("F-1", "ana@example.com", "600")
    # The organiser reads them back; the existing fields are as they were.
    assert (ana["name"], ana["licence"], ana["email"]) == ("Ana Ruiz", "F-1", "ana@example.com")
    assert bea["public_name"] == "Bea" and bea["licence"] == ""


def test_the_public_gets_person_and_public_name_but_no_contact(organiser, championship):
    team = TeamFactory(championship=championship)
    person = team.memberships.get(order=1).player.person
    Person.objects.filter(pk=person.pk).update(
        name="Ana Ruiz Soler", initial_only=True, licence="F-1", email="a@x.es", phone="600"
    )
    stranger = UserFactory(username="stranger")
    for client in (client_for(), client_for(stranger)):
        body = client.get(f"{V1}/championships/copa/teams/{team.pk}/").json()
        first = body["players"][0]
        assert first["person"] == person.pk and first["public_name"] == "Ana S."
        assert not set(PRIVATE) & set(first)
    listed = client_for(organiser).get(f"{V1}/championships/copa/teams/").json()["results"]
    assert listed[0]["players"][0]["email"] == "a@x.es"


def test_a_chosen_person_must_be_a_likely_match(organiser, championship):
    ana = PersonFactory(name="Ana Ruiz", email="secret@example.com")
    earlier = ChampionshipFactory()
    earlier.organisers.add(organiser)  # his own earlier championship: he may see her
    other = TeamFactory(championship=earlier)
    membership = other.memberships.get(order=1)
    membership.player = PlayerFactory(name="Ana Ruiz", person=ana)
    membership.save()
    api = client_for(organiser)
    url = f"{V1}/championships/copa/teams/"
    wrong = api.post(
        url, {"name": "A", "players": [{"name": "Someone", "person": ana.pk}, "B"]}, format="json"
    )
    assert wrong.status_code == 400 and not championship.teams.exists()
    right = api.post(
        url, {"name": "A", "players": [{"name": "ana ruiz", "person": ana.pk}, "B"]}, format="json"
    )
    assert right.status_code == 201
    assert right.json()["players"][0]["person"] == ana.pk


def test_another_organisers_player_is_never_offered(organiser, championship):
    """Joining a line-up to a person would show his contact data: a person who played only
    in other organisers' championships cannot be chosen, whatever his number."""
    ana = PersonFactory(name="Ana Ruiz", email="secret@example.com")
    theirs = TeamFactory(championship=ChampionshipFactory())
    membership = theirs.memberships.get(order=1)
    membership.player = PlayerFactory(name="Ana Ruiz", person=ana)
    membership.save()
    answer = client_for(organiser).post(
        f"{V1}/championships/copa/teams/",
        {"name": "A", "players": [{"name": "Ana Ruiz", "person": ana.pk}, "B"]},
        format="json",
    )
    assert answer.status_code == 400 and not championship.teams.exists()
    assert "secret@example.com" not in answer.content.decode()


@pytest.mark.parametrize(
    "player", [{"name": ""}, {"name": "A", "email": "nope"}, {"licence": "x"}, 3, [], None]
)
def test_a_bad_player_object_is_a_400(organiser, championship, player):
    response = client_for(organiser).post(
        f"{V1}/championships/copa/teams/", {"name": "A", "players": [player, "B"]}, format="json"
    )
    assert response.status_code == 400
    assert not championship.teams.exists()
