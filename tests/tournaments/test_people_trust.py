"""People tried as a hostile newcomer would, through the pages: a licence number typed in
the entry form opens nobody's record, a merge needs every championship of both records
(or their organisers' yes), never puts one person in two teams of a championship, and a
merged-away person's address leads to the person kept."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from tests.tournaments.factories import (
    ChampionshipFactory,
    PersonFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)
from tournaments.entries import services as entry_services
from tournaments.errors import TournamentError
from tournaments.models import Championship, Person, PersonMergeRequest, Team
from tournaments.people import history as people_history
from tournaments.people import services

# Ana's private data: her organiser's to read, nobody else's.
PRIVATE = ("FED-0042", "ana@example.org", "611 222 333")


def _plays(person: Person, championship: Championship, name: str = "") -> Team:
    team = TeamFactory(championship=championship, name=name or f"T{person.pk}-{championship.pk}")
    membership = team.memberships.order_by("order").first()
    membership.player = PlayerFactory(name=person.name, person=person)
    membership.save()
    return team


def _private_absent(text: str) -> None:
    for value in PRIVATE:
        assert value not in text


@pytest.fixture(autouse=True)
def own_cache(settings):
    """The entry form counts its sendings in a cache of the test's own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"trust-{id(settings)}",
        }
    }


@pytest.fixture
def world(db):
    """Ana, a player of Pere's Open de Reus and Lliga de Sants; Bea's Copa Abierta taking
    entries, asking for licence numbers."""
    pere, bea = UserFactory(username="pere"), UserFactory(username="bea")
    reus = ChampionshipFactory(name="Open de Reus", slug="open-reus")
    sants = ChampionshipFactory(name="Lliga de Sants", slug="lliga-sants")
    for championship in (reus, sants):
        championship.organisers.add(pere)
    ana = PersonFactory(
        name="Ana Ruiz",
        club="Sants",
        licence="FED-0042",
        email="ana@example.org",
        phone="+34 611 222 333",
    )
    _plays(ana, reus)
    _plays(ana, sants)
    copa = ChampionshipFactory(
        name="Copa Abierta", slug="copa-abierta", status=Championship.Status.REGISTRATION
    )
    copa.organisers.add(bea)
    entry_services.entry_policy_set(
        championship=copa,
        by=None,
        is_open=True,
        capacity=None,
        closes_at=None,
        asks=["licence"],
        fee=None,
        fee_instructions="",
    )
    return SimpleNamespace(pere=pere, bea=bea, reus=reus, sants=sants, ana=ana, copa=copa)


def _enter_as_ana(client, copa: Championship) -> Person:
    """The public entry form sent with Ana's name and licence number; the person made."""
    url = reverse("tournaments:enter", args=[copa.slug])
    key = re.search(r'name="form_key" value="([^"]+)"', client.get(url).content.decode())
    data = {
        "form_key": key.group(1),
        "team_name": "Los Intrusos",
        "player_1": "Ana Ruiz",
        "licence_1": "FED-0042",
        "player_2": "Beto Gil",
        "licence_2": "L-2",
    }
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and "Los Intrusos" in response.content.decode()
    return copa.teams.get(name="Los Intrusos").memberships.get(order=1).player.person


# -- 1. a licence number typed by the public --------------------------------------------------


def test_a_licence_typed_in_the_entry_form_opens_nobodys_record(client, world):
    typed = _enter_as_ana(client, world.copa)

    assert typed != world.ana  # a new person
    assert typed.licence == "" and typed.email == ""  # not hers, and nothing of hers
    world.ana.refresh_from_db()
    assert (world.ana.licence, world.ana.email) == ("FED-0042", "ana@example.org")
    public = client.get(reverse("tournaments:person", args=[world.ana.pk])).content.decode()
    assert "Copa Abierta" not in public  # a championship she never entered
    # Bea, who organises the championship entered, cannot open Ana's record...
    client.force_login(world.bea)
    assert client.get(reverse("organiser:person_edit", args=[world.ana.pk])).status_code == 404
    # ... and what she can open shows nothing of it.
    for url in (
        reverse("organiser:person_edit", args=[typed.pk]),
        reverse("organiser:people"),
        reverse("organiser:entries", args=[world.copa.slug]),
        reverse("organiser:teams", args=[world.copa.slug]),
    ):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
        _private_absent(response.content.decode())


def test_the_likely_match_is_offered_to_both_organisers_as_the_public_sees_it(client, world):
    typed = _enter_as_ana(client, world.copa)
    (request,) = PersonMergeRequest.objects.all()
    assert {request.first_id, request.second_id} == {typed.pk, world.ana.pk}
    assert not request.agreed.exists()  # the public's typing is nobody's yes

    client.force_login(world.bea)
    page = client.get(reverse("organiser:people"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "A licence number typed for one of them is the other's." in page
    assert "Open de Reus" in page  # where the other record played, as the public sees it
    _private_absent(page)
    client.force_login(world.pere)
    page = client.get(reverse("organiser:people"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Copa Abierta" in page and "Los Intrusos" not in page


def test_a_name_alone_makes_no_request_and_a_different_name_none_either(client, world):
    url = reverse("tournaments:enter", args=[world.copa.slug])
    key = re.search(r'name="form_key" value="([^"]+)"', client.get(url).content.decode())
    data = {
        "form_key": key.group(1),
        "team_name": "Sondeo",
        "player_1": "Zoe Probe",
        "licence_1": "FED-0042",  # Ana's number under another name: a probe, or a typo
        "player_2": "Beto Gil",
        "licence_2": "L-2",
    }
    client.post(url, data)
    probe = Person.objects.get(name="Zoe Probe")
    assert probe.licence == "" and not PersonMergeRequest.objects.exists()


def test_an_organiser_typing_another_organisers_player_licence_gets_a_new_person(client, world):
    client.force_login(world.bea)
    response = client.post(
        reverse("organiser:teams", args=[world.copa.slug]),
        {
            "name": "Las Anas",
            "player_1": "Ana Ruiz",
            "licence_1": "FED-0042",
            "email_1": "other@example.org",
            "player_2": "Beto Gil",
        },
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    text = response.content.decode()
    person = world.copa.teams.get(name="Las Anas").memberships.get(order=1).player.person
    assert person != world.ana and person.licence == ""
    assert "was entered as a new person without it" in text
    _private_absent(text)
    world.ana.refresh_from_db()
    assert world.ana.email == "ana@example.org"  # nothing typed reached her record


# -- 2. a merge of someone else's person -------------------------------------------------------


def test_the_entering_organiser_cannot_merge_the_victim_into_his_player(client, world):
    typed = _enter_as_ana(client, world.copa)
    client.force_login(world.bea)
    merge = reverse("organiser:person_merge")
    assert client.get(merge, {"keep": typed.pk, "drop": world.ana.pk}).status_code == 404
    response = client.post(
        merge, {"keep": typed.pk, "drop": world.ana.pk}, HTTP_ACCEPT_LANGUAGE="es", follow=True
    )
    assert "No organizas ningún campeonato en el que haya jugado esta persona." in (
        response.content.decode()
    )
    assert Person.objects.filter(pk=world.ana.pk).exists()
    typed.refresh_from_db()
    assert (typed.licence, typed.email, typed.phone) == ("", "", "")  # nothing copied


def test_saying_one_person_waits_for_the_other_organiser_and_keeps_the_longer_history(
    client, world
):
    typed = _enter_as_ana(client, world.copa)
    agree = reverse("organiser:person_merge_agree")
    client.force_login(world.bea)
    response = client.post(
        agree, {"person": typed.pk, "other": world.ana.pk}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert "the two records become one when they all agree" in response.content.decode()
    assert Person.objects.filter(pk=typed.pk).exists()  # asked, not merged
    _private_absent(client.get(reverse("organiser:people")).content.decode())

    client.force_login(world.pere)
    response = client.post(
        agree, {"person": world.ana.pk, "other": typed.pk}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert "The two records are now one person: Ana Ruiz." in response.content.decode()
    assert not Person.objects.filter(pk=typed.pk).exists()  # Ana's record, with more history
    world.ana.refresh_from_db()
    assert world.ana.licence == "FED-0042"
    played = client.get(reverse("tournaments:person", args=[world.ana.pk])).content.decode()
    assert "Copa Abierta" in played
    assert not PersonMergeRequest.objects.exists()


def test_two_people_is_an_answer_too(client, world):
    typed = _enter_as_ana(client, world.copa)
    (request,) = PersonMergeRequest.objects.all()
    client.force_login(world.pere)
    response = client.post(
        reverse("organiser:person_merge_decline"),
        {"request": request.pk},
        HTTP_ACCEPT_LANGUAGE="ca",
        follow=True,
    )
    assert "Entesos: continuen sent dues persones." in response.content.decode()
    assert not PersonMergeRequest.objects.exists()
    assert Person.objects.filter(pk__in=[typed.pk, world.ana.pk]).count() == 2


def test_a_merge_needs_every_championship_of_both_records(client, world):
    """Bea organises the Copa, where Ana now plays too, but not Pere's championships: she
    sees Ana's record, yet may not merge it alone."""
    _plays(world.ana, world.copa, "Equipo de Ana")
    other = PersonFactory(name="ana ruiz", email="mine@example.org")
    copa_b = ChampionshipFactory(name="Copa B")
    copa_b.organisers.add(world.bea)
    _plays(other, copa_b)
    client.force_login(world.bea)
    merge = reverse("organiser:person_merge")
    page = client.get(merge, {"keep": other.pk, "drop": world.ana.pk}, HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "2 championships of these two records are other organisers'" in text
    assert "Yes, they are one person: merge" not in text
    response = client.post(
        merge, {"keep": other.pk, "drop": world.ana.pk}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert "you cannot merge them alone" in response.content.decode()
    assert Person.objects.filter(pk__in=[other.pk, world.ana.pk]).count() == 2
    other.refresh_from_db()
    assert other.licence == "" and other.phone == ""

    with pytest.raises(TournamentError) as error:
        services.person_merge(keep=other, drop=world.ana, by=world.bea)
    assert error.value.code == "merge_not_managed"


# -- 6. one person in two teams, a merged-away address ---------------------------------------


def test_two_records_playing_in_one_championship_are_never_merged(client, world):
    namesake = PersonFactory(name="ANA RUIZ", club="Sants")
    _plays(namesake, world.reus, "Otro equipo")
    client.force_login(world.pere)
    merge = reverse("organiser:person_merge")
    page = client.get(merge, {"keep": world.ana.pk, "drop": namesake.pk}, HTTP_ACCEPT_LANGUAGE="es")
    text = page.content.decode()
    assert "una persona no puede jugar en dos equipos de un campeonato" in text
    assert "merge" not in re.findall(r'<button[^>]*type="submit">([^<]*)<', text)
    response = client.post(
        merge, {"keep": world.ana.pk, "drop": namesake.pk}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert "one person cannot play in two teams of a championship" in response.content.decode()
    assert Person.objects.filter(pk=namesake.pk).exists()


def test_a_merged_away_address_leads_to_the_person_kept(client, world):
    first, second = PersonFactory(name="Ana Ruiz"), PersonFactory(name="Ana Ruiz")
    for person, name in ((first, "Copa Primera"), (second, "Open de Tardor")):
        championship = ChampionshipFactory(name=name)
        championship.organisers.add(world.pere)
        _plays(person, championship)
    services.person_merge(keep=world.ana, drop=first, by=world.pere)
    services.person_merge(keep=second, drop=world.ana, by=world.pere)  # Ana's id goes too

    for gone in (first, world.ana):
        response = client.get(reverse("tournaments:person", args=[gone.pk]))
        assert response.status_code == 301
        assert response["Location"] == reverse("tournaments:person", args=[second.pk])
    history = people_history.person_public(person_id=second.pk)
    played = [stint.championship.name for stint in history.stints]
    assert sorted(played) == ["Copa Primera", "Lliga de Sants", "Open de Reus", "Open de Tardor"]
    client.force_login(world.pere)
    response = client.get(reverse("organiser:person_edit", args=[first.pk]))
    assert response["Location"] == reverse("organiser:person_edit", args=[second.pk])
    assert client.get(reverse("tournaments:person", args=[99999])).status_code == 404
