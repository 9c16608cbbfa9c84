"""Who manages a circuit, and what its organiser reads of it.

Who manages is decided once: its organisers, and staff who manage every championship
(``models.manages_every_championship``); the circuit's pages, its services and its API
ask these functions. A championship's own managers are decided by
``Championship.objects.managed_by``. The public reads of a circuit (its ranking, its
events) are ``circuits.selectors``'; these are the organiser's pages' own.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    Entry,
    Match,
    Membership,
    Team,
    manages_every_championship,
)


def circuits_managed_by(user: Any) -> QuerySet[Circuit]:
    """The circuits ``user`` may manage: every one for staff with the permission, those
    he organises for anyone else; none for an anonymous or inactive user."""
    if not user.is_authenticated or not user.is_active:
        return Circuit.objects.none()
    if manages_every_championship(user):
        return Circuit.objects.all()
    return Circuit.objects.filter(organisers=user)


def can_manage_circuit(user: Any, circuit: Circuit) -> bool:
    """Whether ``user`` may change ``circuit``, its rules and its events."""
    return circuits_managed_by(user).filter(pk=circuit.pk).exists()


def can_manage_championship(user: Any, championship: Championship) -> bool:
    """Whether ``user`` manages ``championship`` (the championships' own rule)."""
    return Championship.objects.managed_by(user).filter(pk=championship.pk).exists()


def circuit_for_organiser(*, user: Any, slug: str) -> Circuit:
    """The circuit ``slug`` if ``user`` manages it, else ``Circuit.DoesNotExist`` (the
    pages answer 404 to anyone else, as if it did not exist)."""
    return circuits_managed_by(user).get(slug=slug)


def organiser_events(*, circuit: Circuit) -> list[CircuitEvent]:
    """The circuit's events by date, each with its championship and ``team_count`` (the
    teams holding a place: typed in, or entered and not out). One query."""
    return list(
        circuit.events.select_related("championship", "championship__entry_policy")
        .annotate(
            team_count=Count(
                "championship__teams",
                filter=~Q(championship__teams__entry__status__in=Entry.OUT),
                distinct=True,
            )
        )
        .order_by("championship__start_date", "pk")
    )


def championships_to_add(*, user: Any) -> QuerySet[Championship]:
    """The championships ``user`` manages that are in no circuit yet, newest first."""
    return Championship.objects.managed_by(user).filter(circuit_event__isnull=True)


def event_teams(*, event: CircuitEvent) -> QuerySet[Team]:
    """A qualifier's teams (out ones too, marked by their entry), with their players and
    whether they were paired already (``paired``): the organiser moves the others."""
    paired = Match.objects.of_team(OuterRef("pk"))
    return (
        Team.objects.filter(championship_id=event.championship_id)
        .select_related("entry")
        .prefetch_related(
            Prefetch(
                "memberships",
                queryset=Membership.objects.select_related("player__person").order_by("order"),
            )
        )
        .annotate(paired=Exists(paired))
        .order_by("name")
    )
