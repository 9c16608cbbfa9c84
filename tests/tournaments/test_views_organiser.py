"""Organiser pages: who may see them, and the whole set-up flow through the test client."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from django.utils import timezone

import scoring
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.models import Championship, Match, Team
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.web.organiser.forms import ChampionshipCreateForm, ChampionshipRulesForm

PASSWORD = "truco-y-retruco-2026"


def make_user(username: str, **extra):
    return get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)


@pytest.fixture
def organiser(db):
    return make_user("organiser")


@pytest.fixture
def stranger(db):
    return make_user("stranger")


@pytest.fixture
def setup(organiser):
    """A running championship of ``organiser`` with a stage, a round, a match, a referee."""
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    championship.organisers.add(organiser)
    teams = [TeamFactory(championship=championship) for _ in range(4)]
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    matches = stage_services.round_generate(stage=stage)
    return {
        "championship": championship,
        "teams": teams,
        "stage": stage,
        "round": matches[0].round,
        "match": matches[0],
        "referee": RefereeFactory(championships=[championship]),
    }


def url_kwargs(name: str, setup: dict) -> dict:
    kwargs = {"slug": setup["championship"].slug}
    if name in ("stage", "round_generate", "round_assign"):
        kwargs["stage_id"] = setup["stage"].pk
    if name == "round_assign":
        kwargs["number"] = setup["round"].number
    if name == "team_remove":
        kwargs["team_id"] = setup["teams"][0].pk
    if name == "walkover":
        kwargs["match_id"] = setup["match"].pk
    if name == "export":
        kwargs["kind"] = "matches"
    return kwargs


CHAMPIONSHIP_URLS = [
    "championship",
    "championship_details",
    "championship_status",
    "teams",
    "teams_import",
    "team_remove",
    "stage_create",
    "stage",
    "round_generate",
    "round_assign",
    "walkover",
    "export",
]


def snapshot(championship: Championship) -> tuple:
    """What a forbidden request could have changed."""
    championship.refresh_from_db()
    return (
        championship.status,
        championship.rules,
        list(championship.teams.order_by("pk").values_list("pk", flat=True)),
        list(championship.stages.values_list("pk", flat=True)),
        list(
            Match.objects.filter(stage__championship=championship)
            .order_by("pk")
            .values_list("pk", "status", "table", "referee_id")
        ),
    )


# Enough data for every form, so a request that got through would change something.
HOSTILE_POST = {
    "status": "finished",
    "preset": "catalan",
    "name": "Intrusos",
    "player_1": "A",
    "player_2": "B",
    "format": "round_robin",
    "winner": "0",
    "reason": "no show",
    "form-TOTAL_FORMS": "0",
    "form-INITIAL_FORMS": "0",
}


@pytest.mark.parametrize("name", CHAMPIONSHIP_URLS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_another_organiser_gets_404_and_changes_nothing(client, setup, stranger, name, method):
    other = ChampionshipFactory()
    other.organisers.add(stranger)
    before = snapshot(setup["championship"])
    client.force_login(stranger)
    url = reverse(f"organiser:{name}", kwargs=url_kwargs(name, setup))
    response = getattr(client, method)(url, HOSTILE_POST)
    assert response.status_code == 404
    assert setup["championship"].name.encode() not in response.content
    assert snapshot(setup["championship"]) == before


@pytest.mark.parametrize("name", CHAMPIONSHIP_URLS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_users_are_sent_to_the_login_page(client, setup, name, method):
    before = snapshot(setup["championship"])
    url = reverse(f"organiser:{name}", kwargs=url_kwargs(name, setup))
    response = getattr(client, method)(url, HOSTILE_POST)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")
    assert snapshot(setup["championship"]) == before


def staff_with_permission(username: str = "boss"):
    """Staff granted ``tournaments.change_championship`` through a group, as an admin would."""
    user = make_user(username, is_staff=True)
    group = Group.objects.create(name="championship managers")
    group.permissions.add(Permission.objects.get(codename="change_championship"))
    user.groups.add(group)
    return user


@pytest.mark.parametrize("name", CHAMPIONSHIP_URLS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_the_bare_staff_flag_gets_404_and_changes_nothing(client, setup, name, method):
    """Staff without the permission to change championships manage none but their own."""
    before = snapshot(setup["championship"])
    client.force_login(make_user("becario", is_staff=True))
    url = reverse(f"organiser:{name}", kwargs=url_kwargs(name, setup))
    response = getattr(client, method)(url, HOSTILE_POST)
    assert response.status_code == 404
    assert snapshot(setup["championship"]) == before


def test_the_dashboard_of_staff_lists_every_championship_only_with_the_permission(client, setup):
    name = setup["championship"].name
    client.force_login(make_user("becario", is_staff=True))
    assert name not in client.get(reverse("organiser:dashboard")).content.decode()
    client.force_login(staff_with_permission())
    assert name in client.get(reverse("organiser:dashboard")).content.decode()


@pytest.mark.parametrize("name", CHAMPIONSHIP_URLS)
def test_the_organiser_and_staff_reach_every_page(client, setup, name):
    """The same URLs answer their organiser, staff with the permission to change
    championships, and superusers: the 404s above are about access."""
    safe = name not in ("championship_status", "teams_import", "team_remove", "round_generate")
    url = reverse(f"organiser:{name}", kwargs=url_kwargs(name, setup))
    superuser = get_user_model().objects.create_superuser("root", password=PASSWORD)
    for user in (setup["championship"].organisers.get(), staff_with_permission(), superuser):
        client.force_login(user)
        response = client.get(url) if safe else client.post(url, {})
        assert response.status_code in (200, 302), (name, user)


def test_the_dashboard_lists_only_my_championships(client, organiser, stranger):
    mine = ChampionshipFactory(name="Copa del Casal")
    mine.organisers.add(organiser)
    theirs = ChampionshipFactory(name="Trofeu dels Altres")
    theirs.organisers.add(stranger)
    client.force_login(organiser)
    html = client.get(reverse("organiser:dashboard")).content.decode()
    assert "Copa del Casal" in html
    assert "Trofeu dels Altres" not in html
    assert client.get(reverse("organiser:dashboard")).status_code == 200


def test_anonymous_dashboard_redirects_and_login_page_renders(client, organiser):
    response = client.get(reverse("organiser:dashboard"))
    assert response.status_code == 302
    login = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="es")
    assert "Iniciar sesión" in login.content.decode()
    response = client.post(
        reverse("login"),
        {"username": "organiser", "password": PASSWORD, "next": reverse("organiser:dashboard")},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("organiser:dashboard")


# -- creating championships ------------------------------------------------------------------

BASE = {
    "start_date": "2026-06-13",
    "end_date": "2026-06-14",
    "venue": "Casal Popular",
    "team_size": "2",
    "tiebreak_1": "points",
    "tiebreak_2": "head_to_head",
    "tiebreak_3": "lots",
    "tiebreak_4": "",
    "tiebreak_5": "",
}


def create_form(client, preset: str) -> dict:
    """The creation form as the browser would post it: every initial value, then ours."""
    response = client.get(reverse("organiser:championship_create"), {"preset": preset})
    form = response.context["form"]
    data = {}
    for field in form:
        value = field.value()
        if value not in (None, ""):
            data[field.name] = value
    return data


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


# -- teams -------------------------------------------------------------------------------------


@pytest.fixture
def registration(organiser):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION, team_size=2)
    championship.organisers.add(organiser)
    return championship


def test_add_teams_by_form(client, organiser, registration):
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    for name, players in [("Los Anchos", ("Ana", "Beto")), ("Las Flores", ("Cata", "Dani"))]:
        response = client.post(
            url,
            {
                "name": name,
                "seed": "",
                "club": "Rosario",
                "player_1": players[0],
                "player_2": players[1],
            },
        )
        assert response.status_code == 302
    teams = list(registration.teams.order_by("name"))
    assert [t.name for t in teams] == ["Las Flores", "Los Anchos"]
    assert [m.player.name for m in teams[1].memberships.order_by("order")] == ["Ana", "Beto"]
    html = client.get(url).content.decode()
    assert "Los Anchos" in html and "Beto" in html


def test_a_team_needs_every_player_and_a_unique_name(client, organiser, registration):
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    response = client.post(url, {"name": "Solos", "player_1": "Ana"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["form"].errors["player_2"]
    client.post(url, {"name": "Dobles", "player_1": "Ana", "player_2": "Beto"})
    response = client.post(
        url, {"name": "Dobles", "player_1": "Cata", "player_2": "Dani"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "already has a team called Dobles" in response.content.decode()
    assert registration.teams.count() == 1


def test_a_catalan_squad_names_its_cap_de_colla(client, organiser):
    championship = ChampionshipFactory(rules={"preset": "catalan"}, team_size=3)
    championship.organisers.add(organiser)
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:teams", args=[championship.slug]),
        {
            "name": "Colla Vella",
            "player_1": "Jordi",
            "player_2": "Pere",
            "player_3": "Roser",
            "captain": "2",
        },
    )
    assert response.status_code == 302
    team = championship.teams.get()
    assert team.memberships.get(is_captain=True).player.name == "Pere"


# -- stages, rounds, matches -------------------------------------------------------------------


@pytest.fixture
def four_teams(registration):
    return [TeamFactory(championship=registration) for _ in range(4)]


def test_create_a_stage_and_generate_a_round(client, organiser, registration, four_teams):
    client.force_login(organiser)
    response = client.post(
        reverse("organiser:stage_create", args=[registration.slug]),
        {
            "name": "Liguilla",
            "format": "round_robin_double",
            "teams": [t.pk for t in four_teams],
            # The tie-breaks are the championship's, chosen on its page: not asked again.
            "tiebreak_1": "lots",
        },
    )
    stage = registration.stages.get()
    assert response["Location"] == reverse("organiser:stage", args=[registration.slug, stage.pk])
    assert stage.format == "round_robin" and stage.settings["cycles"] == 2
    chain = list(registration.tiebreaks)
    registration.refresh_from_db()
    assert registration.tiebreaks == chain

    client.post(reverse("organiser:round_generate", args=[registration.slug, stage.pk]))
    assert stage.matches.count() == 2
    html = client.get(reverse("organiser:stage", args=[registration.slug, stage.pk])).content
    for match in stage.matches.all():
        assert match.team_a.name.encode() in html and match.team_b.name.encode() in html


@pytest.mark.parametrize(
    ("choice", "extra", "format", "settings"),
    [
        ("swiss", {"rounds": "3"}, "swiss", {"rounds": 3}),
        (
            "single_elimination",
            {"third_place": "on"},
            "single_elimination",
            {"third_place": True},
        ),
        ("double_elimination_no_reset", {}, "double_elimination", {"reset": False}),
        (
            "groups_knockout",
            {"group_count": "2", "advance": "1"},
            "groups_knockout",
            {"group_count": 2, "advance": 1},
        ),
    ],
)
def test_every_format_can_be_chosen(
    client, organiser, registration, four_teams, choice, extra, format, settings
):
    client.force_login(organiser)
    data = {"format": choice, "teams": [t.pk for t in four_teams], "tiebreak_1": "points", **extra}
    client.post(reverse("organiser:stage_create", args=[registration.slug]), data)
    stage = registration.stages.get()
    assert stage.format == format
    assert settings.items() <= stage.settings.items()
    client.post(reverse("organiser:round_generate", args=[registration.slug, stage.pk]))
    assert stage.matches.exists()


def test_an_impossible_stage_shows_the_reason(client, organiser, registration, four_teams):
    client.force_login(organiser)
    client.post(
        reverse("organiser:stage_create", args=[registration.slug]),
        {
            "format": "groups_knockout",
            "group_count": "3",
            "advance": "2",
            "teams": [t.pk for t in four_teams],
            "tiebreak_1": "points",
        },
    )
    stage = registration.stages.get()
    response = client.post(
        reverse("organiser:round_generate", args=[registration.slug, stage.pk]),
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "There are not enough teams for that many groups" in response.content.decode() or (
        "A group has fewer teams than the number that advance." in response.content.decode()
    )
    assert not stage.matches.exists()


def test_assign_table_time_and_referee(client, setup, organiser):
    client.force_login(organiser)
    url = reverse(
        "organiser:round_assign",
        args=[setup["championship"].slug, setup["stage"].pk, setup["round"].number],
    )
    formset = client.get(url).context["formset"]
    data = {
        "form-TOTAL_FORMS": str(formset.total_form_count()),
        "form-INITIAL_FORMS": str(formset.initial_form_count()),
    }
    for index, form in enumerate(formset):
        data[f"form-{index}-match"] = form.initial["match"]
        data[f"form-{index}-table"] = ""
    target = setup["match"]
    index = next(i for i, f in enumerate(formset) if f.initial["match"] == target.pk)
    data[f"form-{index}-table"] = "Mesa 7"
    data[f"form-{index}-scheduled_at"] = "2026-05-09T17:30"
    data[f"form-{index}-referee"] = setup["referee"].pk
    data[f"form-{index}-entry"] = "cards"  # a final: the tablet enters it card by card
    response = client.post(url, data)
    assert response.status_code == 302
    target.refresh_from_db()
    assert target.table == "Mesa 7"
    assert target.referee == setup["referee"]
    assert target.entry == "cards"
    others = Match.objects.filter(stage=setup["stage"]).exclude(pk=target.pk)
    assert set(others.values_list("entry", flat=True)) <= {"quick"}
    assert timezone.localtime(target.scheduled_at).replace(tzinfo=None) == datetime.datetime(
        2026, 5, 9, 17, 30
    )
    html = client.get(
        reverse("organiser:stage", args=[setup["championship"].slug, setup["stage"].pk])
    ).content.decode()
    assert "Mesa 7" in html and setup["referee"].username in html


def test_a_user_who_is_not_a_referee_cannot_be_assigned(client, setup, organiser):
    """Not in the choices: the form refuses the id, nothing is saved."""
    client.force_login(organiser)
    plain = make_user("plain")
    url = reverse(
        "organiser:round_assign",
        args=[setup["championship"].slug, setup["stage"].pk, setup["round"].number],
    )
    data = {
        "form-TOTAL_FORMS": "1",
        "form-INITIAL_FORMS": "1",
        "form-0-match": setup["match"].pk,
        "form-0-referee": plain.pk,
        "form-0-table": "3",
    }
    response = client.post(url, data)
    assert response.status_code == 200
    setup["match"].refresh_from_db()
    assert setup["match"].referee is None and setup["match"].table == ""


def test_record_a_walkover(client, setup, organiser):
    client.force_login(organiser)
    match: Match = setup["match"]
    url = reverse("organiser:walkover", args=[setup["championship"].slug, match.pk])
    response = client.post(
        url, {"winner": match.team_b_id, "reason": ""}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    response = client.post(url, {"winner": match.team_b_id, "reason": "No se presentaron"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER
    assert match.winner_id == match.team_b_id
    assert match.reason == "No se presentaron"
    stage_page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No se presentaron" in stage_page


def test_a_team_is_removed_only_during_registration(client, organiser, registration, four_teams):
    client.force_login(organiser)
    team = four_teams[0]
    client.post(reverse("organiser:team_remove", args=[registration.slug, team.pk]))
    assert not Team.objects.filter(pk=team.pk).exists()
    registration.status = Championship.Status.RUNNING
    registration.save()
    other = four_teams[1]
    client.post(reverse("organiser:team_remove", args=[registration.slug, other.pk]))
    assert Team.objects.filter(pk=other.pk).exists()


# -- CSV import and exports ----------------------------------------------------------------

BAD_CSV = (
    "team,player,seed,club\n"
    "Los Anchos,Ana,1,Rosario\n"
    "Los Anchos,Beto,1,Rosario\n"
    "Las Flores,Cata,dos,Córdoba\n"
    "Las Flores,Dani,,Córdoba\n"
)
GOOD_CSV = BAD_CSV.replace("dos", "2")


def upload(client, championship, text: str, language: str = "en"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    file = SimpleUploadedFile("equipos.csv", text.encode("utf-8"), content_type="text/csv")
    return client.post(
        reverse("organiser:teams_import", args=[championship.slug]),
        {"file": file},
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_import_a_bad_csv_then_a_good_one(client, organiser, registration):
    client.force_login(organiser)
    response = upload(client, registration, BAD_CSV)
    assert response.status_code == 200
    report = response.context["import_errors"]
    assert [(error.row, error.column) for error in report] == [(4, "seed")]
    html = response.content.decode()
    assert "nothing was imported" in html
    assert str(report[0].message) in html
    assert registration.teams.count() == 0

    response = upload(client, registration, GOOD_CSV)
    assert response.status_code == 302
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 teams imported." in page
    assert sorted(registration.teams.values_list("name", flat=True)) == ["Las Flores", "Los Anchos"]


def test_the_import_report_speaks_spanish(client, organiser, registration):
    client.force_login(organiser)
    html = upload(client, registration, BAD_CSV, language="es").content.decode()
    assert "nada se ha importado" in html
    assert registration.teams.count() == 0


@pytest.mark.parametrize(
    ("kind", "header"),
    [
        ("standings", "stage,group,rank,position,team"),
        ("matches", "match,stage,round,group,bracket,table"),
        ("hands", "match,team_a,team_b,game,hand"),
    ],
)
def test_download_each_csv(client, setup, organiser, play_match, kind, header):
    match = setup["match"]
    play_match(match, match.team_a)
    result_services.match_assign(match=setup["match"], table="Mesa 1")
    client.force_login(organiser)
    response = client.get(reverse("organiser:export", args=[setup["championship"].slug, kind]))
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="{setup["championship"].slug}-{kind}.csv"' in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff" + header)
    lines = text.strip().splitlines()
    assert len(lines) > 1
    assert match.team_a.name in text


def test_an_unknown_export_is_404(client, setup, organiser):
    client.force_login(organiser)
    url = reverse("organiser:export", args=[setup["championship"].slug, "passwords"])
    assert client.get(url).status_code == 404


def test_the_whole_organiser_flow(client, organiser):
    """From logging in to the downloads, only through the pages, as a new user would."""
    referee = RefereeFactory()
    response = client.post(reverse("login"), {"username": "organiser", "password": PASSWORD})
    assert response.status_code == 302
    data = {**create_form(client, "argentine_flor"), **BASE, "name": "Torneo de Otoño"}
    response = client.post(reverse("organiser:championship_create"), data)
    championship = Championship.objects.get(name="Torneo de Otoño")
    slug = championship.slug
    client.post(reverse("organiser:championship_status", args=[slug]), {"status": "registration"})
    # Its referee, put on its list: only the championship's referees are offered.
    client.post(
        reverse("organiser:referees", args=[slug]),
        {"action": "add", "add-user": referee.get_username()},
    )

    teams_url = reverse("organiser:teams", args=[slug])
    for name, players in [("Los Anchos", ("Ana", "Beto")), ("Las Flores", ("Cata", "Dani"))]:
        client.post(teams_url, {"name": name, "player_1": players[0], "player_2": players[1]})
    csv = "team,player,seed\nEl Mazo,Eva,x\nEl Mazo,Fede,\nLa Falta,Gabi,\nLa Falta,Hugo,\n"
    response = upload(client, championship, csv)
    assert [(e.row, e.column) for e in response.context["import_errors"]] == [(2, "seed")]
    assert championship.teams.count() == 2
    response = upload(client, championship, csv.replace(",x\n", ",3\n"))
    assert response.status_code == 302
    assert championship.teams.count() == 4

    client.post(reverse("organiser:championship_status", args=[slug]), {"status": "running"})
    response = client.post(
        reverse("organiser:stage_create", args=[slug]),
        {
            "format": "round_robin",
            "teams": list(championship.teams.values_list("pk", flat=True)),
            "tiebreak_1": "points",
            "tiebreak_2": "lots",
        },
    )
    stage = championship.stages.get()
    client.post(reverse("organiser:round_generate", args=[slug, stage.pk]))
    first, second = stage.matches.order_by("pk")

    assign_url = reverse("organiser:round_assign", args=[slug, stage.pk, 1])
    client.post(
        assign_url,
        {
            "form-TOTAL_FORMS": "2",
            "form-INITIAL_FORMS": "2",
            "form-0-match": first.pk,
            "form-0-table": "Mesa 1",
            "form-0-referee": referee.pk,
            "form-1-match": second.pk,
            "form-1-table": "Mesa 2",
        },
    )
    client.post(
        reverse("organiser:walkover", args=[slug, second.pk]),
        {"winner": second.team_a_id, "reason": "Llegaron tarde", "forfeit": ""},
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table, first.referee, second.table) == ("Mesa 1", referee, "Mesa 2")
    assert second.status == Match.Status.WALKOVER

    downloads = {}
    for kind in ("standings", "matches", "hands"):
        response = client.get(reverse("organiser:export", args=[slug, kind]))
        downloads[kind] = b"".join(response.streaming_content).decode("utf-8")
        assert downloads[kind].startswith("\ufeff")
    assert "Llegaron tarde" in downloads["matches"] and "Mesa 1" in downloads["matches"]
    assert len(downloads["standings"].strip().splitlines()) == 1 + 4
    assert len(downloads["hands"].strip().splitlines()) == 1  # no hand played yet: header


def test_a_forfeit_keeps_the_hands_already_played(client, setup, organiser, referee):
    from tests.tournaments.conftest import chico_hand

    match: Match = setup["match"]
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "B"), recorded_by=referee)
    client.force_login(organiser)
    url = reverse("organiser:walkover", args=[setup["championship"].slug, match.pk])
    # Hands were recorded: a plain walkover is refused with the service's reason.
    response = client.post(
        url, {"winner": match.team_a_id, "reason": "Se fueron"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "record a forfeit instead" in response.content.decode()
    response = client.post(url, {"winner": match.team_a_id, "reason": "Se fueron", "forfeit": "on"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.outcome) == (Match.Status.WALKOVER, Match.Outcome.FORFEIT)
    assert match.hands.count() == 1
    assert (match.chicos_a, match.chicos_b) == (2, 1)


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


# -- double submits: one of each, and a message ----------------------------------------------


def test_generate_round_sent_twice_generates_one_round(client, organiser, registration):
    for seed in range(1, 7):
        TeamFactory(championship=registration, seed=seed)
    stage = stage_services.stage_create(championship=registration, format="round_robin")
    client.force_login(organiser)
    page = client.get(reverse("organiser:stage", args=[registration.slug, stage.pk]))
    assert b'name="number" value="1"' in page.content
    url = reverse("organiser:round_generate", args=[registration.slug, stage.pk])
    for _ in range(10):
        response = client.post(url, {"number": "1"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
    assert list(stage.rounds.values_list("number", flat=True)) == [1]
    assert stage.matches.count() == 3
    assert "Round 1 has already been generated." in response.content.decode()
    page = client.get(reverse("organiser:stage", args=[registration.slug, stage.pk]))
    assert b'name="number" value="2"' in page.content


def test_create_stage_sent_twice_creates_one_stage(client, organiser, registration, four_teams):
    client.force_login(organiser)
    data = {"format": "swiss", "teams": [t.pk for t in four_teams], "tiebreak_1": "points"}
    url = reverse("organiser:stage_create", args=[registration.slug])
    assert client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").status_code == 302
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "This championship already has a stage called Swiss." in response.content.decode()
    assert registration.stages.count() == 1


def test_add_team_sent_twice_adds_one_team(client, organiser, registration):
    client.force_login(organiser)
    data = {"name": "Los Anchos", "player_1": "Ana", "player_2": "Beto"}
    url = reverse("organiser:teams", args=[registration.slug])
    assert client.post(url, data).status_code == 302
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert "This championship already has a team called Los Anchos." in response.content.decode()
    assert registration.teams.count() == 1
    assert registration.teams.get().memberships.count() == 2


def test_the_import_help_points_to_the_templates_where_they_are(client, organiser, registration):
    """The help said "download the template below" of links printed above it."""
    client.force_login(organiser)
    page = client.get(
        reverse("organiser:teams", args=[registration.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    links = page.index(reverse("organiser:teams_template", args=[registration.slug, "en"]))
    help_text = page.index("download the template above")
    assert links < help_text
    assert "template below" not in page
