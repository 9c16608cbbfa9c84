"""The home page: lists the public championships, in Spanish, Catalan or English."""

import datetime
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tournaments.models import Championship

HOME = "/"
START = datetime.date(2026, 5, 1)

# What each language shows for a championship open for registration, and for none.
LANGUAGES = {
    "es": ("Campeonatos", "Inscripción abierta", "Todavía no hay campeonatos. ¡Vuelve pronto!"),
    "ca": ("Campionats", "Inscripció oberta", "Encara no hi ha cap campionat. Torna aviat!"),
    "en": ("Championships", "Registration open", "There are no championships yet. Come back soon!"),
}


@pytest.fixture
def open_championship(championship_factory):
    return championship_factory(
        name="Torneig de Truc de Sant Jordi",
        status=Championship.Status.REGISTRATION,
        start_date=datetime.date(2026, 4, 23),
        end_date=datetime.date(2026, 4, 25),
    )


def test_home_is_the_root_url():
    assert reverse("tournaments:home") == HOME


@pytest.mark.parametrize("language", LANGUAGES)
def test_home_speaks_the_browser_language(client, open_championship, language):
    heading, status, _empty = LANGUAGES[language]
    response = client.get(HOME, HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<html lang="{language}">' in html
    assert f"<h1>{heading}</h1>" in html
    assert "Torneig de Truc de Sant Jordi" in html
    assert status in html


def test_spanish_is_the_default_language(client, open_championship):
    html = client.get(HOME).content.decode()
    assert '<html lang="es">' in html
    assert "Inscripción abierta" in html


def test_dates_are_written_in_the_page_language(client, open_championship):
    catalan = client.get(HOME, HTTP_ACCEPT_LANGUAGE="ca").content.decode()
    english = client.get(HOME, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Del 23 d'abril de 2026 al 25 d'abril de 2026" in catalan.replace("&#x27;", "'")
    assert "From April 23, 2026 to April 25, 2026" in english


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_language_switch_sticks_over_the_browser_language(client, open_championship, language):
    heading, status, _empty = LANGUAGES[language]
    switched = client.post(reverse("set_language"), {"language": language, "next": HOME})
    assert switched.status_code == 302
    assert switched["Location"] == HOME

    # The browser still asks for another language: the visitor's choice wins.
    other = "en" if language != "en" else "ca"
    html = client.get(HOME, HTTP_ACCEPT_LANGUAGE=other).content.decode()
    assert f'<html lang="{language}">' in html
    assert f"<h1>{heading}</h1>" in html
    assert status in html


def test_the_switch_offers_every_language_by_its_own_name(client, db):
    html = client.get(HOME, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # Links, not a form: the page carries no CSRF token (it is cached for every reader).
    assert "csrfmiddlewaretoken" not in html
    for code, name in (("es", "español"), ("ca", "català"), ("en", "English")):
        link = f'href="{reverse("set_language")}?language={code}&amp;next=/" lang="{code}"'
        assert link in html
        assert f">{name}</a>" in html
    assert re.search(r'hreflang="en" rel="nofollow"\s+aria-current="true"', html)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_switch_link_sticks_over_the_browser_language(client, open_championship, language):
    heading, _status, _empty = LANGUAGES[language]
    switched = client.get(reverse("set_language"), {"language": language, "next": HOME})
    assert switched.status_code == 302
    assert switched["Location"] == HOME
    other = "en" if language != "en" else "ca"
    html = client.get(HOME, HTTP_ACCEPT_LANGUAGE=other).content.decode()
    assert f'<html lang="{language}">' in html
    assert f"<h1>{heading}</h1>" in html


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:x"])
def test_the_switch_goes_back_only_to_this_site(client, db, target):
    response = client.get(reverse("set_language"), {"language": "ca", "next": target})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_an_unknown_language_changes_nothing(client, open_championship):
    response = client.get(reverse("set_language"), {"language": "xx", "next": HOME})
    assert response.status_code == 302
    assert "django_language" not in response.cookies
    assert '<html lang="es">' in client.get(HOME).content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_championships_gives_a_friendly_message(client, db, language):
    *_, empty = LANGUAGES[language]
    html = client.get(HOME, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert empty in html
    assert "championship-card" not in html


def test_drafts_stay_hidden(client, championship_factory):
    championship_factory(name="Liga secreta", status=Championship.Status.DRAFT)
    html = client.get(HOME).content.decode()
    assert "Liga secreta" not in html
    assert LANGUAGES["es"][2] in html


def test_every_public_status_is_listed_newest_first(client, championship_factory):
    statuses = ["finished", "running", "registration"]
    for day, status in enumerate(statuses, start=1):
        championship_factory(
            name=f"Copa {status}", status=status, start_date=START.replace(day=day)
        )
    html = client.get(HOME, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    positions = [html.index(f"Copa {status}") for status in ("registration", "running", "finished")]
    assert positions == sorted(positions)
    assert "In play" in html
    assert "Finished" in html


def test_the_home_page_costs_one_query_however_many_championships(
    client, championship_factory, django_assert_max_num_queries
):
    championship_factory.create_batch(12)
    with django_assert_max_num_queries(1):
        response = client.get(HOME)
    assert response.content.decode().count('class="championship-card ') == 12


def test_the_page_fits_phones_and_tablets(client, db):
    html = client.get(HOME).content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert 'href="/static/css/tanteo.css"' in html
    stylesheet = finders.find("css/tanteo.css")
    assert stylesheet is not None
    with open(stylesheet, encoding="utf-8") as css:
        assert "@media (min-width:" in css.read()


def test_health_check_answers_ok_whatever_the_host(client, db, settings):
    settings.ALLOWED_HOSTS = ["tanteo.example"]
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 200
    assert response.content == b"ok"
    # Every other page still refuses an unknown host.
    assert client.get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400
