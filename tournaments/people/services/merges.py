"""Two records of one human made one, with the agreement of every championship of both.

A merge moves every player of one record to the other and deletes the first, so it
touches every championship either played in: it needs, for each of them, someone who
manages it. An organiser who manages them all merges at once (:func:`person_merge`) and
chooses which record is kept. Otherwise each organiser says "one person"
(:func:`person_merge_agree`, recorded on a ``PersonMergeRequest``); the merge is made
when the organisers who agreed manage every championship of the two between them, and
keeps the record with more history (more championships, then more line-ups, then the
older record). Anyone of them may answer "two people" (:func:`person_merge_decline`).
Nobody reads, through a merge, a record he could not open before unless its organisers
agreed.

Two records are never merged when they hold different licence numbers or play in one
championship (``selectors.merge_problem``: the same team, or two teams of it). The rows
are locked in id order, as ``players.players_create`` locks the people it joins, so two
merges, or a merge and an entry, of the same people at once end one after the other,
the second told in a sentence. A merged-away id is kept (``PersonMerged``): its pages
redirect to the person kept.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournaments.errors import TournamentError
from tournaments.models import Person, PersonMerged, PersonMergeRequest, Player, TeamAct
from tournaments.people import selectors
from tournaments.people.services.edits import (
    FILLED_ON_MERGE,
    log,
    may_change,
    record,
    refused,
)
from tournaments.signals import announce


def _lock(first: Person, second: Person) -> tuple[Person, Person]:
    """Both rows, locked in id order; a sentence when one is gone (merged meanwhile)."""
    if first.pk == second.pk:
        raise TournamentError(_("Choose two different people."), code="merge_same")
    locked = {
        p.pk: p
        for p in Person.objects.select_for_update()
        .filter(pk__in=[first.pk, second.pk])
        .order_by("pk")
    }
    missing = {first.pk, second.pk} - set(locked)
    if missing - set(PersonMerged.objects.filter(old_id__in=missing).values_list("pk", flat=True)):
        raise TournamentError(_("This person no longer exists."), code="person_gone")
    if missing:
        raise TournamentError(
            _("These two records are one person already: someone merged them meanwhile."),
            code="merge_gone",
        )
    return locked[first.pk], locked[second.pk]


def _not_theirs(count: int) -> TournamentError:
    return TournamentError(
        ngettext_lazy(
            "%(count)s championship of these two records is another organiser's: you cannot"
            " merge them alone. Ask its organisers to confirm that they are one person.",
            "%(count)s championships of these two records are other organisers': you cannot"
            " merge them alone. Ask their organisers to confirm that they are one person.",
            count,
        ),
        code="merge_not_managed",
        params={"count": count},
    )


@transaction.atomic
def person_merge(*, keep: Person, drop: Person, by: AbstractBaseUser) -> Person:
    """Make ``drop`` and ``keep`` one person: ``keep``, with every player of both (their
    hand records untouched: a player keeps his ``p<id>``), what ``keep`` lacks taken from
    ``drop``; ``drop`` is deleted and its id redirects to ``keep``.

    For a user who manages every championship either of them played in (else a
    sentence: :func:`person_merge_agree` asks the others). Refused too: two different
    licence numbers, the two in one championship. Two organisers merging the same pair
    at once make one merge and the other is told it is done.
    """
    keep, drop = _lock(keep, drop)
    if not (may_change(by, keep) and may_change(by, drop)):
        raise refused()
    missing = selectors.championships_not_managed(
        selectors.championships_of([keep, drop]), users=[by]
    )
    if missing:
        raise _not_theirs(len(missing))
    return _merge(keep=keep, drop=drop, by=by)


@transaction.atomic
def person_merge_agree(*, person: Person, other: Person, by: AbstractBaseUser) -> Person | None:
    """``by`` says ``person`` and ``other`` are one human (he manages a championship of
    one of them; the other may be a record he cannot open, offered by a merge request).

    Without a request yet, only records of one name (``Person.name_key``) can be put to
    their organisers. His yes is recorded; when the users who said yes manage every
    championship of the two between them, the merge is made, keeping the record with
    more history: returns it. Else None: the request waits for the others."""
    person, other = _lock(person, other)
    if not (may_change(by, person) or may_change(by, other)):
        raise refused()
    first, second = sorted((person, other), key=lambda p: p.pk)
    request = PersonMergeRequest.objects.select_for_update().filter(first=first, second=second)
    request = request.first()
    if request is None:
        if person.name_key != other.name_key:
            raise TournamentError(
                _("Only two records of the same name can be put to their organisers."),
                code="merge_not_likely",
            )
        request = PersonMergeRequest.objects.create(
            first=first, second=second, reason=PersonMergeRequest.Reason.NAME
        )
    if (problem := selectors.merge_problem(person, other)) is not None:
        raise problem
    request.agreed.add(by)
    users = list(request.agreed.all())
    if selectors.championships_not_managed(
        selectors.championships_of([person, other]), users=users
    ):
        return None
    teams = selectors.person_teams([person.pk, other.pk])

    def history(p: Person) -> tuple[int, int, int]:
        return (len({t.championship_id for t in teams[p.pk]}), len(teams[p.pk]), -p.pk)

    keep, drop = sorted((person, other), key=history, reverse=True)
    return _merge(keep=keep, drop=drop, by=by)


@transaction.atomic
def person_merge_decline(*, request_id: int, by: AbstractBaseUser) -> None:
    """``by`` says the two records of merge request ``request_id`` are two people: the
    request is withdrawn (answered already: nothing happens)."""
    request = (
        PersonMergeRequest.objects.select_for_update()
        .select_related("first", "second")
        .filter(pk=request_id)
        .first()
    )
    if request is None:
        return
    if not (may_change(by, request.first) or may_change(by, request.second)):
        raise refused()
    request.delete()


def _merge(*, keep: Person, drop: Person, by: AbstractBaseUser) -> Person:
    """The merge itself, both rows locked: checked, logged, players moved, blanks filled,
    the old id kept, ``drop`` deleted."""
    if (problem := selectors.merge_problem(keep, drop)) is not None:
        raise problem
    detail = f"{record(drop)} → {record(keep)}"
    # Logged before the players move: the acts name the championships of both.
    championships = log(
        people=[keep, drop], action=TeamAct.Action.PERSON_MERGED, by=by, detail=detail
    )
    Player.objects.filter(person=drop).update(person=keep)
    fields = [f for f in FILLED_ON_MERGE if not getattr(keep, f) and getattr(drop, f)]
    for field in fields:
        setattr(keep, field, getattr(drop, field))
    if drop.initial_only and not keep.initial_only:
        # Whoever asked to be shown by his initial keeps asking: the stricter wish wins.
        keep.initial_only = True
        fields.append("initial_only")
    # Where the old id went, and where the ids merged into it earlier go now.
    PersonMerged.objects.filter(person=drop).update(person=keep)
    PersonMerged.objects.create(old_id=drop.pk, person=keep)
    drop.delete()  # first: its licence must be free before keep takes it
    if fields:
        keep.save(update_fields=fields)
    for championship_id in championships:
        announce(championship_id=championship_id, what="team")
    return keep
