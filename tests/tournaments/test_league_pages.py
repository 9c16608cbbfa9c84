"""A league's fixture lists (matchdays, a team's season, their printable copies) and its
calendar feeds, read back with ``icalendar``."""

import datetime as dt

import icalendar
import pytest
from django.utils import translation

from tests.tournaments.test_league import ZONE, make_league
from tournaments.stages import league


def _feed(client, url):
    # A feed speaks the subscriber's language: these tests read it in English.
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def _events(calendar):
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


@pytest.mark.django_db
def test_the_feeds_hold_every_fixture_and_follow_a_postponement(client):
    championship, stage, teams = make_league(6, weekday_of={2: 4})
    fixtures = list(stage.matches.exclude(team_b=None).select_related("team_a", "team_b", "round"))
    events = _events(_feed(client, f"/c/{championship.slug}/fixtures.ics"))
    assert len(events) == len(fixtures) == 30
    assert set(events) == {f"match-{m.pk}@testserver" for m in fixtures}
    match = fixtures[0]
    event = events[f"match-{match.pk}@testserver"]
    start = event.decoded("DTSTART")
    assert start == match.scheduled_at
    assert str(start.tzinfo) == "America/Argentina/Buenos_Aires"
    assert event.decoded("DTEND") - start == dt.timedelta(hours=2)
    assert str(event["SUMMARY"]) == f"{match.team_a.name} – {match.team_b.name} · Matchday 1"
    assert str(event["LOCATION"]) == f"{match.team_a.venue_name}, {match.team_a.venue_address}"
    assert f"/c/{championship.slug}/matches/{match.pk}/" in str(event["DESCRIPTION"])
    assert int(event["SEQUENCE"]) == 0

    team = teams[1]
    mine = _events(_feed(client, f"/c/{championship.slug}/teams/{team.pk}/fixtures.ics"))
    assert len(mine) == 10
    home = [e for e in mine.values() if str(e["LOCATION"]).startswith(team.venue_name)]
    assert len(home) == 5
    assert all(e.decoded("DTSTART").weekday() == 4 for e in home)  # its own night

    new = dt.datetime(2026, 3, 6, 19, 0, tzinfo=ZONE)
    league.match_postpone(match=match, to=new, reason="Lluvia", venue_name="Club Otro")
    moved = _events(_feed(client, f"/c/{championship.slug}/fixtures.ics"))
    again = moved[f"match-{match.pk}@testserver"]
    assert len(moved) == 30
    assert again.decoded("DTSTART") == new
    assert int(again["SEQUENCE"]) == 1
    assert str(again["STATUS"]) != "CANCELLED"
    assert str(again["LOCATION"]).startswith("Club Otro")
    assert again.decoded("LAST-MODIFIED") >= event.decoded("LAST-MODIFIED")  # to the second


@pytest.mark.django_db
def test_the_fixture_pages_show_dates_venues_and_postponements(client):
    championship, stage, _teams = make_league(4)
    match = stage.matches.exclude(team_b=None).select_related("team_a").first()
    league.match_postpone(
        match=match, to=dt.datetime(2026, 3, 6, 19, 0, tzinfo=ZONE), reason="Lluvia"
    )
    with translation.override("en"):
        pages = [
            f"/c/{championship.slug}/fixtures/",
            f"/c/{championship.slug}/stages/{stage.pk}/matchdays/1/",
            f"/c/{championship.slug}/fixtures/print/",
            f"/c/{championship.slug}/teams/{match.team_a_id}/fixtures/",
            f"/c/{championship.slug}/teams/{match.team_a_id}/fixtures/print/",
        ]
        for url in pages:
            page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
            assert "Postponed" in page, url
            assert match.team_a.venue_name in page, url
            assert "19:00" in page, url
        assert "fixtures.ics" in client.get(pages[3], HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert (
            "Add to your calendar"
            in client.get(pages[0], HTTP_ACCEPT_LANGUAGE="en").content.decode()
        )
        team_page = client.get(
            f"/c/{championship.slug}/teams/{match.team_a_id}/", HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
        assert f"/c/{championship.slug}/teams/{match.team_a_id}/fixtures/" in team_page
        home = client.get(f"/c/{championship.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert f"/c/{championship.slug}/fixtures/" in home
        standings = client.get(
            f"/c/{championship.slug}/stages/{stage.pk}/standings/", HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
        assert "Postponed, still to be played" in standings
    assert client.get(f"/c/{championship.slug}/stages/{stage.pk}/matchdays/99/").status_code == 404
