"""factory_boy factories of the championships domain."""

import datetime

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments.models import (
    Championship,
    ChampionshipReferee,
    Membership,
    Person,
    Player,
    Team,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")


class RefereeFactory(UserFactory):
    """A referee of the championships given as ``championships=[...]`` (on their lists of
    referees; only there may he referee)."""

    username = factory.Sequence(lambda n: f"referee{n}")

    @factory.post_generation
    def championships(self, create, extracted, **kwargs):
        for championship in extracted or ():
            ChampionshipReferee.objects.get_or_create(championship=championship, user=self)


class StaffFactory(UserFactory):
    """Staff who manage every championship: the model permission ``change_championship``
    (the staff flag alone opens only the admin)."""

    username = factory.Sequence(lambda n: f"staff{n}")
    is_staff = True

    @factory.post_generation
    def manage_every_championship(self, create, extracted, **kwargs):
        if create:
            self.user_permissions.add(Permission.objects.get(codename="change_championship"))


class ChampionshipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Championship

    name = factory.Sequence(lambda n: f"Campeonato {n}")
    slug = factory.Sequence(lambda n: f"campeonato-{n}")
    status = Championship.Status.RUNNING
    start_date = datetime.date(2026, 5, 9)
    # A falta envido takes the whole chico: test hands can end a chico at any score.
    rules = factory.LazyFunction(lambda: {"preset": "argentine", "falta_envido": "whole_chico"})
    team_size = 2


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    name = factory.Sequence(lambda n: f"Jugador {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Jugador {n}")
    person = factory.SubFactory(PersonFactory, name=factory.SelfAttribute("..name"))


class TeamFactory(factory.django.DjangoModelFactory):
    """A complete team: as many players as its championship's team size."""

    class Meta:
        model = Team
        skip_postgeneration_save = True

    championship = factory.SubFactory(ChampionshipFactory)
    name = factory.Sequence(lambda n: f"Equipo {n}")
    seed = factory.Sequence(lambda n: n + 1)

    @factory.post_generation
    def members(self, create, extracted, **kwargs):
        if not create:
            return
        for order in range(1, self.championship.team_size + 1):
            Membership.objects.create(
                team=self,
                player=PlayerFactory(),
                order=order,
                is_captain=order == 1 and self.championship.is_catalan,
            )
