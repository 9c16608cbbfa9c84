"""A team moved from one qualifier of a circuit to another (Mallorca's rules allow it)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournaments.championships.selectors import OPEN_ENTRIES
from tournaments.championships.services import lock_championship
from tournaments.circuits.access import can_manage_championship
from tournaments.circuits.services._checks import check_may_manage, refuse
from tournaments.entries.services import link_issue, promote_waiting
from tournaments.models import (
    Championship,
    CircuitEvent,
    Entry,
    EntryPolicy,
    Match,
    Team,
    TeamAct,
)
from tournaments.signals import announce


@transaction.atomic
def team_move_to_event(*, team: Team, event: CircuitEvent, by: Any) -> tuple[Team, str]:
    """Move ``team``, not yet paired, from its qualifier to another qualifier of the
    same circuit (to balance the phases): the team, its line-up (the same players, so the
    same persons) and its entry go to ``event``'s championship, at the end of its arrival
    order. Returns the team and its new personal link's token: a link names its
    championship, so the old one stops working and a new one is issued (empty when the
    team had no live link).

    Both championships' audit logs record the move (``TeamAct.Action.MOVED``)."""
    source = Championship.objects.get(pk=team.championship_id)
    target = Championship.objects.get(pk=event.championship_id)
    # The same lock order as every writer: championships, lower id first.
    for championship in sorted((source, target), key=lambda c: c.pk):
        lock_championship(championship)
    team = Team.objects.select_for_update().get(pk=team.pk)
    event = CircuitEvent.objects.select_related("circuit").get(pk=event.pk)
    circuit = event.circuit
    check_may_manage(by, circuit)
    for championship in (source, target):
        if not can_manage_championship(by, championship):
            raise refuse(
                _("You do not organise %(championship)s."),
                "championship_not_yours",
                championship=championship.name,
            )
    home = CircuitEvent.objects.filter(championship=source).first()
    if (
        home is None
        or home.circuit_id != circuit.pk
        or home.kind != CircuitEvent.Kind.QUALIFIER
        or event.kind != CircuitEvent.Kind.QUALIFIER
    ):
        raise refuse(
            _("A team moves only between two qualifiers of the same circuit."),
            "move_not_qualifier",
            "event",
        )
    if target.pk == source.pk:
        raise refuse(_("%(team)s already plays there."), "move_same", "event", team=team.name)
    if Match.objects.of_team(team).exists():
        raise refuse(
            _("%(team)s has already been paired: it can no longer move."),
            "move_paired",
            team=team.name,
        )
    if target.status not in OPEN_ENTRIES:
        raise refuse(
            _("%(championship)s has started: teams can no longer join it."),
            "move_target_started",
            "event",
            championship=target.name,
        )
    if target.team_size != source.team_size:
        raise refuse(
            ngettext_lazy(
                "%(championship)s plays with %(size)s player per team.",
                "%(championship)s plays with %(size)s players per team.",
                "size",
            ),
            "move_team_size",
            "event",
            championship=target.name,
            size=target.team_size,
        )
    if Team.objects.filter(championship=target, name=team.name).exists():
        raise refuse(
            _("%(championship)s already has a team called %(team)s: rename one first."),
            "move_name_taken",
            "event",
            championship=target.name,
            team=team.name,
        )
    persons = set(team.players.values_list("person_id", flat=True))
    if Team.objects.filter(championship=target, players__person__in=persons).exists():
        raise refuse(
            _("A player of %(team)s already plays in %(championship)s."),
            "move_player_there",
            "event",
            championship=target.name,
            team=team.name,
        )
    entry = Entry.objects.filter(team=team).first()
    holding = entry is None or entry.status in Entry.HOLDING
    policy = EntryPolicy.objects.filter(championship=target).first()
    if holding and policy is not None and policy.capacity is not None:
        taken = Entry.objects.filter(championship=target, status__in=Entry.HOLDING).count()
        if taken >= policy.capacity:
            raise refuse(
                ngettext_lazy(
                    "%(championship)s is full (%(capacity)s team): free a place there first.",
                    "%(championship)s is full (%(capacity)s teams): free a place there first.",
                    "capacity",
                ),
                "move_target_full",
                "event",
                championship=target.name,
                capacity=policy.capacity,
            )
    had_link = team.links.filter(revoked_at__isnull=True).exists()
    TeamAct.objects.create(
        championship=source,
        team=team,
        team_name=team.name,
        action=TeamAct.Action.MOVED,
        via=TeamAct.Via.ORGANISER,
        by=by,
        detail=str(_("Moved to %(championship)s.") % {"championship": target.name}),
    )
    team.championship = target
    team.seed = None  # its seed placed it among the other phase's teams
    team.save(update_fields=["championship", "seed"])
    if entry is not None:
        last = Entry.objects.filter(championship=target).aggregate(last=Max("position"))["last"]
        entry.championship = target
        entry.position = (last or 0) + 1
        entry.form_key = ""  # the other championship's one-time keys are its own
        entry.save(update_fields=["championship", "position", "form_key"])
    TeamAct.objects.create(
        championship=target,
        team=team,
        team_name=team.name,
        action=TeamAct.Action.MOVED,
        via=TeamAct.Via.ORGANISER,
        by=by,
        detail=str(_("Moved from %(championship)s.") % {"championship": source.name}),
    )
    token = link_issue(team=team, via=TeamAct.Via.ORGANISER, by=by) if had_link else ""
    if entry is not None and entry.status in Entry.HOLDING:
        promote_waiting(championship=source, via=TeamAct.Via.ORGANISER, by=by)
    for championship in (source, target):
        announce(championship_id=championship.pk, what="team")
    return team, token
