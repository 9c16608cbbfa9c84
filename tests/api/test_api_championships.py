"""The read-only championships endpoint of the API."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments.models import Championship

LIST = "/api/championships/"


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
        }
    ]


def test_status_labels_follow_the_requested_language(api, published):
    labels = {}
    for language in ("es", "ca", "en"):
        first = api.get(LIST, HTTP_ACCEPT_LANGUAGE=language).json()["results"][0]
        labels[language] = first["status_display"]
    assert labels == {"es": "En juego", "ca": "En joc", "en": "In play"}


def test_detail_by_slug_and_drafts_are_not_found(api, published, championship_factory):
    championship_factory(slug="borrador", status=Championship.Status.DRAFT)
    assert api.get(f"{LIST}copa-trucardo/").json()["name"] == "Copa Trucardo"
    assert api.get(f"{LIST}borrador/").status_code == 404
    assert api.get(f"{LIST}no-such-championship/").status_code == 404


def test_the_endpoint_is_read_only(api, published):
    payload = {"slug": "new", "name": "New", "status": "running", "start_date": "2026-01-01"}
    assert api.post(LIST, payload, format="json").status_code == 403  # anonymous

    staff = get_user_model().objects.create_user("organiser", password="x", is_staff=True)
    api.force_authenticate(staff)
    assert api.post(LIST, payload, format="json").status_code == 405
    assert api.delete(f"{LIST}copa-trucardo/").status_code == 405
    assert list(Championship.objects.values_list("slug", flat=True)) == ["copa-trucardo"]


def test_the_api_root_links_the_championships(api, db):
    response = api.get("/api/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response.json()["championships"].endswith(LIST)


def test_the_list_costs_two_queries(api, championship_factory, django_assert_max_num_queries):
    championship_factory.create_batch(8)
    with django_assert_max_num_queries(2):  # the page's count, then its rows
        assert len(api.get(LIST).json()["results"]) == 8
