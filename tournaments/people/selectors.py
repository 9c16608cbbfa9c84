"""Reads of people: the likely matches of a typed player, the organiser's people.

Two records are *likely the same person* when their names are the same without case,
accents or extra spaces (``Person.name_key``), their clubs too where both give one, and
they do not hold two different licence numbers. Likely matches are only ever offered:
the organiser decides (``services.person_merge``, or "the same person as..." on the team
form). Who sees and changes whom: a user sees the people of the championships he
manages (``Championship.objects.managed_by``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from tournaments.models import (
    Championship,
    Membership,
    Person,
    manages_every_championship,
    name_key,
)

# The people's page lists this many at most; a search narrows it.
PAGE_SIZE = 100


class Typed(Protocol):
    """A player as typed in (``services.PersonDetails`` is one)."""

    name: str
    club: str
    licence: str


def _alike(club: str, licence: str, other: Person) -> bool:
    """Whether a player of ``club`` and ``licence`` may be ``other`` (names aside)."""
    if club.strip() and other.club and name_key(club) != name_key(other.club):
        return False
    return not (licence.strip() and other.licence and licence.strip() != other.licence)


def with_championships(people: Iterable[Person]) -> list[Person]:
    """``people``, each with ``championships``: the championships he played in, newest
    first (one query)."""
    people = list(people)
    played: dict[int, dict[int, Championship]] = defaultdict(dict)
    rows = (
        Membership.objects.filter(player__person__in=people)
        .select_related("team__championship", "player")
        .order_by("-team__championship__start_date", "team__championship__name")
    )
    for membership in rows:
        championship = membership.team.championship
        played[membership.player.person_id][championship.pk] = championship
    for person in people:
        person.championships = list(played[person.pk].values())
    return people


def person_likely_matches(
    typed: Sequence[Typed], *, user: Any, exclude: Iterable[int] = ()
) -> list[list[Person]]:
    """For each of ``typed``, in order, the people he is likely to be (each with his
    ``championships``), in two queries.

    A player whose licence number is known already has none: that person is his at once
    (``services.players_create``). ``exclude``: people never offered (those already in
    the line-up being edited). Only people ``user`` may already see are offered (those
    of the championships he manages): choosing a person shows his contact data, so an
    organiser cannot reach another organiser's players by typing their names. The same
    human entered by two organisers stays two records until someone who manages both
    championships merges them, or a licence number joins them at once.
    """
    if not typed:
        return []
    keys = [name_key(t.name) for t in typed]
    licences = {t.licence.strip() for t in typed if t.licence.strip()}
    excluded = set(exclude)
    visible = Q(name_key__in=set(keys))
    if not manages_every_championship(user):
        visible &= Q(pk__in=people_managed(user=user).values("pk"))
    candidates = list(
        Person.objects.filter(visible | Q(licence__in=licences)).exclude(pk__in=excluded)
    )
    known_licences = {p.licence for p in candidates if p.licence}
    by_key: dict[str, list[Person]] = defaultdict(list)
    for person in candidates:
        by_key[person.name_key].append(person)
    found = [
        []
        if t.licence.strip() in known_licences
        else [p for p in by_key.get(key, []) if _alike(t.club, t.licence, p)]
        for t, key in zip(typed, keys, strict=True)
    ]
    with_championships({p.pk: p for matches in found for p in matches}.values())
    return found


def people_by_licence(licences: Iterable[str]) -> dict[str, Person]:
    """The people holding these licence numbers, by licence."""
    wanted = {licence.strip() for licence in licences if licence.strip()}
    return {p.licence: p for p in Person.objects.filter(licence__in=wanted)} if wanted else {}


def people_managed(*, user: Any) -> QuerySet[Person]:
    """The people who played in a championship ``user`` manages (unordered, distinct)."""
    managed = Championship.objects.managed_by(user)
    return Person.objects.filter(players__teams__championship__in=managed).distinct()


def people_for_organiser(
    *, user: Any, search: str = "", championship: Championship | None = None
) -> tuple[list[Person], bool]:
    """The people of ``user``'s championships (or of one of them) by name, each with his
    ``championships``; ``search`` (a name without regard to case or accents, a club, a
    licence number) narrows them. Returns the first :data:`PAGE_SIZE` and whether there
    are more."""
    people = people_managed(user=user)
    if championship is not None:
        people = people.filter(players__teams__championship=championship)
    search = search.strip()
    if search:
        people = people.filter(
            Q(name_key__contains=name_key(search))
            | Q(club__icontains=search)
            | Q(licence__iexact=search)
        )
    found = list(people.order_by("name", "pk")[: PAGE_SIZE + 1])
    return with_championships(found[:PAGE_SIZE]), len(found) > PAGE_SIZE


def person_for_organiser(*, user: Any, person_id: int) -> Person:
    """The person ``person_id`` if he played in a championship ``user`` manages, with his
    ``championships``; else ``Http404``."""
    person = people_managed(user=user).filter(pk=person_id).first()
    if person is None:
        raise Http404("No such person.")
    (person,) = with_championships([person])
    return person


def likely_duplicates(
    *, user: Any, championship: Championship | None = None
) -> list[tuple[Person, Person]]:
    """Pairs of records among ``user``'s people that are likely one person (the older
    record first), each with his ``championships``: for the organiser to merge or not.
    With ``championship``: only the pairs where one of them played in it."""
    mine = people_managed(user=user).values("pk")
    shared = (
        Person.objects.filter(pk__in=mine)
        .order_by()
        .values("name_key")
        .annotate(count=Count("pk"))
        .filter(count__gt=1)
        .values("name_key")
    )
    # Two queries: the people of his championships sharing a key with another of them,
    # and their championships.
    people = list(
        Person.objects.filter(pk__in=mine, name_key__in=shared).order_by("name_key", "pk")
    )
    groups: dict[str, list[Person]] = defaultdict(list)
    for person in people:
        groups[person.name_key].append(person)
    pairs = [
        (a, b)
        for group in groups.values()
        for i, a in enumerate(group)
        for b in group[i + 1 :]
        if _alike(a.club, a.licence, b)
    ]
    with_championships({p.pk: p for pair in pairs for p in pair}.values())
    if championship is not None:
        pairs = [
            pair
            for pair in pairs
            if any(c.pk == championship.pk for p in pair for c in p.championships)
        ]
    return pairs


def likely_person(typed: Typed, person_id: int, *, user: Any) -> Person | None:
    """The person ``person_id`` if he is one of ``typed``'s likely matches for ``user``,
    else ``None``: a player is joined only to a person he may be, never to anyone by his
    number."""
    (matches,) = person_likely_matches([typed], user=user)
    return next((person for person in matches if person.pk == person_id), None)
