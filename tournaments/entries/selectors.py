"""Reads of entries: whether a championship takes them, the places left, the organiser's
list with its counts.

One rule, one place: :func:`entries_closed_problem` says whether entries are open, for
the public page (before anyone types) and for ``entry_submit`` (under the lock) alike.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.championships.selectors import MEMBERS_IN_ORDER, OPEN_ENTRIES
from tournaments.models import Championship, Entry, EntryPolicy


def entry_policy(championship: Championship) -> EntryPolicy | None:
    """The championship's entry policy, or None when its organiser never set one."""
    return EntryPolicy.objects.filter(championship=championship).first()


def entries_closed_problem(
    championship: Championship,
    policy: EntryPolicy | None,
    *,
    now: datetime.datetime | None = None,
) -> str | None:
    """Why a team cannot enter now (a sentence), or None while entries are open: the
    organiser opened them, the closing time has not come, play has not started."""
    now = now or timezone.now()
    if championship.status not in OPEN_ENTRIES:
        return _("The championship has started: entries are closed.")
    if policy is None or not policy.is_open:
        return _("Entries are not open: the organiser takes the teams himself.")
    if policy.closes_at is not None and policy.closes_at <= now:
        return _("Entries closed on %(when)s") % {
            "when": _when(policy.closes_at, championship),
        }
    return None


def _when(moment: datetime.datetime, championship: Championship) -> str:
    return date_format(moment.astimezone(championship.zone), "DATETIME_FORMAT")


@dataclass(frozen=True)
class EntryWindow:
    """What the entry page states before anyone types: open or why not, the places."""

    policy: EntryPolicy | None
    closed: str | None  # why entries are closed, None while open
    capacity: int | None
    taken: int  # entries holding a place (entered or accepted)
    waiting: int  # teams on the waiting list

    @property
    def is_open(self) -> bool:
        return self.closed is None

    @property
    def full(self) -> bool:
        """Every place is taken: a team entered now goes on the waiting list."""
        return self.capacity is not None and self.taken >= self.capacity

    @property
    def next_waiting(self) -> int:
        """The waiting-list number of a team entered now (when the places are full)."""
        return self.waiting + 1

    @property
    def asks(self) -> list[str]:
        return list(self.policy.asks) if self.policy is not None else []


def entry_window(championship: Championship) -> EntryWindow:
    """Whether ``championship`` takes entries now, and how many places are taken (two
    queries)."""
    policy = entry_policy(championship)
    counts = Entry.objects.filter(championship=championship).aggregate(
        taken=Count("pk", filter=Q(status__in=Entry.HOLDING)),
        waiting=Count("pk", filter=Q(status=Entry.Status.WAITING)),
    )
    return EntryWindow(
        policy=policy,
        closed=entries_closed_problem(championship, policy),
        capacity=policy.capacity if policy is not None else None,
        taken=counts["taken"],
        waiting=counts["waiting"],
    )


def waiting_number(entry: Entry) -> int | None:
    """The entry's number on the waiting list (1 for the next team in), None when it
    does not wait."""
    if entry.status != Entry.Status.WAITING:
        return None
    return Entry.objects.filter(
        championship_id=entry.championship_id,
        status=Entry.Status.WAITING,
        position__lte=entry.position,
    ).count()


@dataclass(frozen=True)
class EntryCounts:
    """The organiser's totals: places, waiting list, fees (in ``currency``)."""

    entered: int  # holding a place: entered or accepted
    accepted: int
    capacity: int | None
    waiting: int
    paid: int  # entries still in (holding a place or waiting) whose fee is paid
    unpaid: int  # entries holding a place whose fee is not paid
    collected: Decimal | None  # the fee times the paid entries; None without a fee
    to_refund: int = 0  # teams gone (refused, withdrawn) that paid, not refunded yet
    refund_due: Decimal | None = None  # the fee times those; None without a fee
    currency: str = ""


def entries_for_organiser(championship: Championship) -> list[Entry]:
    """Every entry of ``championship`` in arrival order, with its team's players."""
    return list(
        Entry.objects.filter(championship=championship)
        .select_related("team", "championship__entry_policy")
        .prefetch_related(Prefetch("team__memberships", queryset=MEMBERS_IN_ORDER))
        .order_by("position")
    )


def entry_counts(entries: list[Entry], policy: EntryPolicy | None) -> EntryCounts:
    """The totals of ``entries`` (as :func:`entries_for_organiser` gives them)."""
    holding = [e for e in entries if e.status in Entry.HOLDING]
    # A team gone leaves the paid ones: its fee is to refund until it is given back.
    paid = sum(1 for e in entries if e.paid and e.status not in Entry.GONE)
    to_refund = sum(1 for e in entries if e.to_refund)
    fee = policy.fee if policy is not None else None
    return EntryCounts(
        entered=len(holding),
        accepted=sum(1 for e in holding if e.status == Entry.Status.ACCEPTED),
        capacity=policy.capacity if policy is not None else None,
        waiting=sum(1 for e in entries if e.status == Entry.Status.WAITING),
        paid=paid,
        unpaid=sum(1 for e in holding if not e.paid),
        collected=fee * paid if fee is not None else None,
        to_refund=to_refund,
        refund_due=fee * to_refund if fee is not None else None,
        currency=policy.currency if policy is not None else "",
    )


def entry_detail(entry_id: int) -> Entry | None:
    """An entry by its id with its championship and its team's players, or None."""
    return (
        Entry.objects.filter(pk=entry_id)
        .select_related("team", "championship__entry_policy")
        .prefetch_related(Prefetch("team__memberships", queryset=MEMBERS_IN_ORDER))
        .first()
    )


def entry_of(championship: Championship, entry_id: int) -> Entry | None:
    """An entry of ``championship`` by its id, with its team, or None."""
    return (
        Entry.objects.filter(championship=championship, pk=entry_id)
        .select_related("team", "championship")
        .first()
    )
