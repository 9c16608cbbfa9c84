"""A line-up's players, each with his person: the one chosen, found by licence, or new.

Every way a team comes in (the organiser's form, the CSV import, the entry form, the API)
comes through :func:`players_create`, told who typed the players (``by``; ``None``: the
public). A licence number is a claim, not a proof: it joins its holder at once only in an
organiser's own act on a person he already sees (he manages a championship the person
played in). Anywhere else the player is a new person, who does not get the licence (it
is another record's, whom the one typing may not read), and when the names agree a
``PersonMergeRequest`` records the likely pair for the organisers of both to answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    Membership,
    Person,
    PersonMergeRequest,
    Player,
    manages_every_championship,
    name_key,
)
from tournaments.people import selectors
from tournaments.text import check_lines


@dataclass(frozen=True)
class PersonDetails:
    """A player as a team is entered: his name and, when asked, the rest.

    ``person`` is an existing person the organiser chose (a likely match he confirmed).
    """

    name: str
    club: str = ""
    licence: str = ""
    email: str = ""
    phone: str = ""
    person: Person | None = None

    @classmethod
    def of(cls, value: str | PersonDetails, *, club: str = "") -> PersonDetails:
        """A bare name (as the CSV and older callers give it) as details."""
        if isinstance(value, PersonDetails):
            return value
        return cls(name=value, club=club)


def details_check(details: Sequence[PersonDetails]) -> None:
    """Refuse, with a sentence, a player's name, club, licence, email or phone holding a
    control character (``tournaments.text``)."""
    for d in details:
        check_lines(
            {
                "name": (d.name, _("A player's name")),
                "club": (d.club, _("The club")),
                "licence": (d.licence, _("A licence number")),
                "email": (d.email, _("An email address")),
                "phone": (d.phone, _("A phone number")),
            }
        )


@transaction.atomic
def players_create(
    details: Sequence[PersonDetails],
    *,
    by: Any = None,
    championship: Championship | None = None,
) -> list[Player]:
    """One player for each of ``details``, in order, each with his person: the chosen
    one, else the holder of that exact licence number when ``by`` may see him, else a new
    person (a few bulk queries, for the CSV import of a thousand teams).

    ``by``: who typed them (``None``: the public, whose licence numbers never join
    anyone). ``championship``: where they will play; a person already playing there
    (in any team) is refused with a sentence. A person found keeps what he has; what he
    lacks (licence, email, phone) is taken from the details, so nothing typed is lost,
    except a licence number another person holds, which is never given to a second.

    The people joined are locked (in id order, as a merge locks them): a merge running
    meanwhile either ends first (the chosen record is then gone: a sentence) or after."""
    details_check(details)
    chosen = {d.person.pk for d in details if d.person is not None}
    licences = {d.licence.strip() for d in details if d.licence.strip()}
    locked = {
        p.pk: p
        for p in Person.objects.select_for_update()
        .filter(Q(pk__in=chosen) | Q(licence__in=licences))
        .order_by("pk")
    }
    gone = next((d for d in details if d.person and d.person.pk not in locked), None)
    if gone is not None:
        raise TournamentError(
            _(
                "The record chosen for %(player)s was merged into another meanwhile: enter"
                " the team again and choose again."
            ),
            code="person_gone",
            params={"player": gone.name},
        )
    holders = {p.licence: p for p in locked.values() if p.licence in licences}
    seen = _visible(by, [p.pk for p in holders.values()])
    people: list[Person] = []
    new: list[Person] = []
    batch: dict[str, Person] = {}  # the licence numbers given to new people here
    claims: list[tuple[Person, Person]] = []
    filled: dict[int, Person] = {}
    for d in details:
        licence = d.licence.strip()
        holder = holders.get(licence)
        if d.person is not None:
            person = locked[d.person.pk]
        elif holder is not None and holder.pk in seen:
            person = holder
        elif licence in batch:
            person = batch[licence]  # twice in one file: one person (refused below)
        else:
            person = Person(
                name=d.name.strip(),
                name_key=name_key(d.name),
                club=d.club.strip(),
                licence="" if holder is not None else licence,
                email=d.email.strip(),
                phone=d.phone.strip(),
            )
            new.append(person)
            if holder is not None and holder.pk not in seen and holder.name_key == person.name_key:
                claims.append((person, holder))
            if person.licence:
                batch[licence] = person
        if person.pk:
            free = licence not in holders and licence not in batch
            if _fill_blanks(person, d, licence_free=free):
                filled[person.pk] = person
                if licence and free:
                    batch[licence] = person
        people.append(person)
    _check_playing(people, championship)
    try:
        with transaction.atomic():
            Person.objects.bulk_create(new)
            if filled:
                Person.objects.bulk_update(filled.values(), ["licence", "email", "phone"])
    except IntegrityError:
        # A licence number given to another record by a writer that committed meanwhile.
        raise TournamentError(
            _("Someone changed these people's records meanwhile: send the team again."),
            code="people_changed",
        ) from None
    PersonMergeRequest.objects.bulk_create(
        [
            PersonMergeRequest(
                first=min(pair, key=lambda p: p.pk),
                second=max(pair, key=lambda p: p.pk),
                reason=PersonMergeRequest.Reason.LICENCE,
            )
            for pair in claims
        ],
        ignore_conflicts=True,
    )
    return Player.objects.bulk_create(
        Player(name=d.name.strip(), club=d.club.strip(), person=person)
        for d, person in zip(details, people, strict=True)
    )


def _visible(by: Any, person_ids: list[int]) -> set[int]:
    """The ids among ``person_ids`` that ``by`` may see (none for the public)."""
    if by is None or not person_ids:
        return set()
    if manages_every_championship(by):
        return set(person_ids)
    found = selectors.people_managed(user=by).filter(pk__in=person_ids)
    return set(found.values_list("pk", flat=True))


def _check_playing(people: list[Person], championship: Championship | None) -> None:
    """Refuse a person twice in these line-ups, or already playing in ``championship``."""
    seen: set[int] = set()
    twice = None
    for person in people:
        if id(person) in seen:
            twice = person
            break
        seen.add(id(person))
    if twice is not None:
        raise TournamentError(
            _("%(player)s is entered twice: one person plays in one team of a championship."),
            code="person_twice",
            params={"player": twice.name},
        )
    ids = [p.pk for p in people if p.pk]
    if championship is None or not ids:
        return
    playing = (
        Membership.objects.filter(team__championship=championship, player__person__in=ids)
        .select_related("team", "player")
        .first()
    )
    if playing is not None:
        raise TournamentError(
            _(
                "%(player)s already plays in %(team)s in this championship: one person plays"
                " in one team of a championship."
            ),
            code="person_playing",
            params={"player": playing.player.name, "team": playing.team.name},
        )


def _fill_blanks(person: Person, d: PersonDetails, *, licence_free: bool) -> bool:
    changed = False
    for field in ("email", "phone", "licence"):
        value = getattr(d, field).strip()
        if value and not getattr(person, field) and (field != "licence" or licence_free):
            setattr(person, field, value)
            changed = True
    return changed
