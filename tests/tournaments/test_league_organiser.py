"""The organiser's side of a league on the site: the matchdays page, a matchday moved, a
match's date, time and venue edited, a match postponed with its reason; each refusal
shown with its sentence and nothing changed."""

from __future__ import annotations

import datetime as dt

import icalendar
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.test_league import ZONE, make_league
from tournaments.models import Match, Postponement
from tournaments.results import services as result_services
from tournaments.stages import league

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
OUTSIDE = "01/05/2027 is outside the season (03/01/2026 to 12/20/2026)."


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="organiser", password="x")


@pytest.fixture
def run(organiser, client):
    championship, stage, teams = make_league(6)
    championship.organisers.add(organiser)
    client.force_login(organiser)
    played = list(
        stage.matches.exclude(team_b=None)
        .select_related("round", "team_a", "team_b")
        .order_by("round__number", "scheduled_at", "pk")
    )
    return {"championship": championship, "stage": stage, "teams": teams, "matches": played}


def _urls(run) -> dict[str, str]:
    slug, stage, match = run["championship"].slug, run["stage"], run["matches"][0]
    return {
        "matchdays": reverse("organiser:league_matchdays", args=[slug, stage.pk]),
        "date": reverse("organiser:league_matchday_date", args=[slug, stage.pk, 1]),
        "schedule": reverse("organiser:league_match_schedule", args=[slug, match.pk]),
        "postpone": reverse("organiser:league_match_postpone", args=[slug, match.pk]),
    }


def _local(match: Match) -> dt.datetime:
    return timezone.localtime(match.scheduled_at, ZONE)


def test_the_matchdays_page_shows_dates_matches_and_postponements(
    run, client, django_assert_max_num_queries
):
    first = run["matches"][0]
    league.match_postpone(
        match=first, to=dt.datetime(2026, 3, 6, 19, 0, tzinfo=ZONE), reason="Lluvia fuerte"
    )
    urls = _urls(run)
    # The login's, the championship, the stage, its rounds, their matches, the
    # postponements: 6 whatever the number of matchdays.
    with django_assert_max_num_queries(6):
        response = client.get(urls["matchdays"], **EN)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Matchday 1" in page and "Matchday 10" in page
    assert 'value="2026-03-04"' in page  # matchday 1's date, editable
    assert page.count("Move the matchday") == 10
    assert "Postponed" in page and "Lluvia fuerte" in page
    assert "19:00" in page and first.team_a.venue_name in page
    assert urls["schedule"] in page and urls["postpone"] in page
    assert page.count("/schedule/") == len(run["matches"]) == 30


def test_the_pages_lead_to_the_matchdays(run, client):
    slug, stage, match = run["championship"].slug, run["stage"], run["matches"][0]
    urls = _urls(run)
    for url in (
        reverse("organiser:stage", args=[slug, stage.pk]),
        reverse("organiser:championship", args=[slug]),
        reverse("organiser:match_results", args=[slug, match.pk]),
    ):
        assert urls["matchdays"] in client.get(url, **EN).content.decode(), url
    result_page = client.get(reverse("organiser:match_results", args=[slug, match.pk]), **EN)
    assert urls["postpone"] in result_page.content.decode()


def test_another_organiser_and_anonymous_are_refused(run, client):
    urls = _urls(run)
    match = run["matches"][0]
    before = (match.scheduled_at, match.schedule_sequence)
    data = {"date": "2026-03-05", "time": "20:00", "reason": "Lluvia"}
    client.logout()
    for url in urls.values():
        for response in (client.get(url), client.post(url, data)):
            assert response.status_code == 302
            assert response["Location"].startswith(reverse("login"))
    other = get_user_model().objects.create_user(username="other", password="x")
    client.force_login(other)
    for url in urls.values():
        assert client.get(url).status_code == 404
        assert client.post(url, data).status_code == 404
    match.refresh_from_db()
    assert (match.scheduled_at, match.schedule_sequence) == before
    assert not Postponement.objects.exists()
    assert run["stage"].rounds.get(number=1).date == dt.date(2026, 3, 4)


def _busy_day(run) -> str:
    """A day on which the first match's home team already plays (its matchday 2)."""
    first = run["matches"][0]
    other = next(
        m
        for m in run["matches"]
        if m.round.number == 2 and first.team_a_id in (m.team_a_id, m.team_b_id)
    )
    return _local(other).date().isoformat()


@pytest.mark.parametrize(
    ("action", "data", "sentence"),
    [
        ("date", {"date": "2027-01-05"}, OUTSIDE),
        ("schedule", {"date": "2026-02-20", "time": "20:00"}, "is outside the season"),
        ("schedule", {"date": "busy", "time": "20:00"}, "already plays"),
        ("postpone", {"date": "2026-12-21", "time": "20:00", "reason": "Lluvia"}, "outside"),
        ("postpone", {"date": "busy", "time": "20:00", "reason": "Lluvia"}, "already plays"),
        ("postpone", {"date": "2026-03-06", "time": "20:00", "reason": "  "}, "Say why"),
        ("postpone", {"date": "2026-03-06", "time": "20:00", "reason": "Lluvia"}, "decided"),
        ("schedule", {"date": "2026-03-06", "time": "20:00"}, "already decided"),
    ],
)
def test_each_refusal_shows_its_sentence_and_changes_nothing(run, client, action, data, sentence):
    match = run["matches"][0]
    if sentence.endswith("decided"):
        result_services.match_walkover(match=match, winner=match.team_a, reason="No vino")
        match.refresh_from_db()
    data = {"venue_name": "Club Nuevo", **data}
    if data["date"] == "busy":
        data["date"] = _busy_day(run)
    before = (match.scheduled_at, match.schedule_sequence, match.venue_name)
    response = client.post(_urls(run)[action], data, **EN)
    page = response.content.decode()
    assert response.status_code == 200
    assert sentence.rstrip(".") in page.replace("&#x27;", "'")
    assert 'class="form-error"' in page
    assert f'value="{data["date"]}"' in page  # what was typed is kept
    match.refresh_from_db()
    assert (match.scheduled_at, match.schedule_sequence, match.venue_name) == before
    assert not Postponement.objects.exists()
    assert run["stage"].rounds.get(number=1).date == dt.date(2026, 3, 4)


def test_a_matchday_moved_and_a_match_edited_from_the_site(run, client):
    urls = _urls(run)
    response = client.post(urls["date"], {"date": "2026-03-05"}, **EN)
    assert response.status_code == 302
    assert response["Location"].endswith("#matchday-1")
    assert run["stage"].rounds.get(number=1).date == dt.date(2026, 3, 5)
    match = Match.objects.get(pk=run["matches"][0].pk)
    assert _local(match).date() == dt.date(2026, 3, 5)
    response = client.post(
        urls["schedule"],
        {"date": "2026-03-06", "time": "18:15", "venue_name": "Club Nuevo", "venue_address": ""},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert _local(match) == dt.datetime(2026, 3, 6, 18, 15, tzinfo=ZONE)
    assert match.venue_name == "Club Nuevo" and not match.postponed
    assert match.schedule_sequence == 2
    form = client.get(urls["schedule"], **EN).content.decode()
    assert 'value="2026-03-06"' in form and 'value="18:15"' in form


def test_a_postponement_shows_on_the_fixtures_and_in_the_team_calendar(run, client, organiser):
    match = run["matches"][0]
    slug = run["championship"].slug
    urls = _urls(run)
    data = {"date": "2026-03-06", "time": "19:30", "venue_name": "Club Otro", "reason": "Lluvia"}
    response = client.post(urls["postpone"], {**data, "venue_address": "Calle 9"}, **EN)
    assert response.status_code == 302
    assert response["Location"].endswith(f"#match-{match.pk}")
    moved = Postponement.objects.get(match=match)
    assert moved.by == organiser and moved.reason == "Lluvia"

    history = client.get(urls["postpone"], **EN).content.decode()
    assert "Lluvia" in history and "organiser" in history
    fixtures = client.get(f"/c/{slug}/fixtures/", **EN).content.decode()
    assert "Postponed" in fixtures and "19:30" in fixtures and "Club Otro" in fixtures
    feed = client.get(f"/c/{slug}/teams/{match.team_a_id}/fixtures.ics")
    events = {str(e["UID"]): e for e in icalendar.Calendar.from_ical(feed.content).walk("VEVENT")}
    event = events[f"match-{match.pk}@testserver"]
    assert int(event["SEQUENCE"]) == 1
    assert event.decoded("DTSTART") == dt.datetime(2026, 3, 6, 19, 30, tzinfo=ZONE)
    assert str(event["LOCATION"]).startswith("Club Otro")
