"""Writes to people: found or created for a line-up, edited, merged."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from tournaments.models import Person, Player


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


@transaction.atomic
def players_create(details: Sequence[PersonDetails]) -> list[Player]:
    """One player for each of ``details``, in order, each with his person: the chosen one,
    else the person of that exact licence number, else a new person (three bulk queries
    at most, for the CSV import of a thousand teams)."""
    licences = {d.licence.strip() for d in details if d.person is None and d.licence.strip()}
    known = {p.licence: p for p in Person.objects.filter(licence__in=licences)}
    people: list[Person] = []
    new: list[Person] = []
    for d in details:
        person = d.person or known.get(d.licence.strip())
        if person is None:
            person = Person(
                name=d.name.strip(),
                club=d.club.strip(),
                licence=d.licence.strip(),
                email=d.email.strip(),
                phone=d.phone.strip(),
            )
            new.append(person)
            if person.licence:
                known[person.licence] = person  # twice in one file: one person
        people.append(person)
    Person.objects.bulk_create(new)
    return Player.objects.bulk_create(
        Player(name=d.name.strip(), club=d.club.strip(), person=person)
        for d, person in zip(details, people, strict=True)
    )
