"""People on the organiser's side: likely matches offered (never merged silently), the team
form asking "the same person as ...?", licences, the people's page and a person's edit."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.factories import (
    ChampionshipFactory,
    PersonFactory,
    PlayerFactory,
    TeamFactory,
)
from tournaments.errors import TournamentError
from tournaments.io.imports import teams_import
from tournaments.models import Championship, Membership, Person, TeamAct
from tournaments.people import selectors, services
from tournaments.people.services import PersonDetails


def _plays(person: Person, championship: Championship, name: str = "") -> None:
    """``person`` plays in a team of ``championship``."""
    team = TeamFactory(championship=championship, name=name or f"T{person.pk}")
    membership = team.memberships.order_by("order").first()
    membership.player = PlayerFactory(name=person.name, person=person)
    membership.save()


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="organiser")


@pytest.fixture
def registration(organiser):
    championship = ChampionshipFactory(status=Championship.Status.REGISTRATION, team_size=2)
    championship.organisers.add(organiser)
    return championship


# -- likely matches --------------------------------------------------------------------------


@pytest.fixture
def staff(db):
    """Someone who manages every championship: he may see everyone."""
    return get_user_model().objects.create_superuser(username="federation")


def test_an_organiser_is_offered_only_people_of_his_own_championships(db, organiser):
    """Choosing "the same person" would show the person's contact data: an organiser
    typing a name finds only the people of the championships he manages, never another
    organiser's players."""
    theirs = ChampionshipFactory(name="Open de Reus")
    stranger = PersonFactory(name="Ana Ruiz", email="ana@example.com")
    _plays(stranger, theirs)
    mine = ChampionshipFactory(name="Copa del Casal")
    mine.organisers.add(organiser)
    (matches,) = selectors.person_likely_matches([PersonDetails(name="Ana Ruiz")], user=organiser)
    assert matches == []
    assert (
        selectors.likely_person(PersonDetails(name="Ana Ruiz"), stranger.pk, user=organiser) is None
    )
    known = PersonFactory(name="Ana Ruiz")
    _plays(known, mine)
    (matches,) = selectors.person_likely_matches([PersonDetails(name="ana ruiz")], user=organiser)
    assert matches == [known]


@pytest.mark.parametrize(
    ("typed", "club", "licence", "found"),
    [
        ("jose  PEREZ", "", "", True),  # case, accents and spaces aside
        ("José Pérez", "c.t. sants", "", True),  # clubs compared the same way
        ("José Pérez", "Gràcia", "", False),  # another club: another man
        ("José Pérez", "", "L-2", False),  # another licence: another man
        ("José Pere", "", "", False),
    ],
)
def test_likely_matches_ignore_case_accents_and_spaces(db, staff, typed, club, licence, found):
    known = PersonFactory(name="José Pérez", club="C.T. Sants", licence="L-1")
    (matches,) = selectors.person_likely_matches(
        [PersonDetails(name=typed, club=club, licence=licence)], user=staff
    )
    assert (matches == [known]) is found


def test_a_known_licence_is_no_question_and_finds_its_person(db, staff):
    known = PersonFactory(name="Ana Ruiz", licence="FED-7")
    (matches,) = selectors.person_likely_matches(
        [PersonDetails(name="Ana Ruiz", licence="FED-7")], user=staff
    )
    assert matches == []  # handled at once, not offered
    typed = PersonDetails(name="Ana Ruiz", licence="FED-7")
    (player,) = services.players_create([typed], by=staff)
    assert player.person == known
    # Typed by the public, the same licence joins nobody: a new person, without it.
    (public,) = services.players_create([typed])
    assert public.person != known and public.person.licence == ""


def test_likely_matches_cost_two_queries_and_name_their_championships(
    db, staff, django_assert_max_num_queries
):
    people = [PersonFactory(name=f"Jugador {n}") for n in range(20)]
    for person in people[:3]:
        _plays(person, ChampionshipFactory(name=f"Open {person.pk}"))
    typed = [PersonDetails(name=p.name.upper()) for p in people]
    with django_assert_max_num_queries(2):
        found = selectors.person_likely_matches(typed, user=staff)
    assert [m[0].pk for m in found] == [p.pk for p in people]
    assert [c.name for c in found[0][0].championships] == [f"Open {people[0].pk}"]


def test_a_person_found_keeps_his_details_and_gains_what_he_lacked(db):
    known = PersonFactory(name="Ana Ruiz", email="ana@example.com")
    services.players_create(
        [PersonDetails(name="Ana Ruiz", email="other@example.com", phone="600", person=known)]
    )
    known.refresh_from_db()
    assert (known.email, known.phone) == ("ana@example.com", "600")


# -- the team form ---------------------------------------------------------------------------


def _team_data(**players):
    return {"name": "Los Anchos", "player_1": "Ana Ruiz", "player_2": "Beto Gil", **players}


def test_a_typed_player_with_a_likely_match_is_asked_about_before_anything(
    client, organiser, registration
):
    earlier = ChampionshipFactory(name="Open de Reus")
    earlier.organisers.add(organiser)  # his own earlier championship: he may see her
    ana = PersonFactory(name="Ana RUIZ", club="")
    _plays(ana, earlier)
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    people_before = Person.objects.count()
    page = client.post(url, _team_data(), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Is this the same person?" in text and "Open de Reus" in text
    assert not registration.teams.exists()  # nothing created yet
    assert Person.objects.count() == people_before

    response = client.post(url, {**_team_data(), "person_1": str(ana.pk)})
    assert response.status_code == 302
    team = registration.teams.get()
    players = [m.player for m in team.memberships.order_by("order")]
    assert players[0].person == ana  # the same person: her matches are together
    assert players[1].person != ana


def test_a_new_person_is_a_choice_too(client, organiser, registration):
    ana = PersonFactory(name="Ana Ruiz")
    earlier = ChampionshipFactory()
    earlier.organisers.add(organiser)
    _plays(ana, earlier)
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    client.post(url, {**_team_data(), "person_1": "new"})
    player = registration.teams.get().memberships.get(order=1).player
    assert player.person != ana and player.person.name == "Ana Ruiz"


def test_a_choice_outside_the_likely_matches_is_asked_again(client, organiser, registration):
    ana = PersonFactory(name="Ana Ruiz")
    stranger = PersonFactory(name="Someone Else", email="x@example.com")
    earlier = ChampionshipFactory()
    earlier.organisers.add(organiser)
    _plays(ana, earlier)
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    page = client.post(url, {**_team_data(), "person_1": str(stranger.pk)})
    assert page.status_code == 200 and not registration.teams.exists()


def test_a_known_licence_joins_its_person_at_once_and_says_so(client, organiser, registration):
    ana = PersonFactory(name="Ana Ruiz Soler", licence="FED-7")
    earlier = ChampionshipFactory(name="Open de Reus")
    earlier.organisers.add(organiser)
    _plays(ana, earlier)  # his own player: he sees her record already
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    response = client.post(
        url,
        _team_data(player_1="Ana R.", licence_1="FED-7"),
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert registration.teams.get().memberships.get(order=1).player.person == ana
    text = response.content.decode()
    assert "Ana R. was recognised by licence number FED-7" in text


def test_the_team_form_keeps_each_players_licence_and_contact(client, organiser, registration):
    client.force_login(organiser)
    url = reverse("organiser:teams", args=[registration.slug])
    client.post(
        url, _team_data(licence_2="L-9", email_2="beto@example.com", phone_2="+34 600 000 000")
    )
    beto = registration.teams.get().memberships.get(order=2).player.person
    assert (beto.licence, beto.email, beto.phone) == ("L-9", "beto@example.com", "+34 600 000 000")


def test_team_edit_changes_a_players_contact_and_refuses_anothers_licence(
    client, organiser, registration
):
    _plays(PersonFactory(name="Carla", licence="TAKEN"), registration)
    team = TeamFactory(championship=registration)
    first, second = [m.player for m in team.memberships.order_by("order")]
    client.force_login(organiser)
    url = reverse("organiser:team_edit", args=[registration.slug, team.pk])
    data = {"name": team.name, "player_1": first.name, "player_2": second.name}
    response = client.post(url, {**data, "email_1": "new@example.com"})
    assert response.status_code == 302
    first.person.refresh_from_db()
    assert first.person.email == "new@example.com"
    assert TeamAct.objects.filter(action=TeamAct.Action.PERSON_EDITED, team=team).exists()

    page = client.post(
        url, {**data, "email_1": "", "licence_2": "TAKEN"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert page.status_code == 200
    assert "Another person has licence number TAKEN" in page.content.decode()
    first.person.refresh_from_db()
    second.person.refresh_from_db()
    assert first.person.email == "new@example.com"  # all or nothing
    assert second.person.licence == ""


# -- the CSV import --------------------------------------------------------------------------


def test_the_import_takes_licence_email_and_phone_per_player(registration):
    (team,) = teams_import(
        championship=registration,
        file="team,player,licence,email,phone\n"
        "A,Ana,FED-1,ana@example.com,600 111 222\nA,Beto,,,\n",
    )
    ana, beto = [m.player.person for m in team.memberships.order_by("order")]
    assert (ana.licence, ana.email, ana.phone) == ("FED-1", "ana@example.com", "600 111 222")
    assert (beto.licence, beto.email) == ("", "")


def test_the_import_refuses_a_bad_email_on_its_row(registration):
    from tournaments.io.imports import ImportRowsError

    with pytest.raises(ImportRowsError) as error:
        teams_import(championship=registration, file="team,player,email\nA,Ana,not-mail\nA,B,\n")
    assert [(e.row, e.column) for e in error.value.rows] == [(2, "email")]


def test_the_import_lists_its_likely_matches_without_merging(client, organiser, registration):
    earlier = ChampionshipFactory()
    earlier.organisers.add(organiser)
    ana = PersonFactory(name="Ana Ruiz")
    _plays(ana, earlier)
    client.force_login(organiser)
    upload = ("teams.csv", b"team,player\nA,ana ruiz\nA,Beto\n", "text/csv")
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        reverse("organiser:teams_import", args=[registration.slug]),
        {"file": SimpleUploadedFile(*upload)},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "1 player may already be on record" in response.content.decode()
    new = registration.teams.get().memberships.get(order=1).player.person
    assert new != ana  # nothing merged
    page = client.get(
        reverse("organiser:people") + f"?championship={registration.slug}",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    merge = reverse("organiser:person_merge") + f"?keep={ana.pk}&amp;drop={new.pk}"
    assert merge in page


# -- the people's page and a person's edit ----------------------------------------------------


def test_the_people_page_shows_only_the_people_of_my_championships(
    client, organiser, registration, django_assert_max_num_queries
):
    mine = PersonFactory(name="Núria Ferrer", licence="CAT-3")
    theirs = PersonFactory(name="Núria Ferrer Other")
    _plays(mine, registration)
    _plays(theirs, ChampionshipFactory())
    client.force_login(organiser)
    url = reverse("organiser:people")
    with django_assert_max_num_queries(12):
        page = client.get(url).content.decode()
    assert "CAT-3" in page and "Núria Ferrer Other" not in page
    found = client.get(url, {"q": "nuria"}).content.decode()  # accents aside
    assert "Núria Ferrer" in found
    client.cookies.load({"django_language": "en"})
    assert (
        "Nobody found." in client.get(url, {"q": "zzz"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    assert client.get(reverse("organiser:person_edit", args=[theirs.pk])).status_code == 404


def test_a_person_is_edited_and_the_edit_logged(client, organiser, registration):
    person = PersonFactory(name="Ana Ruiz")
    _plays(person, registration, name="Las Anas")
    client.force_login(organiser)
    url = reverse("organiser:person_edit", args=[person.pk])
    data = {"name": "Ana Ruiz Soler", "club": "Sants", "licence": "F-1", "email": "a@b.es"}
    assert client.post(url, {**data, "initial_only": "on"}).status_code == 302
    person.refresh_from_db()
    assert person.public_name == "Ana S." and person.licence == "F-1"
    act = TeamAct.objects.get(action=TeamAct.Action.PERSON_EDITED)
    assert act.team.name == "Las Anas" and act.via == TeamAct.Via.ORGANISER and act.by == organiser
    assert f"(#{person.pk})" in act.detail and "a@b.es" not in act.detail


def test_a_licence_another_person_holds_is_refused_with_a_sentence(organiser, registration):
    PersonFactory(name="Other", licence="F-1")
    person = PersonFactory(name="Ana")
    _plays(person, registration)
    with pytest.raises(TournamentError) as error:
        services.person_update(person=person, by=organiser, licence="F-1")
    assert error.value.code == "licence_taken"
    assert "F-1" in error.value.text


def test_nobody_edits_a_person_of_championships_he_does_not_manage(db, organiser):
    person = PersonFactory(name="Ana")
    _plays(person, ChampionshipFactory())
    with pytest.raises(TournamentError) as error:
        services.person_update(person=person, by=organiser, name="Hacked")
    assert error.value.code == "person_not_managed"
    person.refresh_from_db()
    assert person.name == "Ana"


def test_the_people_page_needs_a_login(client):
    response = client.get(reverse("organiser:people"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_a_players_membership_keeps_its_person_through_factories(db):
    # Guard of the fixtures above: a factory team's players each have their own person.
    team = TeamFactory()
    assert Membership.objects.filter(team=team, player__person__isnull=False).count() == 2
