"""A league's calendar as a newcomer reads it: no matchday on 25 December or 1 January
unless the organiser asks, a match postponed with its date to be fixed shown as such
wherever it appears, its rounds always "matchdays" (never "Ronda"), and a venue where a
day's championship has a table."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.page_forms import as_posted, form_with
from tests.tournaments.test_league import ZONE, make_league
from tournaments.championships import services as championship_services
from tournaments.entries.services import link_issue
from tournaments.models import ChampionshipReferee, Match, Stage
from tournaments.stages import league
from tournaments.stages.services import round_generate, stage_create

BLACKOUT = {(12, 25), (1, 1)}


@pytest.fixture(autouse=True)
def _no_language_left():
    yield
    translation.deactivate()


def _winter_league(*, skip: list[str] | None = None, fridays: bool = False) -> Stage:
    """A league of Fridays (11 Dec 2026, then weekly) over the new year."""
    championship = ChampionshipFactory(
        time_zone="Europe/Madrid", start_date=dt.date(2026, 12, 1), end_date=dt.date(2027, 4, 30)
    )
    for n in range(1, 5):
        TeamFactory(
            championship=championship,
            seed=n,
            name=f"Club {n}",
            venue_name=f"Sede {n}",
            home_weekday=4 if fridays else None,  # Friday
        )
    settings = {"cycles": 2, "first_date": "2026-12-09" if fridays else "2026-12-11"}
    if skip is not None:
        settings["skip_dates"] = skip
    stage = stage_create(championship=championship, format="league", settings=settings)
    round_generate(stage=stage)
    return stage


def _match_days(stage: Stage) -> set[dt.date]:
    zone = stage.championship.zone
    return {
        timezone.localtime(m.scheduled_at, zone).date() for m in stage.matches.exclude(team_b=None)
    }


@pytest.mark.django_db
def test_no_matchday_on_christmas_or_new_years_day_unless_asked():
    stage = _winter_league()
    dates = list(stage.rounds.order_by("number").values_list("date", flat=True))
    assert dates[:3] == [dt.date(2026, 12, 11), dt.date(2026, 12, 18), dt.date(2027, 1, 8)]
    assert not {(d.month, d.day) for d in _match_days(stage)} & BLACKOUT
    asked = _winter_league(skip=[])
    dates = list(asked.rounds.order_by("number").values_list("date", flat=True))
    assert dates[:3] == [dt.date(2026, 12, 11), dt.date(2026, 12, 18), dt.date(2026, 12, 25)]


@pytest.mark.django_db
def test_a_home_clubs_night_on_a_blackout_date_moves_its_matchday_on():
    # Matchdays on Wednesdays, every club at home on Fridays: 23 Dec's week plays on the
    # 25th, 30 Dec's on 1 Jan: both weeks are skipped.
    stage = _winter_league(fridays=True)
    assert not {(d.month, d.day) for d in _match_days(stage)} & BLACKOUT
    dates = list(stage.rounds.order_by("number").values_list("date", flat=True))
    assert dates[:3] == [dt.date(2026, 12, 9), dt.date(2026, 12, 16), dt.date(2027, 1, 6)]


@pytest.mark.django_db
def test_the_fixtures_page_says_which_days_are_skipped(client):
    stage = _winter_league()
    url = reverse("tournaments:fixtures", args=[stage.championship.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Sin jornada el 25 de diciembre, 1 de enero." in page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ca").content.decode()
    assert "Sense jornada el 25 de desembre, 1 de gener." in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "kept"),
    [(None, ["12-25", "01-01"]), ("", []), ("24/12, 31/12/2026", ["12-24", "2026-12-31"])],
)
def test_the_organiser_chooses_the_days_to_skip_in_the_stage_form(client, typed, kept):
    championship = ChampionshipFactory(start_date=dt.date(2026, 12, 1))
    for _ in range(4):
        TeamFactory(championship=championship)
    organiser = get_user_model().objects.create_user(username="org", password="x")
    championship.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("organiser:stage_create", args=[championship.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    form = form_with(page, "skip_dates")
    assert dict(form["fields"])["skip_dates"] == "25/12, 1/1"
    data = as_posted(form) | {"format": ["league"], "first_date": ["2026-12-11"]}
    if typed is not None:
        data["skip_dates"] = [typed]
    assert client.post(url, data).status_code == 302
    assert championship.stages.get().settings["skip_dates"] == kept


@pytest.mark.django_db
def test_a_day_that_is_no_date_is_refused_with_a_sentence(client):
    championship = ChampionshipFactory(start_date=dt.date(2026, 12, 1))
    TeamFactory(championship=championship)
    organiser = get_user_model().objects.create_user(username="org", password="x")
    championship.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("organiser:stage_create", args=[championship.slug])
    form = form_with(client.get(url).content.decode(), "skip_dates")
    data = as_posted(form) | {"format": ["league"], "skip_dates": ["31/2"]}
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "31/2 is not a day/month nor a day/month/year." in page
    assert not championship.stages.exists()


@pytest.fixture
def to_be_fixed(db, client):
    """A league's match postponed with no new date yet, and everyone who sees it."""
    championship, stage, _teams = make_league(4)
    organiser = get_user_model().objects.create_user(username="organiser", password="x")
    championship.organisers.add(organiser)
    referee = get_user_model().objects.create_user(username="referee", password="x")
    ChampionshipReferee.objects.create(championship=championship, user=referee)
    match = stage.matches.exclude(team_b=None).filter(round__number=1).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(referee=referee)
    league.match_postpone(match=match, to=None, reason="Sede inundada")
    match.refresh_from_db()
    return {
        "championship": championship,
        "stage": stage,
        "match": match,
        "organiser": organiser,
        "referee": referee,
    }


def test_date_to_be_fixed_is_said_wherever_the_match_shows(client, to_be_fixed):
    championship, stage, match = (to_be_fixed[k] for k in ("championship", "stage", "match"))
    slug, home = championship.slug, match.team_a
    public = {
        "fixtures": reverse("tournaments:fixtures", args=[slug]),
        "matchday": reverse("tournaments:matchday", args=[slug, stage.pk, 1]),
        "fixtures print": reverse("tournaments:fixtures_print", args=[slug]),
        "team fixtures": reverse("tournaments:team_fixtures", args=[slug, home.pk]),
        "team fixtures print": reverse("tournaments:team_fixtures_print", args=[slug, home.pk]),
        "team": reverse("tournaments:team", args=[slug, home.pk]),
        "standings": reverse("tournaments:standings", args=[slug, stage.pk]),
        "match": reverse("tournaments:match", args=[slug, match.pk]),
        "team link": reverse(
            "tournaments:team_link", args=[slug, link_issue(team=home, via="organiser")]
        ),
    }
    organiser = {
        "matchdays": reverse("organiser:league_matchdays", args=[slug, stage.pk]),
        "stage": reverse("organiser:stage", args=[slug, stage.pk]),
        "postpone": reverse("organiser:league_match_postpone", args=[slug, match.pk]),
        "organised": reverse("referees:organised"),
    }
    missing = []
    for who, pages in ((None, public), (to_be_fixed["organiser"], organiser)):
        if who is not None:
            client.force_login(who)
        for name, url in pages.items():
            page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
            if "date to be fixed" not in page.lower():
                missing.append(name)
    client.force_login(to_be_fixed["referee"])
    mine = client.get(reverse("referees:matches"), HTTP_ACCEPT_LANGUAGE="en")
    if "date to be fixed" not in mine.content.decode().lower():
        missing.append("my matches")
    assert missing == []


def test_the_calendar_feed_keeps_it_where_it_was_marked_tentative(client, to_be_fixed):
    slug = to_be_fixed["championship"].slug
    feed = client.get(
        reverse("tournaments:fixtures_ics", args=[slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    unfolded = feed.replace("\r\n ", "")
    uid = f"match-{to_be_fixed['match'].pk}@"
    event = next(e for e in unfolded.split("BEGIN:VEVENT")[1:] if uid in e)
    assert "STATUS:TENTATIVE" in event
    assert "SUMMARY:Postponed\\, date to be fixed: " in event
    was = to_be_fixed["match"].postponements.get().from_at.astimezone(ZONE)
    assert f"DTSTART;TZID=America/Argentina/Buenos_Aires:{was:%Y%m%dT%H%M%S}" in event


def test_the_api_lists_it_without_a_date_and_takes_one_without(to_be_fixed):
    api = client_for(to_be_fixed["organiser"])
    slug, match = to_be_fixed["championship"].slug, to_be_fixed["match"]
    listed = api.get(f"{V1}/championships/{slug}/fixtures/").json()["results"]
    row = next(r for r in listed if r["id"] == match.pk)
    assert row["scheduled_at"] is None and row["postponed"] is True
    assert row["postponements"][-1]["to_at"] is None
    other = to_be_fixed["stage"].matches.exclude(team_b=None).exclude(pk=match.pk).first()
    response = api.post(f"{V1}/matches/{other.pk}/postpone/", {"reason": "Lluvia"}, format="json")
    assert response.status_code == 201, response.content
    other.refresh_from_db()
    assert other.date_to_be_fixed


def _league_pages(championship, stage, match) -> dict[str, str]:
    slug = championship.slug
    return {
        "championship": reverse("tournaments:championship", args=[slug]),
        "round": reverse("tournaments:round", args=[slug, stage.pk, 1]),
        "match": reverse("tournaments:match", args=[slug, match.pk]),
        "fixtures": reverse("tournaments:fixtures", args=[slug]),
        "standings": reverse("tournaments:standings", args=[slug, stage.pk]),
        "team": reverse("tournaments:team", args=[slug, match.team_a_id]),
        "stage": reverse("organiser:stage", args=[slug, stage.pk]),
        "team edit": reverse("organiser:team_edit", args=[slug, match.team_a_id]),
        "matches csv": reverse("organiser:export", args=[slug, "matches"]),
        "feed": reverse("tournaments:fixtures_ics", args=[slug]),
        "organised": reverse("referees:organised"),
    }


@pytest.mark.django_db
def test_a_leagues_rounds_are_matchdays_everywhere(client):
    championship, stage, _teams = make_league(4)
    organiser = get_user_model().objects.create_user(username="organiser", password="x")
    championship.organisers.add(organiser)
    match = stage.matches.exclude(team_b=None).filter(round__number=1).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(referee=organiser)
    home = match.team_a
    championship_services.team_substitute(
        team=home,
        player_out=home.memberships.first().player,
        name="Suplente Pérez",
        stage=stage,
        from_round=2,
        by=organiser,
    )
    client.force_login(organiser)
    rounds = []
    for name, url in _league_pages(championship, stage, match).items():
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
        assert response.status_code == 200, name
        body = b"".join(
            response.streaming_content if response.streaming else [response.content]
        ).decode()
        if "ronda" in body.lower() or "jornada" not in body.lower():
            rounds.append(name)
    api = client_for(organiser)
    found = api.get(f"{V1}/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").json()
    if found["round_name"] != "Jornada 1":
        rounds.append("api")
    assert rounds == []


@pytest.mark.django_db
def test_a_league_match_shows_its_venue_not_a_table_to_be_announced(client):
    championship, stage, _teams = make_league(4)
    match = stage.matches.exclude(team_b=None).filter(round__number=1).order_by("pk").first()
    home = match.team_a
    pages = {
        "team": reverse("tournaments:team", args=[championship.slug, home.pk]),
        "team link": reverse(
            "tournaments:team_link",
            args=[championship.slug, link_issue(team=home, via="organiser")],
        ),
    }
    for name, url in pages.items():
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
        assert "Mesa" not in page, name
        assert home.venue_name in page, name
