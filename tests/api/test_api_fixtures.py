"""The fixtures of a league through the API, and who may postpone a match."""

import pytest

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import UserFactory
from tests.tournaments.test_league import make_league


@pytest.mark.django_db
def test_fixtures_payload_and_postponement_permissions():
    championship, _stage, teams = make_league(4)
    organiser = UserFactory()
    championship.organisers.add(organiser)
    stranger = UserFactory()
    other = make_league(4)[0]
    other.organisers.add(stranger)

    answer = client_for().get(f"{V1}/championships/{championship.slug}/fixtures/")
    assert answer.status_code == 200
    rows = answer.json()["results"]
    assert len(rows) == 12
    first = rows[0]
    assert first["matchday"] == 1 and first["matchday_name"] == "Matchday 1"
    assert first["matchday_date"] == "2026-03-04"
    assert first["local_time"].startswith("2026-03-04T2") and first["local_time"].endswith("-03:00")
    assert first["venue_name"].startswith("Sede ")
    assert first["postponed"] is False and first["postponements"] == []

    match_id = first["id"]
    body = {"to": "2026-03-06T20:00:00-03:00", "reason": "Lluvia"}
    url = f"{V1}/matches/{match_id}/postpone/"
    assert client_for().post(url, body, format="json").status_code in (401, 403)
    assert client_for(stranger).post(url, body, format="json").status_code == 403
    refused = client_for(organiser).post(
        url, {"to": "2027-06-06T20:00:00-03:00", "reason": "Lluvia"}, format="json"
    )
    assert refused.status_code == 400
    assert "outside the season" in str(refused.json())
    done = client_for(organiser).post(url, body, format="json")
    assert done.status_code == 201, done.json()
    assert done.json()["postponed"] is True
    assert done.json()["postponements"][0]["reason"] == "Lluvia"

    team = teams[0]
    team_url = f"{V1}/championships/{championship.slug}/teams/{team.pk}/"
    changed = client_for(organiser).patch(
        team_url,
        {"venue_name": "Club Nuevo", "home_weekday": 3, "home_time": "20:30"},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    payload = client_for().get(team_url).json()
    assert payload["venue_name"] == "Club Nuevo" and payload["home_weekday"] == 3
    assert payload["home_time"] == "20:30:00"
    assert payload["venue_address"] == team.venue_address and payload["name"] == team.name
    assert (
        client_for(stranger).patch(team_url, {"venue_name": "X"}, format="json").status_code == 403
    )


@pytest.mark.django_db
def test_a_time_set_on_a_league_match_keeps_the_leagues_rules():
    """``PATCH matches/{id}/`` with a time: the league's own move, refused with its
    sentence on a day its team already plays, and its calendar event moved otherwise."""
    championship, stage, teams = make_league(4)
    organiser = UserFactory()
    championship.organisers.add(organiser)
    api = client_for(organiser)
    mine = [m for m in stage.matches.order_by("round__number") if teams[0] in (m.team_a, m.team_b)]
    first, second = mine[0], mine[1]
    busy = api.patch(
        f"{V1}/matches/{first.pk}/",
        {"scheduled_at": second.scheduled_at.isoformat(), "table": "4"},
        format="json",
    )
    assert busy.status_code == 400
    assert busy.json()["error"]["code"] == "team_busy"
    assert "already plays" in busy.json()["error"]["message"]
    first.refresh_from_db()
    assert first.table == "" and first.schedule_sequence == 0  # nothing changed
    moved = api.patch(
        f"{V1}/matches/{first.pk}/",
        {"scheduled_at": "2026-03-06T20:00:00-03:00", "table": "4"},
        format="json",
    )
    assert moved.status_code == 200, moved.json()
    first.refresh_from_db()
    assert (first.table, first.schedule_sequence) == ("4", 1)
