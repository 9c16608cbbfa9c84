"""Merges racing on PostgreSQL (threads behind a barrier): two organisers merging the same
pair or crossing pairs, a merge and an entry of the same person, two organisers saying
"one person" at once. Each ends in a merge or a sentence, and nobody is lost or put in
two teams of a championship."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from tests.tournaments.factories import (
    ChampionshipFactory,
    PersonFactory,
    PlayerFactory,
    TeamFactory,
)
from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError
from tournaments.models import (
    Membership,
    Person,
    PersonMerged,
    PersonMergeRequest,
    Player,
    TeamAct,
)
from tournaments.people import services
from tournaments.people.services import PersonDetails


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("direction", ["same", "crossed"])
def test_two_organisers_merging_one_pair_make_one_merge(direction):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    first, second = ChampionshipFactory(), ChampionshipFactory()
    users = [get_user_model().objects.create_user(username=f"org{n}") for n in (1, 2)]
    for championship in (first, second):
        championship.organisers.add(*users)
    a, b = PersonFactory(name="Ana Ruiz"), PersonFactory(name="ana ruiz")
    for person, championship in ((a, first), (b, second)):
        membership = TeamFactory(championship=championship).memberships.get(order=1)
        membership.player = PlayerFactory(name=person.name, person=person)
        membership.save()
    players = set(Player.objects.filter(person__in=[a, b]).values_list("pk", flat=True))
    # "crossed": one keeps a, the other keeps b (locks in id order: no deadlock either way).
    pairs = [(a, b), (a, b) if direction == "same" else (b, a)]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def merge(user, keep, drop) -> None:
        try:
            barrier.wait()
            services.person_merge(keep=keep, drop=drop, by=user)
            outcomes.append("merged")
        except TournamentError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=merge, args=(user, *pair))
        for user, pair in zip(users, pairs, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["merge_gone", "merged"]
    (survivor,) = Person.objects.filter(pk__in=[a.pk, b.pk])
    assert set(survivor.players.values_list("pk", flat=True)) == players
    assert TeamAct.objects.filter(action=TeamAct.Action.PERSON_MERGED).count() == 2  # one merge


def _race(*calls) -> list[str]:
    """Run ``calls`` (name, function) at once behind a barrier: each one's outcome, its
    name when it went through, else the code of the sentence that refused it."""
    barrier = threading.Barrier(len(calls))
    outcomes: dict[int, str] = {}

    def run(index: int, name: str, call) -> None:
        try:
            barrier.wait()
            call()
            outcomes[index] = name
        except TournamentError as error:
            outcomes[index] = error.code
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(index, *call)) for index, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [outcomes.get(index, "crashed") for index in range(len(calls))]


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")


def _in(person, championship, name=""):
    team = TeamFactory(championship=championship, **({"name": name} if name else {}))
    membership = team.memberships.get(order=1)
    membership.player = PlayerFactory(name=person.name, person=person)
    membership.save()
    return team


def _one_team_each(championships) -> None:
    """Nobody plays in two teams of one championship."""
    for championship in championships:
        people = list(
            Membership.objects.filter(team__championship=championship).values_list(
                "player__person_id", flat=True
            )
        )
        assert len(people) == len(set(people)), championship.name


@pytest.mark.django_db(transaction=True)
def test_two_organisers_merging_crossing_pairs_lose_nobody():
    _needs_postgres()
    championships = [ChampionshipFactory() for _ in range(3)]
    users = [get_user_model().objects.create_user(username=f"org{n}") for n in (1, 2)]
    for championship in championships:
        championship.organisers.add(*users)
    a, b, c = (PersonFactory(name="Ana Ruiz") for _ in range(3))
    for person, championship in zip((a, b, c), championships, strict=True):
        _in(person, championship)
    players = set(Player.objects.filter(person__in=[a, b, c]).values_list("pk", flat=True))

    outcomes = _race(
        ("merged", lambda: services.person_merge(keep=a, drop=b, by=users[0])),
        ("merged", lambda: services.person_merge(keep=b, drop=c, by=users[1])),
    )

    assert outcomes in (["merged", "merge_gone"], ["merged", "merged"])
    survivors = Person.objects.filter(pk__in=[a.pk, b.pk, c.pk])
    assert a.pk in {p.pk for p in survivors}
    assert set(Player.objects.filter(person__in=survivors).values_list("pk", flat=True)) == players
    for gone in {a.pk, b.pk, c.pk} - {p.pk for p in survivors}:
        assert PersonMerged.objects.get(old_id=gone).person_id in {p.pk for p in survivors}
    _one_team_each(championships)


@pytest.mark.django_db(transaction=True)
def test_a_merge_racing_an_entry_of_the_same_person_never_puts_him_in_two_teams():
    """Ana (kept) plays in the Open; her other record is chosen for a new team of the Open
    while the organiser merges the two: one of them is refused in a sentence."""
    _needs_postgres()
    organiser = get_user_model().objects.create_user(username="organiser")
    open_, cup = ChampionshipFactory(name="Open"), ChampionshipFactory(name="Copa")
    for championship in (open_, cup):
        championship.organisers.add(organiser)
    keep, drop = PersonFactory(name="Ana Ruiz"), PersonFactory(name="Ana Ruiz")
    _in(keep, open_)
    _in(drop, cup)

    def enter() -> None:
        championship_services.team_create(
            championship=open_,
            name="Las Nuevas",
            players=[PersonDetails(name="Ana Ruiz", person=drop), "Eva Gil"],
            by=organiser,
        )

    outcomes = _race(
        ("merged", lambda: services.person_merge(keep=keep, drop=drop, by=organiser)),
        ("entered", enter),
    )

    assert outcomes in (["merged", "person_gone"], ["merge_same_championship", "entered"])
    _one_team_each([open_, cup])
    assert open_.teams.filter(name="Las Nuevas").exists() == (outcomes[1] == "entered")


@pytest.mark.django_db(transaction=True)
def test_two_organisers_saying_yes_at_once_make_one_merge():
    """Pere and Bea each manage one record's championship: both say "one person" at the
    same moment; the second yes, whichever it is, makes the merge, once."""
    _needs_postgres()
    pere, bea = (get_user_model().objects.create_user(username=name) for name in ("pere", "bea"))
    reus, copa = ChampionshipFactory(name="Reus"), ChampionshipFactory(name="Copa")
    reus.organisers.add(pere)
    copa.organisers.add(bea)
    ana, typed = PersonFactory(name="Ana Ruiz"), PersonFactory(name="Ana Ruiz")
    _in(ana, reus)
    _in(typed, copa)

    outcomes = _race(
        ("yes", lambda: services.person_merge_agree(person=ana, other=typed, by=pere)),
        ("yes", lambda: services.person_merge_agree(person=typed, other=ana, by=bea)),
    )

    assert outcomes == ["yes", "yes"]
    assert Person.objects.filter(pk__in=[ana.pk, typed.pk]).count() == 1
    assert TeamAct.objects.filter(action=TeamAct.Action.PERSON_MERGED).count() == 2  # one merge
    assert not PersonMergeRequest.objects.exists()
