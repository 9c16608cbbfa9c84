"""Creating a championship from each preset, its rules as the engine offers them, its
tie-breaks and status, and editing its name, dates and venue."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

import scoring
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.organiser_pages.conftest import BASE, create_form
from tournaments.models import Championship
from tournaments.results import services as result_services
from tournaments.web.organiser.forms import ChampionshipCreateForm, ChampionshipRulesForm


@pytest.mark.parametrize(
    ("preset", "change", "stored"),
    [
        ("argentine", {"target": "15"}, {"preset": "argentine", "target": 15}),
        (
            "argentine_flor",
            {"falta_envido": "whole_chico"},
            {"preset": "argentine_flor", "falta_envido": "whole_chico"},
        ),
        ("trucardo", {"hierarchy": "inverse"}, {"preset": "trucardo", "hierarchy": "inverse"}),
        (
            "catalan",
            {"mestre_penalty": "from_mestre"},
            {"preset": "catalan", "mestre_penalty": "from_mestre"},
        ),
    ],
)
def test_create_a_championship_from_each_preset(client, organiser, preset, change, stored):
    client.force_login(organiser)
    data = {**create_form(client, preset), **BASE, "name": f"Open {preset}", **change}
    response = client.post(reverse("organiser:championship_create"), data)
    championship = Championship.objects.get(name=f"Open {preset}")
    assert response.status_code == 302
    assert response["Location"] == reverse("organiser:championship", args=[championship.slug])
    # Only what differs from the preset is stored; the preset's defaults stay implicit.
    assert championship.rules == stored
    assert championship.tiebreaks == ["points", "head_to_head", "lots"]
    assert championship.status == Championship.Status.DRAFT
    assert list(championship.organisers.all()) == [organiser]


def test_the_form_starts_from_the_presets_defaults(client, organiser):
    client.force_login(organiser)
    trucardo = client.get(reverse("organiser:championship_create"), {"preset": "trucardo"})
    form = trucardo.context["form"]
    assert '<option value="trucardo" selected>' in trucardo.content.decode()
    assert form["falta_envido"].value() == "rival_to_half"
    assert form["envido_max_calls"].value() == "3"
    catalan = client.get(reverse("organiser:championship_create"), {"preset": "catalan"})
    fields = catalan.context["form"].fields
    assert "mestre_penalty" in fields and "flor" not in fields


@pytest.mark.parametrize(
    ("language", "label", "ladder", "free"),
    [
        ("en", "Order of the envido calls", "Envido, real envido, falta envido, in that order",
         "Any of the three, in any order"),
        ("es", "Orden de los cantos de envido", "Envido, real envido y falta envido, en ese orden",
         "Cualquiera de los tres, en cualquier orden"),
        ("ca", "Ordre dels cants d'envit", "Envit, real envit i falta envit, en aquest ordre",
         "Qualsevol dels tres, en qualsevol ordre"),
    ],
)  # fmt: skip
def test_the_rules_form_offers_the_envido_chain_in_words(
    client, organiser, language, label, ladder, free
):
    # The engine's option envido_chain (docs/rules.md "Envido"): trucardo's free chain by
    # default, 001's ladder for the argentine presets; catalan has no envido.
    client.force_login(organiser)
    url = reverse("organiser:championship_create")
    trucardo = client.get(url, {"preset": "trucardo"}, HTTP_ACCEPT_LANGUAGE=language)
    field = trucardo.context["form"]["envido_chain"]
    assert (field.label, field.value()) == (label, "free")
    choices = [(value, str(text)) for value, text in field.field.choices]
    assert choices == [("ladder", ladder), ("free", free)]
    argentine = client.get(url, {"preset": "argentine"}, HTTP_ACCEPT_LANGUAGE=language)
    assert argentine.context["form"]["envido_chain"].value() == "ladder"
    catalan = client.get(url, {"preset": "catalan"}, HTTP_ACCEPT_LANGUAGE=language)
    assert "envido_chain" not in catalan.context["form"].fields


def test_a_trucardo_championship_may_choose_the_ladder(client, organiser):
    client.force_login(organiser)
    data = {**create_form(client, "trucardo"), **BASE, "name": "Trucardo escalera",
            "envido_chain": "ladder"}  # fmt: skip
    client.post(reverse("organiser:championship_create"), data)
    championship = Championship.objects.get(name="Trucardo escalera")
    assert championship.rules == {"preset": "trucardo", "envido_chain": "ladder"}


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Select a valid choice. 12 is not one of the available choices."),
        ("es", "Escoja una opción válida. 12 no es una de las opciones disponibles."),
    ],
)
def test_a_value_the_engine_refuses_is_not_offered_and_a_forged_one_is_refused(
    client, organiser, language, message
):
    client.force_login(organiser)
    page = client.get(reverse("organiser:championship_create"), {"preset": "argentine"})
    assert [value for value, _label in page.context["form"].fields["target"].choices] == [
        "15",
        "30",
    ]
    data = {**create_form(client, "argentine"), **BASE, "name": "Truco doce", "target": "12"}
    response = client.post(
        reverse("organiser:championship_create"), data, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    assert response.context["form"].errors["target"] == [message]
    assert not Championship.objects.filter(name="Truco doce").exists()


@pytest.mark.parametrize("preset", ["argentine", "argentine_flor", "trucardo", "catalan"])
@pytest.mark.parametrize("team_size", [None, 1, 2, 3, 4])
def test_rule_fields_offer_exactly_the_engines_options(preset, team_size):
    """The form's options and values are the engine's (scoring.options_for), for the table
    sizes a championship can have: gallo only where single players may sit three to a
    table (teams of one; left empty, two sides), pica-pica only with six or eight players."""
    form = ChampionshipCreateForm(preset=preset)
    if team_size is not None:
        form = ChampionshipRulesForm(
            championship=ChampionshipFactory.build(rules={"preset": preset}, team_size=team_size)
        )
    if team_size is None:
        players = (2, 3, 4, 6, 8)
    else:
        players = (2, 3) if team_size == 1 else (2 * team_size,)
    expected = {
        c.key: c.values
        for c in scoring.options_for(preset)
        if not c.players or set(c.players) & set(players)
    }
    assert form.rule_field_names() == list(expected)
    assert ("gallo" in expected) == (preset != "catalan" and 3 in players)
    assert ("pica_pica" in expected) == (preset != "catalan" and max(players) >= 6)
    for key, values in expected.items():
        field = form.fields[key]
        if hasattr(field, "choices"):
            offered = [value for value, _label in field.choices]
            if key == "gallo":  # empty: no gallo, two sides at each table
                assert offered[0] == ""
                offered = offered[1:]
            assert offered == [str(v).lower() if isinstance(v, bool) else str(v) for v in values]
            assert [field.coerce(v) for v in offered] == list(values)
        else:
            assert (field.min_value, field.max_value) == (min(values), max(values))


def test_a_bad_tiebreak_chain_is_refused(client, organiser):
    client.force_login(organiser)
    data = {
        **create_form(client, "argentine"),
        **BASE,
        "name": "Lots first",
        "tiebreak_1": "lots",
        "tiebreak_2": "points",
        "tiebreak_3": "",
    }
    response = client.post(
        reverse("organiser:championship_create"), data, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "The drawing of lots must be the last tie-break." in response.content.decode()
    assert not Championship.objects.filter(name="Lots first").exists()


def test_status_moves_one_step_and_refuses_a_jump(client, organiser):
    championship = ChampionshipFactory(status=Championship.Status.DRAFT)
    championship.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("organiser:championship_status", args=[championship.slug])
    client.post(url, {"status": "finished"})
    championship.refresh_from_db()
    assert championship.status == Championship.Status.DRAFT
    client.post(url, {"status": "registration"})
    championship.refresh_from_db()
    assert championship.status == Championship.Status.REGISTRATION


def test_rules_can_be_edited_on_the_overview(client, organiser):
    championship = ChampionshipFactory(rules={"preset": "argentine"})
    championship.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("organiser:championship", args=[championship.slug])
    data = {k: v for k, v in client.get(url).context["form"].initial.items()}
    form = client.get(url).context["form"]
    data = {f.name: f.value() for f in form if f.value() not in (None, "")}
    data["flor"] = "true"
    response = client.post(url, data)
    assert response.status_code == 302
    championship.refresh_from_db()
    assert championship.rules == {"preset": "argentine", "flor": True}


def test_a_step_back_is_asked_again_before_it_is_taken(client, setup, organiser):
    """A running championship went back to "entries open" in one click."""
    championship = setup["championship"]
    client.force_login(organiser)
    url = reverse("organiser:championship_status", args=[championship.slug])
    asked = client.post(url, {"status": "registration"}, HTTP_ACCEPT_LANGUAGE="en")
    assert asked.status_code == 200
    assert "Move back to “Registration open”?" in asked.content.decode()
    championship.refresh_from_db()
    assert championship.status == Championship.Status.RUNNING
    client.post(url, {"status": "registration", "confirm": "yes"})
    championship.refresh_from_db()
    assert championship.status == Championship.Status.REGISTRATION
    # A step forward goes at once.
    assert client.post(url, {"status": "running"}).status_code == 302
    championship.refresh_from_db()
    assert championship.status == Championship.Status.RUNNING


def test_once_a_hand_is_recorded_the_rules_are_shown_not_offered(client, setup, organiser):
    """The rules form stayed editable with hands recorded (the service then refused it)."""
    championship, match = setup["championship"], setup["match"]
    client.force_login(organiser)
    url = reverse("organiser:championship", args=[championship.slug])
    assert "Save the rules" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=None)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Save the rules" not in page
    assert "the rules and tie-breaks are fixed" in page


def test_organiser_edits_name_dates_and_venue_keeping_the_address(client, setup, organiser):
    championship = setup["championship"]
    client.force_login(organiser)
    url = reverse("organiser:championship_details", args=[championship.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert championship.name in page.content.decode()
    response = client.post(
        url,
        {"name": "Open de Truc de Sants", "start_date": "2026-05-02", "venue": "Casal de Sants"},
    )
    assert response.status_code == 302
    championship.refresh_from_db()
    assert (championship.name, championship.venue) == ("Open de Truc de Sants", "Casal de Sants")
    assert championship.start_date == datetime.date(2026, 5, 2)
    assert championship.end_date is None
    # The public address did not move.
    assert (
        client.get(reverse("tournaments:championship", args=[championship.slug])).status_code == 200
    )


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "cannot end before it starts"), ("es", "no puede terminar antes de empezar")],
)
def test_reversed_dates_are_refused_in_the_organisers_language(
    client, setup, organiser, language, text
):
    championship = setup["championship"]
    before = championship.name
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:championship_details", args=[championship.slug]),
        {"name": "Otro nombre", "start_date": "2026-05-02", "end_date": "2026-05-01"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    assert text in response.content.decode()
    championship.refresh_from_db()
    assert championship.name == before
