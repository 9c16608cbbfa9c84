"""The first Championship model, its selector, service, demo command and migrations."""

import datetime
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import translation

from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.models import Championship

START = datetime.date(2026, 4, 23)


def test_a_championship_cannot_end_before_it_starts(championship_factory):
    bad = Championship(
        name="Al revés", slug="al-reves", start_date=START, end_date=START - datetime.timedelta(1)
    )
    with translation.override("es"), pytest.raises(ValidationError) as error:
        bad.full_clean()
    assert "Un campeonato no puede terminar antes de empezar." in str(error.value)

    # The database refuses it too, and what was recorded before stays intact.
    kept = championship_factory(slug="kept")
    with pytest.raises(IntegrityError), transaction.atomic():
        bad.save()
    assert list(Championship.objects.values_list("slug", flat=True)) == [kept.slug]


def test_one_day_and_open_ended_championships_are_valid(championship_factory):
    championship_factory(slug="one-day", start_date=START, end_date=START).full_clean()
    championship_factory(slug="open", start_date=START, end_date=None).full_clean()


def test_slugs_are_unique(championship_factory):
    championship_factory(slug="copa")
    duplicate = r"(?i)short name already exists"
    with translation.override("en"), pytest.raises(ValidationError, match=duplicate):
        Championship(name="Otra", slug="copa", start_date=START).full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        Championship.objects.create(name="Otra", slug="copa", start_date=START)


def test_new_championships_start_as_drafts(db):
    championship = Championship.objects.create(name="Nueva", slug="nueva", start_date=START)
    assert championship.status == Championship.Status.DRAFT
    assert str(championship) == "Nueva"


@pytest.mark.parametrize(
    ("language", "labels"),
    [
        ("es", ["Borrador", "Inscripción abierta", "En juego", "Finalizado"]),
        ("ca", ["Esborrany", "Inscripció oberta", "En joc", "Acabat"]),
        ("en", ["Draft", "Registration open", "In play", "Finished"]),
    ],
)
def test_status_labels_are_translated_in_lifecycle_order(language, labels):
    with translation.override(language):
        assert [str(label) for _, label in Championship.Status.choices] == labels


def test_public_selector_excludes_drafts_and_orders_newest_first(championship_factory):
    old = championship_factory(status=Championship.Status.FINISHED, start_date=START)
    new = championship_factory(
        status=Championship.Status.REGISTRATION, start_date=START + datetime.timedelta(30)
    )
    championship_factory(status=Championship.Status.DRAFT)
    assert list(championship_selectors.championship_list_public()) == [new, old]


def test_finishing_ended_championships_is_idempotent(championship_factory):
    running = Championship.Status.RUNNING
    ended = championship_factory(status=running, start_date=START, end_date=START)
    ends_today = championship_factory(
        status=running, start_date=START, end_date=START + datetime.timedelta(1)
    )
    registering = championship_factory(
        status=Championship.Status.REGISTRATION, start_date=START, end_date=START
    )
    today = START + datetime.timedelta(1)

    assert championship_services.championships_finish_ended(today=today) == 1
    assert championship_services.championships_finish_ended(today=today) == 0
    statuses = {c.slug: c.status for c in Championship.objects.all()}
    assert statuses == {
        ended.slug: Championship.Status.FINISHED,
        ends_today.slug: running,
        registering.slug: Championship.Status.REGISTRATION,
    }


def test_load_demo_is_idempotent_and_feeds_the_home_page(demo, client):
    second = StringIO()
    count = Championship.objects.count()
    call_command("load_demo", stdout=second)

    assert count >= 2
    assert Championship.objects.count() == count
    # Commands speak the site's default language, Spanish.
    assert demo.output.count("Creado: ") == count
    assert second.getvalue().count("Ya existía: ") == count
    public = championship_selectors.championship_list_public()
    assert public.count() >= 2
    html = client.get("/").content.decode()
    assert all(c.name in html for c in public)
    for championship in Championship.objects.all():
        championship.full_clean()


def test_migrations_match_the_models(db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
