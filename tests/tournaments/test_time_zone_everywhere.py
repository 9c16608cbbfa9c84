"""Every time of a championship is told in its zone, whatever the server's.

A league in Buenos Aires on a server in Madrid (``settings.TIME_ZONE``): a match at 21:47
there is 01:47 the next day in Madrid. Every page that shows that time (the public's, the
players', the organiser's, the referee's, the printed sheets, the CSV exports) says 21:47
and never 01:47; the calendar feeds carry the zone itself, the API its offset.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import UserFactory
from tests.tournaments.test_league import make_league
from tournaments.championships import zones
from tournaments.entries.services import link_issue
from tournaments.models import ChampionshipReferee, Match

BUENOS_AIRES = zoneinfo.ZoneInfo("America/Argentina/Buenos_Aires")
THERE = dt.datetime(2026, 3, 4, 21, 47, tzinfo=BUENOS_AIRES)
SHOWN, SERVERS = "21:47", "01:47"


@pytest.fixture(autouse=True)
def _no_language_left():
    yield
    translation.deactivate()


@pytest.fixture
def league(db, client):
    assert zoneinfo.ZoneInfo(settings.TIME_ZONE).utcoffset(THERE.replace(tzinfo=None)) != (
        BUENOS_AIRES.utcoffset(THERE.replace(tzinfo=None))
    )
    championship, stage, _teams = make_league(4)
    organiser = UserFactory(username="organiser")
    championship.organisers.add(organiser)
    referee = UserFactory(username="referee")
    ChampionshipReferee.objects.create(championship=championship, user=referee)
    match = stage.matches.exclude(team_b=None).filter(round__number=1).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(scheduled_at=THERE, referee=referee, table="4")
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    return {
        "championship": championship,
        "stage": stage,
        "match": match,
        "home": match.team_a,
        "organiser": organiser,
        "referee": referee,
    }


def _public(run) -> dict[str, str]:
    slug, stage, match, home = (run[k].pk if k != "championship" else run[k].slug
                                for k in ("championship", "stage", "match", "home"))  # fmt: skip
    person = run["home"].memberships.first().player.person_id
    return {
        "match": reverse("tournaments:match", args=[slug, match]),
        "fixtures": reverse("tournaments:fixtures", args=[slug]),
        "fixtures print": reverse("tournaments:fixtures_print", args=[slug]),
        "matchday": reverse("tournaments:matchday", args=[slug, stage, 1]),
        "team fixtures": reverse("tournaments:team_fixtures", args=[slug, home]),
        "team fixtures print": reverse("tournaments:team_fixtures_print", args=[slug, home]),
        "team": reverse("tournaments:team", args=[slug, home]),
        "person": reverse("tournaments:person", args=[person]),
        "round": reverse("tournaments:round", args=[slug, stage, 1]),
        "team link": reverse(
            "tournaments:team_link", args=[slug, link_issue(team=run["home"], via="organiser")]
        ),
    }


def _organiser(run) -> dict[str, str]:
    slug, stage, match = run["championship"].slug, run["stage"].pk, run["match"].pk
    return {
        "stage": reverse("organiser:stage", args=[slug, stage]),
        "matchdays": reverse("organiser:league_matchdays", args=[slug, stage]),
        "schedule": reverse("organiser:league_match_schedule", args=[slug, match]),
        "postpone": reverse("organiser:league_match_postpone", args=[slug, match]),
        "round assign": reverse("organiser:round_assign", args=[slug, stage, 1]),
        "round sheets": reverse("organiser:print_round", args=[slug, stage, 1]),
        "scoresheet": reverse("organiser:print_scoresheet", args=[slug, match]),
        "matches csv": reverse("organiser:export", args=[slug, "matches"]),
        "organised": reverse("referees:organised"),
    }


def _referee(run) -> dict[str, str]:
    return {
        "my matches": reverse("referees:matches"),
    }


def _pages(run, client, who):
    if who == "organiser":
        client.force_login(run["organiser"])
        return _organiser(run)
    if who == "referee":
        client.force_login(run["referee"])
        return _referee(run)
    return _public(run)


@pytest.mark.parametrize("who", ["public", "organiser", "referee"])
def test_every_page_tells_the_time_in_the_championships_zone(client, league, who):
    wrong = {}
    for name, url in _pages(league, client, who).items():
        response = client.get(url)
        assert response.status_code == 200, name
        body = b"".join(
            response.streaming_content if response.streaming else [response.content]
        ).decode()
        if SHOWN not in body or SERVERS in body:
            wrong[name] = url
    assert wrong == {}


def test_the_calendar_feeds_carry_the_zone(client, league):
    slug = league["championship"].slug
    feed = client.get(reverse("tournaments:fixtures_ics", args=[slug])).content.decode()
    assert "DTSTART;TZID=America/Argentina/Buenos_Aires:20260304T214700" in feed


def test_the_api_gives_the_instant_with_its_offset(client, league):
    from tests.api.conftest import V1, client_for

    api = client_for(league["organiser"])
    body = api.get(f"{V1}/matches/{league['match'].pk}/").json()
    assert dt.datetime.fromisoformat(body["scheduled_at"]) == THERE


def test_a_page_served_from_its_zone_looks_nothing_up_until_a_time_is_told(
    league, django_assert_num_queries
):
    from django.urls import resolve

    found = resolve(reverse("tournaments:fixtures", args=[league["championship"].slug]))
    with django_assert_num_queries(0):
        zone = zones.page_zone(found)
    with django_assert_num_queries(1):
        assert THERE.astimezone(zone).hour == 21
        assert THERE.astimezone(zone).hour == 21  # looked up once
    assert zones.page_zone(resolve(reverse("tournaments:home"))) is None


@pytest.mark.page_cache
def test_a_published_page_rendered_again_after_a_write_keeps_the_zone(
    client, league, commit, settings, tmp_path
):
    """The proxy's copy of a page is rendered again by the write, outside any request:
    it tells the time in the championship's zone as the page Django serves does."""
    from tournaments.stages import league as leagues

    settings.PUBLISHED_PAGES_DIR = str(tmp_path / "published")
    url = reverse("tournaments:match", args=[league["championship"].slug, league["match"].pk])
    client.get(url)
    published = tmp_path / "published" / "pages" / "es" / url.lstrip("/") / "index.html"
    assert SHOWN.encode() in published.read_bytes()
    later = dt.datetime(2026, 3, 5, 22, 13, tzinfo=BUENOS_AIRES)  # 02:13 in Madrid
    commit(leagues.match_schedule, match=league["match"], scheduled_at=later)
    renewed = published.read_bytes()
    assert b"22:13" in renewed and b"02:13" not in renewed
    assert renewed == client.get(url).content


def test_the_championship_a_page_reads_gives_it_its_zone(league, django_assert_num_queries):
    from django.urls import resolve
    from django.utils import timezone

    from tournaments.models import Championship

    found = resolve(reverse("tournaments:fixtures", args=[league["championship"].slug]))
    zone = zones.page_zone(found)
    with timezone.override(zone):
        Championship.objects.get(pk=league["championship"].pk)  # as the page's view does
        with django_assert_num_queries(0):
            assert THERE.astimezone(zone).hour == 21
