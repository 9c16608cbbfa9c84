"""Who manages a circuit, decided once: its organisers, and staff who manage every
championship (``models.manages_every_championship``). The circuit's pages, its services
and its API ask these functions; a championship's own managers are decided by
``Championship.objects.managed_by``."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournaments.models import Championship, Circuit, manages_every_championship


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
