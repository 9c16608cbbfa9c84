"""Organiser pages: who may see them (their organiser, staff with the permission, a
superuser) and what everyone else gets: a 404 or the login page, and nothing changed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory
from tests.tournaments.organiser_pages.conftest import PASSWORD, make_user
from tournaments.models import Championship, Match


@pytest.fixture
def stranger(db):
    return make_user("stranger")


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
