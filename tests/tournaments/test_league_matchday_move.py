"""A matchday moved says which of its matches stayed where they were, and why (a home
club's night in the same week, a postponement, a match played), and offers to move them
too, each to a date and time of its own."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournaments.page_forms import as_posted, form_with
from tests.tournaments.test_league import ZONE, make_league
from tournaments.models import Match
from tournaments.stages import league

TUESDAY = 1


@pytest.fixture(autouse=True)
def _no_language_left():
    yield
    translation.deactivate()


@pytest.fixture
def run(db, client):
    # Club 1 plays at home on Tuesdays: on matchday 1 (Wednesday 4 March) it hosts Club 4
    # on Tuesday 3 March.
    championship, stage, teams = make_league(4, weekday_of={1: TUESDAY})
    organiser = get_user_model().objects.create_user(username="organiser", password="x")
    championship.organisers.add(organiser)
    client.force_login(organiser)
    first = list(
        stage.matches.filter(round__number=1).exclude(team_b=None).select_related("team_a")
    )
    tuesday = next(m for m in first if m.team_a_id == teams[0].pk)
    other = next(m for m in first if m.pk != tuesday.pk)
    return {"championship": championship, "stage": stage, "tuesday": tuesday, "other": other}


def _day(match: Match) -> dt.date:
    match.refresh_from_db()
    return timezone.localtime(match.scheduled_at, ZONE).date()


def test_the_service_says_what_stayed_and_why(run):
    assert _day(run["tuesday"]) == dt.date(2026, 3, 3)
    move = league.matchday_set_date(stage=run["stage"], number=1, date=dt.date(2026, 3, 5))
    assert _day(run["other"]) == dt.date(2026, 3, 5)
    assert _day(run["tuesday"]) == dt.date(2026, 3, 3)  # the club's Tuesday of that week
    assert [(s.match.pk, s.reason) for s in move.stayed] == [(run["tuesday"].pk, "home_night")]
    with translation.override("en"):
        said = move.stayed[0].sentence()
    assert said == "Club 1 – Club 4 stays on 03/03/2026: it is Club 1's home day in that week."


def test_a_postponed_match_stays_and_says_so(run):
    league.match_postpone(
        match=run["other"], to=dt.datetime(2026, 3, 20, 21, 0, tzinfo=ZONE), reason="Lluvia"
    )
    move = league.matchday_set_date(stage=run["stage"], number=1, date=dt.date(2026, 3, 11))
    assert [(s.match.pk, s.reason) for s in move.stayed] == [(run["other"].pk, "postponed")]
    assert _day(run["tuesday"]) == dt.date(2026, 3, 10)  # moved: its Tuesday of the new week


def test_the_page_lists_what_stayed_and_moves_it_on(client, run):
    slug, stage = run["championship"].slug, run["stage"]
    page_url = reverse("organiser:league_matchdays", args=[slug, stage.pk])
    action = reverse("organiser:league_matchday_date", args=[slug, stage.pk, 1])
    form = form_with(client.get(page_url).content.decode(), "date", action)
    response = client.post(
        action, as_posted(form) | {"date": ["2026-03-05"]}, HTTP_ACCEPT_LANGUAGE="es", follow=True
    )
    page = response.content.decode()
    assert "Club 1 – Club 4 se queda el 03/03/2026: es el día de local de Club 1" in page
    assert "No se han movido con la jornada" in page
    left = reverse("organiser:league_matchday_matches", args=[slug, stage.pk, 1])
    form = form_with(page, "matches", left)
    tuesday = run["tuesday"].pk
    assert dict(form["fields"])[f"date_{tuesday}"] == "2026-03-05"  # the matchday's new date
    assert dict(form["fields"])[f"time_{tuesday}"] == "20:30"  # its own hour
    response = client.post(left, as_posted(form), HTTP_ACCEPT_LANGUAGE="es", follow=True)
    assert response.status_code == 200
    assert _day(run["tuesday"]) == dt.date(2026, 3, 5)
    assert "No se han movido con la jornada" not in response.content.decode()


def test_a_refused_move_of_the_rest_changes_none_and_says_why(client, run):
    slug, stage = run["championship"].slug, run["stage"]
    league.matchday_set_date(stage=stage, number=1, date=dt.date(2026, 3, 5))
    tuesday = run["tuesday"].pk
    page = client.get(
        reverse("organiser:league_matchdays", args=[slug, stage.pk]) + f"?left={tuesday}",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    left = reverse("organiser:league_matchday_matches", args=[slug, stage.pk, 1])
    form = form_with(page, "matches", left)
    # Club 1 plays matchday 2 at Club 3 on Wednesday 11 March: not twice that day.
    data = as_posted(form) | {f"date_{tuesday}": ["2026-03-11"]}
    response = client.post(left, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "already plays" in response.content.decode()
    assert _day(run["tuesday"]) == dt.date(2026, 3, 3)
