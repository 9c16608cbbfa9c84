"""Championships through the API: what the public reads, and what organisers change."""

import datetime

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import V1, client_for
from tournaments.models import Championship

LIST = f"{V1}/championships/"


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def published(championship_factory):
    return championship_factory(
        name="Copa Trucardo",
        slug="copa-trucardo",
        status=Championship.Status.RUNNING,
        start_date=datetime.date(2026, 6, 1),
        end_date=datetime.date(2026, 6, 3),
        venue="Peña El Ancho de Espadas",
        rules={"preset": "trucardo"},
    )


def test_list_shows_public_championships_only(api, published, championship_factory):
    championship_factory(slug="borrador", status=Championship.Status.DRAFT)
    response = api.get(LIST, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    assert body["results"] == [
        {
            "slug": "copa-trucardo",
            "name": "Copa Trucardo",
            "status": "running",
            "status_display": "In play",
            "start_date": "2026-06-01",
            "end_date": "2026-06-03",
            "venue": "Peña El Ancho de Espadas",
            "time_zone": "Europe/Madrid",
            "preset": "trucardo",
            "options": {},
            "team_size": 2,
            "tiebreaks": ["points", "head_to_head", "chico_diff", "tantos_diff", "lots"],
        }
    ]


def test_an_organiser_also_lists_and_reads_his_drafts(organiser, championship_factory):
    mine = championship_factory(slug="mi-borrador", status=Championship.Status.DRAFT)
    mine.organisers.add(organiser)
    championship_factory(slug="ajeno", status=Championship.Status.DRAFT)
    api = client_for(organiser)
    assert [c["slug"] for c in api.get(LIST).json()["results"]] == ["mi-borrador"]
    assert api.get(f"{LIST}mi-borrador/").status_code == 200
    assert api.get(f"{LIST}ajeno/").status_code == 404
    assert api.get(f"{LIST}?status=draft").json()["count"] == 1


def test_status_labels_follow_the_requested_language(api, published):
    labels = {}
    for language in ("es", "ca", "en"):
        first = api.get(LIST, HTTP_ACCEPT_LANGUAGE=language).json()["results"][0]
        labels[language] = first["status_display"]
    assert labels == {"es": "En juego", "ca": "En joc", "en": "In play"}


def test_detail_by_slug_and_drafts_are_not_found(api, published, championship_factory):
    championship_factory(slug="borrador", status=Championship.Status.DRAFT)
    assert api.get(f"{LIST}copa-trucardo/").json()["name"] == "Copa Trucardo"
    response = api.get(f"{LIST}borrador/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert response.json() == {
        "error": {"code": "not_found", "message": "Not found.", "fields": {}}
    }
    assert api.get(f"{LIST}no-such-championship/").status_code == 404


def test_create_makes_a_draft_organised_by_its_creator(organiser):
    api = client_for(organiser)
    payload = {"name": "Nuevo", "slug": "nuevo", "start_date": "2026-01-01", "preset": "catalan"}
    response = api.post(LIST, payload, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "draft"
    created = Championship.objects.get(slug="nuevo")
    assert list(created.organisers.all()) == [organiser]
    assert created.rules == {"preset": "catalan"}


def test_a_short_name_already_used_is_a_conflict_in_the_request_language(organiser):
    payload = {"name": "Nuevo", "slug": "nuevo", "start_date": "2026-01-01"}
    assert client_for(organiser).post(LIST, payload, format="json").status_code == 201
    response = client_for(organiser, "en").post(LIST, {**payload, "name": "Otro"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "slug_taken"
    assert "nuevo" in response.json()["error"]["message"]
    assert Championship.objects.get(slug="nuevo").name == "Nuevo"


def test_a_bad_rule_option_is_refused_by_the_engine_in_the_request_language(organiser):
    payload = {
        "name": "Nuevo",
        "slug": "nuevo",
        "start_date": "2026-01-01",
        "options": {"colour": "red"},
    }
    body = client_for(organiser, "es").post(LIST, payload, format="json").json()
    assert body["error"]["code"] == "unknown_option"
    assert "colour" in body["error"]["message"]
    assert body["error"]["message"] != "Unknown rule option 'colour'."
    assert not Championship.objects.filter(slug="nuevo").exists()


def test_patch_details_and_rules_until_the_first_hand(organiser, published):
    published.organisers.add(organiser)
    api = client_for(organiser)
    url = f"{LIST}copa-trucardo/"
    body = api.patch(url, {"venue": "Casal", "preset": "argentine_flor"}, format="json").json()
    assert (body["venue"], body["preset"], body["name"]) == (
        "Casal",
        "argentine_flor",
        "Copa Trucardo",
    )
    response = api.patch(url, {"end_date": "2026-05-01"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "dates_reversed"


def test_status_moves_one_step(organiser, published):
    published.organisers.add(organiser)
    api = client_for(organiser)
    url = f"{LIST}copa-trucardo/status/"
    assert api.post(url, {"status": "finished"}, format="json").json()["status"] == "finished"
    response = api.post(url, {"status": "draft"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "bad_status_change"
    assert api.post(url, {"status": "nope"}, format="json").json()["error"]["fields"] == {
        "status": ['"nope" is not a valid choice.']
    }


def test_the_list_costs_few_queries(api, championship_factory, django_assert_max_num_queries):
    championship_factory.create_batch(8)
    with django_assert_max_num_queries(2):  # the page's count, then its rows
        assert len(api.get(LIST).json()["results"]) == 8
