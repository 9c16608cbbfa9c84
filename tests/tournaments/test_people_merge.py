"""Two records of one human merged by an organiser: every match of both kept, hand records
untouched, blanks filled, refusals in a sentence, the audit log written."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments.conftest import play
from tests.tournaments.factories import (
    ChampionshipFactory,
    PersonFactory,
    PlayerFactory,
    StaffFactory,
    TeamFactory,
)
from tournaments.errors import TournamentError
from tournaments.models import Championship, Hand, Person, Player, TeamAct
from tournaments.people import services
from tournaments.stages import services as stage_services


def _team_with(person: Person, championship: Championship, name: str = ""):
    team = TeamFactory(championship=championship, name=name or f"T{person.pk}-{championship.pk}")
    membership = team.memberships.order_by("order").first()
    membership.player = PlayerFactory(name=person.name, person=person)
    membership.save()
    return team


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="organiser")


@pytest.fixture
def two(organiser):
    """Ana in two championships of the organiser, as two records."""
    first = ChampionshipFactory(name="Open de Reus", status="running")
    second = ChampionshipFactory(name="Copa de Sants")
    for championship in (first, second):
        championship.organisers.add(organiser)
    keep = PersonFactory(name="Ana Ruiz", email="ana@example.com")
    drop = PersonFactory(name="ana ruiz", club="Sants", licence="F-9", phone="600")
    return keep, drop, _team_with(keep, first, "Las Anas"), _team_with(drop, second, "Sants A")


def test_a_merge_keeps_every_match_of_both_and_no_hand_record_changes(organiser, two, referee):
    keep, drop, team, other_team = two
    championship = team.championship
    rival = TeamFactory(championship=championship)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    play(match, team, referee=referee)
    records = list(Hand.objects.order_by("pk").values_list("record", flat=True))
    players = set(Player.objects.filter(person__in=[keep, drop]).values_list("pk", flat=True))

    kept = services.person_merge(keep=keep, drop=drop, by=organiser)

    assert kept == keep and not Person.objects.filter(pk=drop.pk).exists()
    assert set(kept.players.values_list("pk", flat=True)) == players
    assert list(Hand.objects.order_by("pk").values_list("record", flat=True)) == records
    assert {t.pk for p in kept.players.all() for t in p.teams.all()} == {team.pk, other_team.pk}
    assert rival.memberships.count() == 2


def test_a_merge_fills_the_blanks_of_the_record_kept(organiser, two):
    keep, drop, *_ = two
    kept = services.person_merge(keep=keep, drop=drop, by=organiser)
    kept.refresh_from_db()
    # Kept: his name and email; taken from the other: club, licence, phone.
    assert (kept.name, kept.email, kept.club, kept.licence, kept.phone) == (
        "Ana Ruiz",
        "ana@example.com",
        "Sants",
        "F-9",
        "600",
    )


def test_each_merge_is_in_the_audit_of_each_championship(organiser, two):
    keep, drop, team, other_team = two
    services.person_merge(keep=keep, drop=drop, by=organiser)
    acts = TeamAct.objects.filter(action=TeamAct.Action.PERSON_MERGED).order_by("championship")
    assert {(a.championship_id, a.team_id) for a in acts} == {
        (team.championship_id, team.pk),
        (other_team.championship_id, other_team.pk),
    }
    for act in acts:
        assert act.via == TeamAct.Via.ORGANISER and act.by == organiser
        assert f"(#{drop.pk})" in act.detail and f"(#{keep.pk})" in act.detail
        assert "ana@example.com" not in act.detail


def test_two_licences_are_two_people(organiser, two):
    keep, drop, *_ = two
    Person.objects.filter(pk=keep.pk).update(licence="F-1")
    keep.refresh_from_db()
    with pytest.raises(TournamentError) as error:
        services.person_merge(keep=keep, drop=drop, by=organiser)
    assert error.value.code == "merge_licences"
    assert Person.objects.filter(pk=drop.pk).exists()


def test_two_people_of_one_team_are_never_merged(organiser, two):
    keep, _drop, team, _other = two
    mate = team.memberships.get(order=2).player.person
    with pytest.raises(TournamentError) as error:
        services.person_merge(keep=keep, drop=mate, by=organiser)
    assert error.value.code == "merge_same_team"
    assert "Las Anas" in error.value.text


def test_only_who_manages_a_championship_of_each_merges(db, two):
    keep, drop, team, _other = two
    half = get_user_model().objects.create_user(username="half")
    team.championship.organisers.add(half)  # only the first championship
    with pytest.raises(TournamentError) as error:
        services.person_merge(keep=keep, drop=drop, by=half)
    assert error.value.code == "person_not_managed"
    staff = StaffFactory()
    assert services.person_merge(keep=keep, drop=drop, by=staff) == keep


def test_a_merge_done_already_is_told_in_a_sentence(organiser, two):
    keep, drop, *_ = two
    services.person_merge(keep=keep, drop=drop, by=organiser)
    with pytest.raises(TournamentError) as error:
        services.person_merge(keep=drop, drop=keep, by=organiser)  # the other way round
    assert error.value.code == "merge_gone"


def test_the_merge_is_confirmed_on_its_page_first(client, organiser, two):
    keep, drop, *_ = two
    client.force_login(organiser)
    url = reverse("organiser:person_merge")
    page = client.get(url, {"keep": keep.pk, "drop": drop.pk}, HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "Yes, they are one person: merge" in text and "Copa de Sants" in text
    assert Person.objects.filter(pk=drop.pk).exists()  # a GET merges nothing
    response = client.post(url, {"keep": keep.pk, "drop": drop.pk}, follow=True)
    assert not Person.objects.filter(pk=drop.pk).exists()
    assert response.redirect_chain[-1][0] == reverse("organiser:people")
    again = client.post(url, {"keep": keep.pk, "drop": drop.pk}, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 302  # told, not a 500 nor a 404


def test_a_stranger_sees_no_merge_page(client, two):
    keep, drop, *_ = two
    client.force_login(get_user_model().objects.create_user(username="stranger"))
    url = reverse("organiser:person_merge")
    assert client.get(url, {"keep": keep.pk, "drop": drop.pk}).status_code == 404
    client.post(url, {"keep": keep.pk, "drop": drop.pk})
    assert Person.objects.filter(pk=drop.pk).exists()


def test_the_people_page_lists_the_likely_pair(client, organiser, two):
    keep, drop, *_ = two
    Person.objects.filter(pk=drop.pk).update(club="")
    client.force_login(organiser)
    page = client.get(reverse("organiser:people")).content.decode()
    assert reverse("organiser:person_merge") + f"?keep={keep.pk}&amp;drop={drop.pk}" in page
