"""An archive's people on import: made new, never joined to anyone on record, and those
likely already on record offered to the new championship's organisers.

A person of an archive is matched as a player typed into a team is
(``people.selectors.person_likely_matches``: the same name without case, accents or
extra spaces, the same club where both give one), among the people each organiser may
already see (he manages a championship they played in). A likely match is only offered:
the organiser finds the pair on his people's page ("Likely the same person") and merges
them or not, as after a CSV import; nothing of a record he cannot see is looked at or
shown. An archive holds no licence number, email or phone, so nothing else could join
two records, and nothing private is copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from tournaments.models import Person, Player, name_key
from tournaments.people import selectors as people_selectors
from tournaments.people.services import PersonDetails

NAME_KEY_LENGTH = Person._meta.get_field("name_key").max_length


def likely_known(
    people: Sequence[Mapping[str, Any]], *, organisers: Sequence[AbstractBaseUser]
) -> dict[Any, list[Person]]:
    """By the archive's id of each of ``people`` likely someone already on record, the
    people he may be: for each of ``organisers``, those he may already see (none for
    nobody). Read before the archive's people are created, so none is offered himself."""
    typed = [PersonDetails(name=p["name"], club=p.get("club", "")) for p in people]
    found: dict[Any, dict[int, Person]] = {}
    for user in organisers:
        matches = people_selectors.person_likely_matches(typed, user=user, championships=False)
        for row, theirs in zip(people, matches, strict=True):
            if theirs:
                found.setdefault(row["id"], {}).update((p.pk, p) for p in theirs)
    return {key: list(matches.values()) for key, matches in found.items()}


def people_create(
    archive: Mapping[str, Any],
) -> tuple[dict[Any, Person], dict[str, Player]]:
    """The archive's people, each a new person, and its players under new ids: by the
    archive's person id and player key (two bulk inserts)."""
    people = {
        p["id"]: Person(
            name=p["name"],
            # Cut as the column is: a name's plain form may be longer than the name
            # (NFKD spells some characters out in several).
            name_key=name_key(p["name"])[:NAME_KEY_LENGTH],
            club=p.get("club", ""),
            initial_only=p.get("initial_only", False),
        )
        for p in archive["people"]
    }
    Person.objects.bulk_create(people.values())
    rows = archive["players"]
    players = Player.objects.bulk_create(
        Player(name=p["name"], club=p.get("club", ""), person=people[p["person"]]) for p in rows
    )
    return people, {row["key"]: player for row, player in zip(rows, players, strict=True)}
