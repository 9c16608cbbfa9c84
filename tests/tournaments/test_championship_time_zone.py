"""A championship's time zone: set by the organiser (form, API), checked, used by pages
and exports (tests/tournaments/test_csv_import_export.py,
public_pages/test_board_and_round_pages.py)."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError


@pytest.fixture(autouse=True)
def no_language_left_behind():
    """The clients' requests activate a language in this thread: leave none active."""
    yield
    translation.deactivate()


def test_a_new_championship_is_in_the_sites_zone_unless_told(db):
    plain = championship_services.championship_create(
        name="Copa", slug="copa", start_date=datetime.date(2026, 6, 1)
    )
    assert plain.time_zone == settings.TIME_ZONE
    abroad = championship_services.championship_create(
        name="Copa Rosario",
        slug="copa-rosario",
        start_date=datetime.date(2026, 6, 1),
        time_zone="America/Argentina/Cordoba",
    )
    assert abroad.time_zone == "America/Argentina/Cordoba"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../etc/passwd", "Europe/"])
def test_an_unknown_zone_is_refused_with_a_clear_error(db, zone):
    with pytest.raises(TournamentError) as refused:
        championship_services.championship_create(
            name="Copa", slug="copa", start_date=datetime.date(2026, 6, 1), time_zone=zone
        )
    assert refused.value.code == "bad_time_zone"
    championship = ChampionshipFactory()
    with pytest.raises(TournamentError):
        championship_services.championship_update(
            championship=championship,
            name=championship.name,
            start_date=championship.start_date,
            time_zone=zone,
        )
    championship.refresh_from_db()
    assert championship.time_zone == settings.TIME_ZONE


def test_the_organiser_sets_the_zone_in_the_details_form(client, db):
    organiser = UserFactory()
    championship = ChampionshipFactory()
    championship.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("organiser:championship_details", args=[championship.slug])
    assert "America/Montevideo" in client.get(url).content.decode()
    response = client.post(
        url,
        {"name": championship.name, "start_date": "2026-05-09", "time_zone": "America/Montevideo"},
    )
    assert response.status_code == 302
    championship.refresh_from_db()
    assert championship.time_zone == "America/Montevideo"
    response = client.post(
        url, {"name": championship.name, "start_date": "2026-05-09", "time_zone": "Nowhere/City"}
    )
    assert response.status_code == 200  # the form says what is wrong; nothing saved
    championship.refresh_from_db()
    assert championship.time_zone == "America/Montevideo"


def test_the_api_reads_and_changes_the_zone(db):
    organiser = UserFactory()
    championship = ChampionshipFactory()
    championship.organisers.add(organiser)
    api = client_for(organiser)
    url = f"{V1}/championships/{championship.slug}/"
    assert api.get(url).json()["time_zone"] == settings.TIME_ZONE
    body = api.patch(url, {"time_zone": "Europe/Andorra"}, format="json").json()
    assert body["time_zone"] == "Europe/Andorra"
    response = api.patch(url, {"time_zone": "Atlantis/Capital"}, format="json")
    assert response.status_code == 400
    championship.refresh_from_db()
    assert championship.time_zone == "Europe/Andorra"
