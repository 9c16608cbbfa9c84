"""Entries by town: a qualifier restricted to its towns refuses a team from elsewhere,
naming its town's qualifier (tournaments/entries/towns.py, the public entry form)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.circuits import services as circuit_services
from tournaments.entries import services
from tournaments.errors import TournamentError
from tournaments.models import Team
from tournaments.people.services import PersonDetails


@pytest.fixture(autouse=True)
def in_english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def own_cache(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"towns-{id(settings)}",
        }
    }


def _url(championship) -> str:
    return reverse("tournaments:enter", args=[championship.slug])


def _post(client, championship, town: str, name: str = "Los Pinos"):
    page = client.get(_url(championship)).content.decode()
    key = re.search(r'name="form_key" value="([^"]+)"', page).group(1)
    data = {
        "form_key": key,
        "team_name": name,
        "player_1": f"{name} Uno",
        "player_2": f"{name} Dos",
        "town": town,
    }
    return client.post(_url(championship), data)


def test_the_form_asks_the_town_and_suggests_the_circuits_towns(client, qualifiers):
    page = client.get(_url(qualifiers["Inca"].championship)).content.decode()
    assert 'name="town"' in page
    assert "This qualifier is for teams from Inca." in page
    assert '<option value="Inca">' in page and '<option value="Palma">' in page


def test_a_championship_outside_a_circuit_does_not_ask(client, qualifiers):
    page = client.get(_url(qualifiers["final"].championship)).content.decode()
    assert 'name="town"' not in page


def test_a_team_from_another_town_is_sent_to_its_qualifier(client, qualifiers):
    inca = qualifiers["Inca"].championship
    response = _post(client, inca, "palma")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Your town, Palma, plays the Palma qualifier: enter there." in page
    assert f'href="{_url(qualifiers["Palma"].championship)}"' in page
    assert "Enter in Fase Palma" in page
    assert not Team.objects.filter(championship=inca).exists()


def test_a_town_without_a_qualifier_is_told_which_towns_enter(client, qualifiers):
    response = _post(client, qualifiers["Inca"].championship, "Sóller")
    page = response.content.decode()
    assert "This qualifier is only for teams from Inca." in page
    assert 'id="town-elsewhere"' not in page


def test_the_town_is_required(client, qualifiers):
    page = _post(client, qualifiers["Inca"].championship, "  ").content.decode()
    assert "Give your team&#x27;s town: this qualifier is for teams from Inca." in page


@pytest.mark.parametrize("typed", ["Inca", "  INCA ", "ínca"])
def test_a_team_from_the_town_enters_whatever_the_case_and_accents(client, qualifiers, typed):
    inca = qualifiers["Inca"].championship
    response = _post(client, inca, typed)
    assert response.status_code == 200
    team = Team.objects.get(championship=inca, name="Los Pinos")
    assert team.town == "Inca"  # as the qualifier writes it


def test_a_region_is_found_by_its_place(organiser, circuit, qualifiers):
    """A qualifier for a region ("Llevant") is named when a team gives the region."""
    from tests.tournaments.circuits.conftest import make_qualifier

    llevant = make_qualifier(organiser, "fase-llevant", name="Fase Llevant")
    circuit_services.circuit_event_add(
        circuit=circuit,
        championship=llevant,
        kind="qualifier",
        place="Llevant",
        towns=["Manacor", "Artà"],
        by=organiser,
    )
    for typed, expected in (("llevant", "Llevant"), ("arta", "Artà")):
        with translation.override("en"), pytest.raises(TournamentError) as caught:
            services.entry_submit(
                championship=qualifiers["Inca"].championship,
                team_name=f"Equipo {typed}",
                players=[PersonDetails(name=f"{typed} {n}") for n in (1, 2)],
                town=typed,
            )
        with translation.override("en"):
            assert caught.value.text == (
                f"Your town, {expected}, plays the Llevant qualifier: enter there."
            )
        assert caught.value.params["slug"] == "fase-llevant"


def test_a_qualifiers_form_costs_a_fixed_number_of_queries(
    client, qualifiers, django_assert_max_num_queries
):
    with django_assert_max_num_queries(4):
        response = client.get(_url(qualifiers["Inca"].championship))
    assert response.status_code == 200


@pytest.mark.parametrize(("club", "warned"), [("Palma", True), ("inca", False)])
def test_the_organisers_own_team_is_entered_anyway_with_a_warning(
    client, organiser, qualifiers, club, warned
):
    inca = qualifiers["Inca"].championship
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[inca.slug])
    data = {"name": "A mano", "seed": "", "club": club, "player_1": "Ana", "player_2": "Beto"}
    page = client.post(url, data, follow=True).content.decode()
    assert Team.objects.filter(championship=inca, name="A mano").exists()
    sentence = "Fase Inca is for teams from Inca and A mano gave Palma: it is entered anyway."
    assert (sentence in page) is warned


def test_the_api_enters_by_town_too(client, qualifiers):
    url = "/api/v1/championships/fase-inca/entries/"
    body = {"team_name": "Por API", "players": [{"name": "Ana"}, {"name": "Beto"}], "town": "Palma"}
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "town_elsewhere"
    assert error["fields"]["town"] == ["Your town, Palma, plays the Palma qualifier: enter there."]
    body["town"] = "inca"
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 201
    assert Team.objects.get(name="Por API").town == "Inca"
