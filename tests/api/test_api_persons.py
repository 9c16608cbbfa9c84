"""``/api/v1/persons/``: who played, searched by name or club, and a person's public
history; a licence number looked up only by organisers; never any contact data."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.api.conftest import client_for
from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tests.tournaments.test_people_pages import _team, begona, two_championships  # noqa: F401 (fixtures)
from tournaments.models import Championship

pytestmark = pytest.mark.django_db


def test_the_list_searches_public_names_and_clubs_ignoring_accents(two_championships, begona):  # noqa: F811
    anonymous = client_for()
    found = anonymous.get(reverse("api:persons"), {"search": "BEGONA"}).json()
    assert found["count"] == 1
    (person,) = found["results"]
    assert person == {
        "id": begona.pk,
        "name": "Begoña Martínez",
        "club": "Peña Gràcia",
        "page": f"http://testserver{reverse('tournaments:person', args=[begona.pk])}",
    }
    assert anonymous.get(reverse("api:persons"), {"search": "pena gracia"}).json()["count"] == 1
    every = anonymous.get(reverse("api:persons"), {"page_size": 5}).json()
    assert every["count"] == 15  # 2 championships of 4 pairs, Begoña in both
    assert len(every["results"]) == 5 and every["next"]


def test_a_draft_players_are_nobodys_business_but_their_organisers(db):
    organiser = UserFactory()
    draft = ChampionshipFactory(status=Championship.Status.DRAFT)
    draft.organisers.add(organiser)
    team = _team(draft, "Borrador", "Paco Draft", "Pepe Draft")
    person = team.memberships.first().player.person
    assert client_for().get(reverse("api:persons")).json()["count"] == 0
    assert client_for().get(reverse("api:person", args=[person.pk])).status_code == 404
    mine = client_for(organiser)
    assert mine.get(reverse("api:persons")).json()["count"] == 2
    assert mine.get(reverse("api:person", args=[person.pk])).status_code == 200


def test_a_licence_is_looked_up_by_organisers_only(two_championships, begona):  # noqa: F811
    begona.licence = "FCT-0042"
    begona.phone = "+34 600 000 000"
    begona.save()
    url = reverse("api:persons")
    assert client_for().get(url, {"licence": "FCT-0042"}).status_code in (401, 403)
    assert client_for(UserFactory()).get(url, {"licence": "FCT-0042"}).status_code == 403
    organiser = UserFactory()
    two_championships["spring"].organisers.add(organiser)
    found = client_for(organiser).get(url, {"licence": "FCT-0042"}).json()
    assert [p["id"] for p in found["results"]] == [begona.pk]
    assert client_for(organiser).get(url, {"licence": "FCT-004"}).json()["count"] == 0
    # The answer never carries it, nor the email or the phone.
    body = client_for(organiser).get(reverse("api:person", args=[begona.pk])).content.decode()
    for private in ("FCT-0042", "600 000 000", "b@example.org", "licence", "email", "phone"):
        assert private not in body


def test_a_persons_history(two_championships, begona):  # noqa: F811
    history = client_for().get(reverse("api:person", args=[begona.pk])).json()
    assert history["name"] == "Begoña Martínez"
    assert history["record"] == {"won": 2, "lost": 1, "chicos_won": 4, "chicos_lost": 3}
    spring, autumn = history["championships"]
    assert spring["championship"]["slug"] == "primavera"
    assert spring["team"]["name"] == "Las Flores"
    assert [p["name"] for p in spring["partners"]] == ["Eliana Ruiz"]
    assert autumn["placement"] == {"rank": 1, "of": 4, "stage": "Round robin", "group": None}
    assert autumn["record"] == {"won": 2, "lost": 0, "chicos_won": 4, "chicos_lost": 1}
    (lost,) = spring["matches"][:1]
    assert lost["won"] is False and lost["chicos_against"] == 2
    assert lost["page"].endswith(reverse("tournaments:match", args=["primavera", lost["id"]]))
    assert lost["url"].endswith(reverse("api:match", args=[lost["id"]]))
    following = history["next_match"]
    assert following["id"] == two_championships["next"].pk
    assert following["table"] == "7"
    assert following["opponent"]["name"] in {
        two_championships["next"].team_a.name,
        two_championships["next"].team_b.name,
    }
