"""An entry's fee: paid or not, and refunded to a team gone.

The fee is the championship's (``EntryPolicy.fee`` in ``EntryPolicy.currency``). A team
that paid and is then refused or withdrawn is *to refund* (``Entry.to_refund``) until the
organiser marks the fee given back (:func:`entry_set_refunded`). Each mark is an act of the
audit log, with the amount ("10.00 EUR") as its detail.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.entries import money
from tournaments.entries.audit import team_act_log
from tournaments.errors import TournamentError
from tournaments.models import Entry, TeamAct


def _amount(entry: Entry) -> str:
    """The fee as the audit log keeps it ("10.00 EUR"), or nothing without a fee."""
    try:
        policy = entry.championship.entry_policy
    except ObjectDoesNotExist:
        return ""
    return money.money_data(policy.fee, policy.currency) if policy.fee is not None else ""


def _locked(entry: Entry) -> Entry:
    return (
        Entry.objects.select_for_update(of=("self",))
        .select_related("team", "championship__entry_policy")
        .get(pk=entry.pk)
    )


@transaction.atomic
def entry_set_paid(*, entry: Entry, paid: bool, by: AbstractBaseUser | None, via: str) -> Entry:
    """Mark the entry's fee paid (now) or not paid; the same mark again changes nothing. A
    fee refunded stays paid and refunded: it is no longer marked."""
    entry = _locked(entry)
    if entry.paid == paid:
        return entry
    if entry.refunded_at is not None:
        raise TournamentError(
            _("%(team)s's fee was refunded: it is marked no more."),
            code="entry_refunded",
            params={"team": entry.team.name},
        )
    entry.paid = paid
    entry.paid_at = timezone.now() if paid else None
    entry.save(update_fields=["paid", "paid_at"])
    action = TeamAct.Action.PAID if paid else TeamAct.Action.UNPAID
    team_act_log(team=entry.team, action=action, via=via, by=by, detail=_amount(entry))
    return entry


@transaction.atomic
def entry_set_refunded(*, entry: Entry, by: AbstractBaseUser | None, via: str) -> Entry:
    """Mark the fee of a team gone (refused or withdrawn) that had paid as given back (now);
    the same mark again changes nothing. Any other entry is refused with a sentence."""
    entry = _locked(entry)
    if entry.refunded_at is not None:
        return entry
    if not entry.to_refund:
        raise TournamentError(
            _(
                "Only a fee paid by a team that is refused or withdrawn is refunded: "
                "%(team)s has nothing to refund."
            ),
            code="entry_not_refundable",
            params={"team": entry.team.name},
        )
    entry.refunded_at = timezone.now()
    entry.save(update_fields=["refunded_at"])
    team_act_log(
        team=entry.team, action=TeamAct.Action.REFUNDED, via=via, by=by, detail=_amount(entry)
    )
    return entry
