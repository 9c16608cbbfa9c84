"""Championships through the API: what the public reads, and what organisers change."""

import datetime

import pytest
from rest_framework.test import APIClient

from scoring import OPTIONS, RuleSet
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
            # The rules in force: trucardo's defaults, none changed by the organiser.
            "options": {
                "target": 30,
                "best_of": 3,
                "flor": True,
                "hierarchy": "traditional",
                "envido_max_calls": 3,
                "envido_chain": "free",
                "falta_envido": "rival_to_half",
                "mazo_envido_point": True,
                "contraflor_al_resto": "whole_chico",
                "contraflor_value": 6,
                "pica_pica": True,
                "pica_pica_until": 25,
                "gallo": "por_turno",
                "penalty_max": 30,
            },
            "team_size": 2,
            "tiebreaks": ["points", "head_to_head", "chico_diff", "tantos_diff", "lots"],
            "scorekeeping": "referees",
            "confirm_within": 30,
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


def test_the_options_are_the_rules_in_force_as_the_engine_gives_them(api, championship_factory):
    """The preset's defaults with the organiser's choices over them: a client reads the
    whole rule set, not just what differs (which read ``{}`` for a plain preset)."""
    championship_factory(
        slug="corta", rules={"preset": "argentine", "target": 15, "falta_envido": "whole_chico"}
    )
    championship_factory(slug="casal", rules="catalan")
    corta = api.get(f"{LIST}corta/").json()["options"]
    assert (corta["target"], corta["falta_envido"], corta["flor"]) == (15, "whole_chico", False)
    assert corta["penalty_max"] == 15  # the engine's default: the target
    spec = {"preset": "argentine", "target": 15, "falta_envido": "whole_chico"}
    assert corta == RuleSet.from_spec(spec).options
    casal = api.get(f"{LIST}casal/").json()
    assert casal["preset"] == "catalan"
    assert casal["options"] == {
        "target": 12,
        "best_of": 3,
        "flor": False,
        "mazo_envido_point": False,
        "pica_pica": False,
        "mestre_penalty": "to_opponent",
        "penalty_max": 12,
    }


def test_a_new_preset_keeps_the_options_chosen_not_those_in_force(organiser, published):
    """PATCHing the preset alone keeps the organiser's choices and takes the new preset's
    defaults for the rest (not trucardo's values the read showed)."""
    published.rules = {"preset": "trucardo", "target": 15}
    published.save(update_fields=["rules"])
    published.organisers.add(organiser)
    body = client_for(organiser).patch(
        f"{LIST}copa-trucardo/", {"preset": "argentine"}, format="json"
    )
    assert body.status_code == 200, body.content
    options = body.json()["options"]
    assert (options["target"], options["envido_max_calls"], options["flor"]) == (15, 4, False)
    published.refresh_from_db()
    assert published.rules == {"preset": "argentine", "target": 15}


def test_the_schema_lists_every_option_with_the_values_the_engine_accepts(api):
    schema = api.get("/api/schema/?format=json").json()
    options = schema["components"]["schemas"]["Championship"]["properties"]["options"]
    assert set(options["properties"]) == {option.key for option in OPTIONS}
    assert options["properties"]["falta_envido"]["enum"] == [
        "leader_to_target",
        "rival_to_half",
        "leader_to_half",
        "whole_chico",
    ]
    assert options["properties"]["target"]["enum"] == [15, 30, 12]
    assert options["additionalProperties"] is False


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
