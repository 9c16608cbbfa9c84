"""Control characters in what people type (a line break, ESC, BEL, DEL) are refused with a
sentence on every way in: the entry form, the organiser's forms, the API, the services and
the CSV import (``tournaments.text``, one rule). Free text of several lines keeps its line
breaks; what was stored before the rule still mails; a spreadsheet formula typed with
full-width signs is neutralised in the CSV exports like its ASCII form."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from tests.api.conftest import client_for
from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tournaments.championships import services as championship_services
from tournaments.entries import services as entry_services
from tournaments.entries.mail import entry_link_mail
from tournaments.errors import TournamentError
from tournaments.io import exports
from tournaments.io.imports import ImportRowsError, teams_import
from tournaments.models import Championship, Entry, Person, Team
from tournaments.people import services as people_services
from tournaments.people.services import PersonDetails
from tournaments.stages import services as stage_services

# What a hostile newcomer types: a header injection, a terminal escape, a bell, a DEL.
HOSTILE = ["Los\r\nBcc: x@evil.example", "Los\x1b[31mRojos", "Los\x07Pardos", "Los\x7fAnchos"]
ONE_LINE = "Write this on one line, without line breaks, tabs or other invisible control"


@pytest.fixture(autouse=True)
def own_cache(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"text-{id(settings)}",
        }
    }


@pytest.fixture
def copa(db):
    championship = ChampionshipFactory(
        name="Copa", slug="copa", status=Championship.Status.REGISTRATION
    )
    entry_services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=None,
        closes_at=None,
        asks=["licence", "phone", "email"],
        fee=None,
        fee_instructions="",
    )
    return championship


@pytest.fixture
def organiser(copa):
    user = UserFactory(username="organiser")
    copa.organisers.add(user)
    return user


@pytest.mark.parametrize("hostile", HOSTILE)
def test_the_services_refuse_a_team_name_with_a_control_character(copa, hostile):
    with pytest.raises(TournamentError) as error:
        championship_services.team_create(championship=copa, name=hostile, players=["A", "B"])
    assert error.value.code == "control_characters"
    with translation.override("en"):
        assert error.value.text.startswith(
            "The team's name holds a line break or an invisible control character"
        )
    with pytest.raises(TournamentError):
        championship_services.team_create(
            championship=copa, name="Sanos", players=[PersonDetails(name="Ana", phone=hostile)]
        )
    assert not Team.objects.exists() and not Person.objects.exists()


def test_the_entry_form_says_it_beside_each_field_and_enters_nothing(client, copa):
    url = reverse("tournaments:enter", args=[copa.slug])
    key = re.search(r'name="form_key" value="([^"]+)"', client.get(url).content.decode())
    data = {
        "form_key": key.group(1),
        "team_name": "Los\r\nPardos",
        "player_1": "Ana\x7f",
        "licence_1": "L\x071",
        "player_2": "Beto",
        "licence_2": "L-2",
        "email": "ana@example.org",
        "phone": "\x1b600",
    }
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response.content.decode().count(ONE_LINE) == 4
    assert not Entry.objects.exists()
    spanish = client.post(url, data, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Escríbelo en una sola línea" in spanish


def test_the_entry_service_names_each_field(copa):
    problems = entry_services.entry_problems(
        championship=copa,
        team_name="Los\nPardos",
        players=[PersonDetails(name="Ana", licence="L\x07", phone="6\x1b"), PersonDetails("B")],
        captain=None,
        club="",
        email="a@b.es",
    )
    codes = {p.params["field"]: p.code for p in problems if p.code == "control_characters"}
    assert set(codes) == {"team_name", "licence_1", "phone"}


@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_the_api_refuses_it_with_a_sentence_beside_the_field(copa, organiser, language):
    entries = reverse("api:entries", args=[copa.slug])
    response = client_for(language=language).post(
        entries,
        {
            "team_name": "Los\r\nPardos",
            "players": [{"name": "Ana", "licence": "L-1"}, {"name": "Beto", "licence": "L\x072"}],
            "email": "ana@example.org",
            "phone": "600",
        },
        format="json",
    )
    assert response.status_code == 400
    fields = response.json()["error"]["fields"]
    assert set(fields) == {"team_name", "players"}
    message = {
        "en": ONE_LINE,
        "es": "Escríbelo en una sola línea",
        "ca": "Escriu-ho en una sola línia",
    }[language]
    assert fields["team_name"][0].startswith(message)
    teams = reverse("api:teams", args=[copa.slug])
    client = client_for(organiser, language=language)
    for team in (
        {"name": "Los\x1bRojos"},
        {"name": "Sanos", "players": [{"name": "Ana", "phone": "6\x7f00"}, "Beto\x07"]},
    ):
        response = client.post(teams, team, format="json")
        assert response.status_code == 400, team
        assert response.json()["error"]["message"]
    assert not Team.objects.exists()


def test_the_organiser_forms_say_it_beside_the_field(client, copa, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:teams", args=[copa.slug]),
        {"name": "Los\x1bAnchos", "player_1": "Ana", "player_2": "Beto", "phone_2": "6\x0700"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.content.decode().count(ONE_LINE) == 2
    assert not Team.objects.exists()
    team = TeamFactory(championship=copa)
    person = team.memberships.first().player.person
    response = client.post(
        reverse("organiser:person_edit", args=[person.pk]),
        {"name": person.name, "licence": "L\r\n1", "phone": "\x7f"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.content.decode().count(ONE_LINE) == 2
    with pytest.raises(TournamentError) as error:
        people_services.person_update(person=person, by=organiser, phone="600\x1b")
    assert error.value.code == "control_characters"
    person.refresh_from_db()
    assert person.licence == "" and person.phone == ""


def test_the_csv_import_refuses_it_on_its_row(copa):
    with pytest.raises(ImportRowsError) as error:
        teams_import(championship=copa, file="team,player,phone\nA,Ana,6\x1b00\nA,Beto\u202e,\n")
    rows = error.value.rows
    assert [(row.row, row.column) for row in rows] == [(2, "phone"), (3, "player")]
    with translation.override("en"):
        assert all("holds a control character" in str(row.message) for row in rows)


def test_free_text_keeps_its_lines_and_loses_the_other_controls(copa, organiser):
    entry, _token = entry_services.entry_submit(
        championship=copa,
        team_name="Los Pardos",
        players=[PersonDetails("Ana", licence="L-1", phone="600"), PersonDetails("B", "", "L-2")],
        email="ana@example.org",
    )
    entry_services.entry_refuse(
        entry=entry, by=organiser, via="organiser", reason="No quedan plazas.\r\nLo siento\x07\x1b"
    )
    entry.refresh_from_db()
    assert entry.reason == "No quedan plazas.\nLo siento"


def test_a_name_stored_before_the_rule_still_mails_its_link(copa):
    entry, _token = entry_services.entry_submit(
        championship=copa,
        team_name="Los Pardos",
        players=[PersonDetails("Ana", licence="L-1", phone="600"), PersonDetails("B", "", "L-2")],
        email="ana@example.org",
    )
    Team.objects.filter(pk=entry.team_id).update(name="Los\r\nPardos")
    entry.refresh_from_db()
    assert entry_link_mail(entry=entry, link="https://example.org/c/copa/team/x/") is True
    (message,) = mail.outbox
    assert "\n" not in message.subject and "\r" not in message.subject


@pytest.mark.parametrize("formula", ["＝1+1", "＋1+1", "－2+3", "＠SUM(A1)", "﹦1+1"])
def test_a_full_width_formula_is_neutralised_in_the_exports(championship, formula):
    TeamFactory(championship=championship, name=formula, club=formula)
    TeamFactory(championship=championship, name="Los Anchos")
    stage_services.stage_create(championship=championship, format="round_robin")
    text = "".join(exports.export_standings(championship)).removeprefix("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert {row["club"] for row in rows if row["team"].endswith(formula)} == {"'" + formula}
