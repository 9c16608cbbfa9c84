"""The API tried as a hostile newcomer would: a licence number sent with an entry or a team
joins nobody it should not, a licence is looked up only among one's own people, a merge
needs every championship of both records, and a merged-away person's address leads on.
No answer carries anything private of a record the caller may not see."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api.conftest import client_for
from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.test_people_trust import PRIVATE, _plays, world  # noqa: F401 (fixture)
from tournaments.entries import services as entry_services
from tournaments.models import Person, PersonMerged, PersonMergeRequest

pytestmark = pytest.mark.django_db


def _absent(body: str) -> None:
    for value in PRIVATE:
        assert value not in body


def _asks(championship, *questions) -> None:
    entry_services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=None,
        closes_at=None,
        asks=list(questions),
        fee=None,
        fee_instructions="",
    )


def _entry(licence: str = "FED-0042") -> dict:
    return {
        "team_name": "Los Intrusos",
        "players": [
            {"name": "Ana Ruiz", "licence": licence},
            {"name": "Beto Gil", "licence": "L-2"},
        ],
    }


def test_an_entry_with_a_licence_not_asked_for_keeps_none_and_joins_nobody(world):  # noqa: F811
    _asks(world.copa)  # no licence asked
    url = reverse("api:entries", args=[world.copa.slug])
    response = client_for().post(url, _entry(), format="json")
    assert response.status_code == 201
    person = world.copa.teams.get().memberships.get(order=1).player.person
    assert person != world.ana and person.licence == ""
    assert not PersonMergeRequest.objects.exists()
    history = client_for().get(reverse("api:person", args=[world.ana.pk])).content.decode()
    assert "copa-abierta" not in history  # no championship she never entered


def test_an_entry_asking_licences_offers_a_likely_match_and_shows_nothing(world):  # noqa: F811
    url = reverse("api:entries", args=[world.copa.slug])
    assert client_for().post(url, _entry(), format="json").status_code == 201
    person = world.copa.teams.get().memberships.get(order=1).player.person
    assert person != world.ana and person.licence == ""
    (request,) = PersonMergeRequest.objects.all()
    assert {request.first_id, request.second_id} == {person.pk, world.ana.pk}
    bea = client_for(world.bea)
    for address in (
        reverse("api:teams", args=[world.copa.slug]),
        reverse("api:entries", args=[world.copa.slug]),
        reverse("api:persons") + "?search=ana",
        reverse("api:person", args=[world.ana.pk]),
    ):
        response = bea.get(address)
        assert response.status_code == 200, address
        _absent(response.content.decode())


def test_a_licence_is_looked_up_only_among_ones_own_people(world):  # noqa: F811
    url = reverse("api:persons")
    found = client_for(world.bea).get(url, {"licence": "FED-0042"}).json()
    assert found["count"] == 0  # Ana plays in none of Bea's championships
    found = client_for(world.pere).get(url, {"licence": "FED-0042"}).json()
    assert [p["id"] for p in found["results"]] == [world.ana.pk]


def test_a_team_sent_by_another_organiser_with_her_licence_is_a_new_person(world):  # noqa: F811
    response = client_for(world.bea).post(
        reverse("api:teams", args=[world.copa.slug]),
        {
            "name": "Las Anas",
            "players": [
                {"name": "Ana Ruiz", "licence": "FED-0042", "email": "bea@example.org"},
                "Beto Gil",
            ],
        },
        format="json",
    )
    assert response.status_code == 201
    _absent(response.content.decode())
    (player, _beto) = response.json()["players"]
    assert player["person"] != world.ana.pk and player["licence"] == ""
    world.ana.refresh_from_db()
    assert world.ana.email == "ana@example.org"
    # Pere, who sees her, joins her at once by the same number...
    tardor = ChampionshipFactory(name="Open de Tardor")
    tardor.organisers.add(world.pere)
    team = {"name": "Las de Pere", "players": [{"name": "A. Ruiz", "licence": "FED-0042"}, "Eva"]}
    response = client_for(world.pere).post(
        reverse("api:teams", args=[tardor.slug]), team, format="json"
    )
    assert response.json()["players"][0]["person"] == world.ana.pk
    # ... but never into a second team of a championship she plays in.
    response = client_for(world.pere, language="es").post(
        reverse("api:teams", args=[world.reus.slug]), team, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "person_playing"
    assert "ya juega en" in response.json()["error"]["message"]


def test_a_merge_through_the_api_needs_every_championship_of_both(world):  # noqa: F811
    url = reverse("api:person-merge")
    client_for().post(reverse("api:entries", args=[world.copa.slug]), _entry(), format="json")
    typed = world.copa.teams.get().memberships.get(order=1).player.person
    bea = client_for(world.bea, language="es")
    response = bea.post(url, {"keep": typed.pk, "drop": world.ana.pk}, format="json")
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "person_not_managed"
    assert error["message"] == "No organizas ningún campeonato en el que haya jugado esta persona."
    _absent(response.content.decode())
    assert Person.objects.filter(pk=world.ana.pk).exists()
    typed.refresh_from_db()
    assert (typed.licence, typed.email, typed.phone) == ("", "", "")

    agree = reverse("api:person-merge-agree")
    response = bea.post(agree, {"person": typed.pk, "other": world.ana.pk}, format="json")
    assert response.status_code == 200 and response.json() == {"merged": False, "person": None}
    response = client_for(world.pere).post(
        agree, {"person": world.ana.pk, "other": typed.pk}, format="json"
    )
    assert response.json()["merged"] is True
    assert response.json()["person"]["id"] == world.ana.pk  # the longer history is kept
    assert PersonMerged.objects.get(old_id=typed.pk).person_id == world.ana.pk


def test_a_merge_of_two_records_of_one_championship_is_a_sentence(world):  # noqa: F811
    namesake = Person.objects.create(name="Ana Ruiz")
    _plays(namesake, world.reus, "Otro equipo")
    response = client_for(world.pere, language="ca").post(
        reverse("api:person-merge"), {"keep": world.ana.pk, "drop": namesake.pk}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "merge_same_championship"
    assert "una persona no pot jugar en dos equips d'un campionat" in error["message"]
    assert Person.objects.filter(pk=namesake.pk).exists()


def test_a_merged_away_person_redirects_in_the_api(world):  # noqa: F811
    other = Person.objects.create(name="Ana Ruiz")
    tardor = ChampionshipFactory(name="Tardor")
    _plays(other, tardor)
    url = reverse("api:person-merge")
    response = client_for(world.pere).post(
        url, {"keep": world.ana.pk, "drop": other.pk}, format="json"
    )
    assert response.status_code == 403  # Tardor is not his
    assert response.json()["error"]["code"] == "person_not_managed"
    tardor.organisers.add(world.pere)
    response = client_for(world.pere).post(
        url, {"keep": world.ana.pk, "drop": other.pk}, format="json"
    )
    assert response.status_code == 200
    gone = client_for().get(reverse("api:person", args=[other.pk]))
    assert gone.status_code == 301
    assert gone["Location"] == reverse("api:person", args=[world.ana.pk])


def test_a_merge_of_nobody_is_a_sentence(world):  # noqa: F811
    url = reverse("api:person-merge")
    pere = client_for(world.pere, language="ca")
    response = pere.post(url, {"keep": world.ana.pk, "drop": 99999}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "person_gone"
    response = pere.post(url, {"keep": world.ana.pk, "drop": world.ana.pk}, format="json")
    assert response.json()["error"]["code"] == "merge_same"
    response = pere.post(url, {"keep": "x"}, format="json")
    assert response.status_code == 400 and response.json()["error"]["fields"]
