"""Dates and times on every form open filled in and survive a save, in every language.

A browser's date, time and date-time inputs read ISO values only: a value in the page's
language's format (``25/12/2026``) opens an empty field, and a form sent back untouched
then loses the date. Each form with a date or a time is fetched, sent back exactly as
rendered, and nothing it shows may change; the championship is in a zone other than the
site's, so a time read back in the wrong zone shows too.
"""

from __future__ import annotations

import datetime as dt
import importlib
import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django import forms
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournaments.circuits.conftest import create_circuit
from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tests.tournaments.page_forms import as_posted, form_with
from tests.tournaments.test_league import make_league
from tournaments import widgets
from tournaments.entries import acts
from tournaments.models import Championship, EntryPolicy, Match, Stage, Team
from tournaments.stages.services import round_generate, stage_create

LANGUAGES = ["es", "ca", "en"]
ZONE = "America/Argentina/Buenos_Aires"
ISO = {
    "date": re.compile(r"^\d{4}-\d{2}-\d{2}$"),
    "time": re.compile(r"^\d{2}:\d{2}$"),
    "datetime-local": re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"),
}


@pytest.fixture(autouse=True)
def _no_language_left():
    yield
    translation.deactivate()


@dataclass
class Case:
    page: str  # the page the form is on
    field: str  # a field of the form (it picks the form out of the page's)
    state: Callable[[], Any]  # what the form shows, read from the database
    action: str | None = None


def _championship(organiser) -> Championship:
    assert ZONE != settings.TIME_ZONE
    championship = ChampionshipFactory(
        time_zone=ZONE, start_date=dt.date(2026, 12, 24), end_date=dt.date(2027, 1, 6)
    )
    championship.organisers.add(organiser)
    return championship


def _details(organiser) -> Case:
    championship = _championship(organiser)

    def state():
        c = Championship.objects.get(pk=championship.pk)
        return (c.name, c.start_date, c.end_date, c.venue, c.time_zone, c.absent_teams)

    return Case(
        reverse("organiser:championship_details", args=[championship.slug]), "end_date", state
    )


def _team(organiser) -> Case:
    championship = _championship(organiser)
    team = TeamFactory(
        championship=championship, home_weekday=4, home_time=dt.time(20, 30), venue_name="Sede"
    )

    def state():
        t = Team.objects.get(pk=team.pk)
        return (t.name, t.seed, t.home_weekday, t.home_time, t.venue_name, t.venue_address)

    return Case(
        reverse("organiser:team_edit", args=[championship.slug, team.pk]), "home_time", state
    )


def _entries(organiser) -> Case:
    championship = _championship(organiser)
    EntryPolicy.objects.create(
        championship=championship,
        is_open=True,
        capacity=16,
        closes_at=dt.datetime(2026, 12, 23, 22, 0, tzinfo=zoneinfo.ZoneInfo(ZONE)),
    )

    def state():
        p = EntryPolicy.objects.get(championship=championship)
        return (p.is_open, p.capacity, p.closes_at, p.asks, p.fee)

    return Case(reverse("organiser:entries", args=[championship.slug]), "closes_at", state)


def _round(organiser) -> Case:
    championship = _championship(organiser)
    for _ in range(4):
        TeamFactory(championship=championship)
    stage = stage_create(championship=championship, format="round_robin", settings={})
    round_generate(stage=stage)
    at = dt.datetime(2026, 12, 24, 23, 30, tzinfo=zoneinfo.ZoneInfo(ZONE))
    stage.matches.update(scheduled_at=at, table="3")

    def state():
        return list(
            Match.objects.filter(stage=stage).values_list("scheduled_at", "table", "referee")
        )

    page = reverse("organiser:round_assign", args=[championship.slug, stage.pk, 1])
    return Case(page, "form-0-scheduled_at", state)


def _self_check_in(organiser) -> Case:
    championship = _championship(organiser)
    for _ in range(4):
        TeamFactory(championship=championship)
    stage = stage_create(championship=championship, format="swiss", settings={})
    until = timezone.now() + dt.timedelta(days=2)
    acts.championship_self_check_in(
        championship=championship, until=until.replace(second=0, microsecond=0), by=organiser
    )

    def state():
        return Championship.objects.get(pk=championship.pk).self_check_in_until

    page = reverse("organiser:check_in", args=[championship.slug, stage.pk])
    return Case(page, "until", state)


def _circuit(organiser) -> Case:
    circuit = create_circuit(organiser)

    def state():
        c = type(circuit).objects.get(pk=circuit.pk)
        return (c.name, c.start_date, c.end_date, c.points, c.best_of)

    return Case(reverse("organiser:circuit_edit", args=[circuit.slug]), "end_date", state)


def _league(organiser) -> tuple[Championship, Stage, Match]:
    championship, stage, _teams = make_league(4)
    championship.organisers.add(organiser)
    match = stage.matches.exclude(team_b=None).order_by("round__number", "pk").first()
    return championship, stage, match


def _league_state(stage: Stage) -> Callable[[], Any]:
    def state():
        rounds = list(stage.rounds.values_list("number", "date"))
        matches = list(
            Match.objects.filter(stage=stage).values_list(
                "pk", "scheduled_at", "venue_name", "venue_address", "postponed"
            )
        )
        return rounds, matches

    return state


def _matchday(organiser) -> Case:
    championship, stage, _match = _league(organiser)
    return Case(
        reverse("organiser:league_matchdays", args=[championship.slug, stage.pk]),
        "date",
        _league_state(stage),
        action=reverse("organiser:league_matchday_date", args=[championship.slug, stage.pk, 2]),
    )


def _schedule(organiser) -> Case:
    championship, stage, match = _league(organiser)
    page = reverse("organiser:league_match_schedule", args=[championship.slug, match.pk])
    return Case(page, "date", _league_state(stage))


def _postpone(organiser) -> Case:
    championship, stage, match = _league(organiser)
    page = reverse("organiser:league_match_postpone", args=[championship.slug, match.pk])
    return Case(page, "date", _league_state(stage))


FORM_MODULES = [
    "referees.forms",
    "tournaments.stages.pair_formats",
    "tournaments.stages.table_formats",
    "tournaments.web.organiser.forms",
    "tournaments.web.organiser.results_forms",
    "tournaments.web.players.forms",
    "tournaments.web.shared.forms",
]

CASES = {
    "details": _details,
    "team": _team,
    "entries": _entries,
    "round": _round,
    "self_check_in": _self_check_in,
    "circuit": _circuit,
    "matchday": _matchday,
    "schedule": _schedule,
    "postpone": _postpone,
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(CASES))
def test_a_form_sent_back_untouched_changes_nothing(client, db, name, language):
    organiser = UserFactory()
    case = CASES[name](organiser)
    client.force_login(organiser)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    before = case.state()
    page = client.get(case.page)
    assert page.status_code == 200
    form = form_with(page.content.decode(), case.field, case.action)
    dated = [(n, k, v) for n, k, v in form["inputs"] if k in ISO]
    assert dated, "the form has a date or a time"
    for field, kind, value in dated:
        assert value, f"{field} opens empty"
        assert ISO[kind].match(value), f"{field}: {value!r} is not what a {kind} input reads"
    client.post(form["action"], as_posted(form))
    assert case.state() == before


def _project_forms() -> list[type[forms.Form]]:
    """Every form class of the site's pages and of the stage formats' settings."""
    for module in FORM_MODULES:
        importlib.import_module(module)
    found, todo = [], [forms.Form]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith(("tournaments", "referees", "api")):
                found.append(sub)
    return found


def test_every_date_and_time_field_of_every_form_uses_an_iso_input():
    """The round trip above for the forms to come: a date or time field is given one of
    the ISO inputs (``tournaments.widgets``), whatever form it is on."""
    from tournaments.stages import registry

    kinds = (forms.DateField, forms.TimeField, forms.DateTimeField)
    fields = [
        (f"{form.__module__}.{form.__name__}.{name}", field)
        for form in _project_forms()
        for name, field in form.base_fields.items()
    ]
    fields += [
        (f"stage format {fmt.key}.{name}", make())
        for fmt in registry.FORMATS.values()
        for name, make in fmt.fields.items()
    ]
    dated = [(name, field) for name, field in fields if isinstance(field, kinds)]
    assert len(dated) >= 10
    wrong = [name for name, field in dated if not isinstance(field.widget, widgets.ISO_WIDGETS)]
    assert wrong == []
