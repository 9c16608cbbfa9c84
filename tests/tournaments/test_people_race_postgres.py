"""Two organisers merging the same two records at once: one merge, the other a sentence."""

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
from tournaments.errors import TournamentError
from tournaments.models import Person, Player, TeamAct
from tournaments.people import services


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
