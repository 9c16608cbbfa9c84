"""A match's page says when and where it is played: its day and hour in the championship's
zone, its venue (a league's: its home club's), its table (a day's championship only), and
a postponement with its reason, or "date to be fixed" when it has no new date yet."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.page_forms import as_posted, form_with
from tests.tournaments.test_league import ZONE, make_league
from tournaments.models import Match
from tournaments.stages import league
from tournaments.stages.services import round_generate, stage_create


@pytest.fixture(autouse=True)
def _no_language_left():
    yield
    translation.deactivate()


def _page(client, match: Match, language: str = "es") -> str:
    slug = match.stage.championship.slug
    url = reverse("tournaments:match", args=[slug, match.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def _first(stage) -> Match:
    found = stage.matches.exclude(team_b=None).filter(round__number=1).order_by("pk").first()
    return Match.objects.select_related("stage__championship", "team_a").get(pk=found.pk)


@pytest.mark.django_db
def test_a_league_match_says_its_day_hour_and_home_clubs_venue_not_a_table(client):
    _championship, stage, _teams = make_league(4)
    match = _first(stage)
    Match.objects.filter(pk=match.pk).update(table="3")  # a league's match has no table
    page = _page(client, match)
    home = match.team_a
    local = match.scheduled_at.astimezone(ZONE)
    assert "Miércoles, 4 de marzo de 2026" in page
    assert local.strftime("%H:%M") in page
    assert f"{home.venue_name}, {home.venue_address}" in page
    assert "Mesa 3" not in page
    english = _page(client, match, "en")
    assert "Wednesday, March 4, 2026" in english


@pytest.mark.django_db
def test_a_days_match_says_its_hour_table_and_the_championships_venue(client):
    championship = ChampionshipFactory(venue="Casal de Gràcia", time_zone="Europe/Madrid")
    for _ in range(2):
        TeamFactory(championship=championship)
    stage = stage_create(championship=championship, format="round_robin", settings={})
    (match,) = round_generate(stage=stage)
    at = dt.datetime(2026, 5, 9, 17, 45, tzinfo=championship.zone)
    Match.objects.filter(pk=match.pk).update(table="7", scheduled_at=at)
    page = _page(client, match, "ca")
    assert "17:45" in page
    assert "Taula 7" in page
    assert "Casal de Gràcia" in page


@pytest.mark.django_db
def test_a_postponed_match_says_so_with_its_new_date_and_reason(client):
    _championship, stage, _teams = make_league(4)
    match = _first(stage)
    later = dt.datetime(2026, 3, 9, 19, 15, tzinfo=ZONE)
    league.match_postpone(match=match, to=later, reason="Lluvia fuerte")
    page = _page(client, match)
    assert "Aplazado: Lluvia fuerte" in page
    assert "Lunes, 9 de marzo de 2026" in page and "19:15" in page
    assert "4 de marzo de 2026" in page  # the day it was to be played
    assert "Programado" not in page


@pytest.mark.django_db
def test_a_match_postponed_without_a_new_date_has_its_date_to_be_fixed(client):
    _championship, stage, _teams = make_league(4)
    match = _first(stage)
    league.match_postpone(match=match, to=None, reason="Sede inundada")
    match.refresh_from_db()
    assert match.scheduled_at is None and match.date_to_be_fixed
    page = _page(client, match)
    assert "Fecha por fijar" in page
    assert "Aplazado, fecha por fijar: Sede inundada" in page


@pytest.mark.django_db
def test_the_organiser_postpones_without_a_date_then_fixes_it(client):
    from django.contrib.auth import get_user_model

    championship, stage, _teams = make_league(4)
    organiser = get_user_model().objects.create_user(username="org", password="x")
    championship.organisers.add(organiser)
    client.force_login(organiser)
    match = _first(stage)
    url = reverse("organiser:league_match_postpone", args=[championship.slug, match.pk])
    form = form_with(client.get(url).content.decode(), "reason")
    data = as_posted(form) | {"date": [""], "time": [""], "reason": ["Sede inundada"]}
    assert client.post(url, data).status_code == 302
    match.refresh_from_db()
    assert match.date_to_be_fixed
    assert match.postponements.get().to_at is None
    days = reverse("organiser:league_matchdays", args=[championship.slug, stage.pk])
    page = client.get(days, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Aplazado, fecha por fijar" in page

    fix = reverse("organiser:league_match_schedule", args=[championship.slug, match.pk])
    form = form_with(client.get(fix).content.decode(), "date")
    data = as_posted(form) | {"date": ["2026-03-10"], "time": ["20:00"]}
    assert client.post(fix, data).status_code == 302
    match.refresh_from_db()
    assert match.scheduled_at == dt.datetime(2026, 3, 10, 20, 0, tzinfo=ZONE)
    assert match.is_postponed and not match.date_to_be_fixed
