"""Reads of people: the likely matches of a typed player, the organiser's people.

Two records are *likely the same person* when their names are the same without case,
accents or extra spaces (``Person.name_key``), their clubs too where both give one, and
they do not hold two different licence numbers. Likely matches are only ever offered:
the organiser decides (``services.person_merge``, or "the same person as..." on the team
form). Who sees and changes whom: a user sees the people of the championships he
manages (``Championship.objects.managed_by``). A record he cannot see reaches him only as
a merge request (``PersonMergeRequest``), shown by what the public sees of it
(:func:`merge_requests_for`). What keeps two records from being merged
(:func:`merge_problem`) is read here, for the confirmation page, and checked again by the
merge under its lock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    Membership,
    Person,
    PersonMerged,
    PersonMergeRequest,
    Substitution,
    Team,
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


def with_championships(people: Iterable[Person], *, user: Any = None) -> list[Person]:
    """``people``, each with ``championships``: the championships he played in, newest
    first (one query). With ``user``: those the public sees or ``user`` manages (another
    organiser's championship in preparation is his business)."""
    people = list(people)
    played: dict[int, dict[int, Championship]] = defaultdict(dict)
    rows = (
        Membership.objects.filter(player__person__in=people)
        .select_related("team__championship", "player")
        .order_by("-team__championship__start_date", "team__championship__name")
    )
    if user is not None:
        rows = rows.filter(
            ~Q(team__championship__status=Championship.Status.DRAFT)
            | Q(team__championship__in=Championship.objects.managed_by(user))
        )
    for membership in rows:
        championship = membership.team.championship
        played[membership.player.person_id][championship.pk] = championship
    for person in people:
        person.championships = list(played[person.pk].values())
    return people


def person_likely_matches(
    typed: Sequence[Typed],
    *,
    user: Any,
    exclude: Iterable[int] = (),
    championship: Championship | None = None,
    championships: bool = True,
) -> list[list[Person]]:
    """For each of ``typed`` (a new line-up's players), in order, the people he is likely
    to be (each with his ``championships``), in two queries: the one function that finds
    them, for the team form, the API and the imports.

    Only people ``user`` may already see are offered (those of the championships he
    manages; ``None``: nobody): choosing a person shows his contact data, so an
    organiser cannot reach another organiser's players by typing their names or their
    licence numbers. A player whose licence number is held by one of them has none: that
    person is his at once (``services.players_create``, for that organiser's own acts);
    a licence held by a record he cannot see offers nothing here (it becomes a merge
    request that its organisers answer). ``exclude``: people never offered (those
    already in the line-up being edited); ``championship``: those already playing in it
    are not offered either (one person plays in one team of a championship);
    ``championships=False``: without them (one query, however many are found: an
    archive's ten thousand people).
    """
    if not typed:
        return []
    if user is None or not user.is_authenticated:
        return [[] for _t in typed]
    keys = [name_key(t.name) for t in typed]
    licences = {t.licence.strip() for t in typed if t.licence.strip()}
    excluded = set(exclude)
    visible = Q(name_key__in=set(keys)) | Q(licence__in=licences)
    if not manages_every_championship(user):
        visible &= Q(pk__in=people_managed(user=user).values("pk"))
    if championship is not None:
        visible &= ~Q(players__teams__championship=championship)
    candidates = list(Person.objects.filter(visible).exclude(pk__in=excluded).distinct())
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
    if championships:
        with_championships({p.pk: p for matches in found for p in matches}.values(), user=user)
    return found


def people_by_licence(licences: Iterable[str], *, user: Any) -> dict[str, Person]:
    """The people holding these licence numbers whom ``user`` may see, by licence: the
    players his own entry will join to them at once."""
    wanted = {licence.strip() for licence in licences if licence.strip()}
    if not wanted:
        return {}
    return {p.licence: p for p in people_managed(user=user).filter(licence__in=wanted)}


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


# -- merges: what keeps two records apart, who must agree, where a merged id went -----------


def person_teams(person_ids: Iterable[int]) -> dict[int, list[Team]]:
    """The teams each person played in (a player of them now, or substituted out), each
    with its ``championship``: two queries."""
    ids = list(person_ids)
    teams: dict[int, dict[int, Team]] = {pk: {} for pk in ids}
    rows = [
        (m.player.person_id, m.team)
        for m in Membership.objects.filter(player__person__in=ids).select_related(
            "player", "team__championship"
        )
    ] + [
        (s.player_out.person_id, s.team)
        for s in Substitution.objects.filter(player_out__person__in=ids).select_related(
            "player_out", "team__championship"
        )
    ]
    for person_id, team in rows:
        teams[person_id].setdefault(team.pk, team)
    return {pk: list(found.values()) for pk, found in teams.items()}


def merge_problem(first: Person, second: Person) -> TournamentError | None:
    """Why ``first`` and ``second`` cannot be one person, as a sentence, else None: two
    different licence numbers, or both playing in one championship (one team or two: a
    person plays in one team of a championship, and a merge would put him in both)."""
    if first.licence and second.licence and first.licence != second.licence:
        return TournamentError(
            _(
                "%(keep)s and %(drop)s have different licence numbers: they are two people"
                " (correct a licence first if one is wrong)."
            ),
            code="merge_licences",
            params={"keep": first.name, "drop": second.name},
        )
    teams = person_teams([first.pk, second.pk])
    theirs = {team.championship_id: team for team in teams[second.pk]}
    for team in teams[first.pk]:
        other = theirs.get(team.championship_id)
        if other is None:
            continue
        if other.pk == team.pk:
            return TournamentError(
                _("%(keep)s and %(drop)s play together in %(team)s: they are two people."),
                code="merge_same_team",
                params={"keep": first.name, "drop": second.name, "team": team.name},
            )
        return TournamentError(
            _(
                "%(keep)s plays in %(team)s and %(drop)s in %(other)s, both in"
                " %(championship)s: one person cannot play in two teams of a championship."
                " If they are one, take one of them out of his team first."
            ),
            code="merge_same_championship",
            params={
                "keep": first.name,
                "drop": second.name,
                "team": team.name,
                "other": other.name,
                "championship": team.championship.name,
            },
        )
    return None


def championships_of(people: Iterable[Person]) -> set[int]:
    """The ids of the championships any of ``people`` played in (now or substituted
    out)."""
    teams = person_teams([p.pk for p in people])
    return {team.championship_id for found in teams.values() for team in found}


def championships_not_managed(championship_ids: Iterable[int], *, users: Iterable[Any]) -> set[int]:
    """Those of ``championship_ids`` that none of ``users`` manages."""
    missing = set(championship_ids)
    for user in users:
        if not missing:
            break
        missing -= set(
            Championship.objects.managed_by(user)
            .filter(pk__in=missing)
            .values_list("pk", flat=True)
        )
    return missing


def merge_requests_for(*, user: Any) -> list[PersonMergeRequest]:
    """The open merge requests about people of ``user``'s championships, oldest first,
    each with ``mine`` (the record he sees, with his ``championships``), ``other`` (the
    other, with the championships the public sees: nothing private of a record he
    cannot open) and ``answered`` (whether he said yes already)."""
    mine = people_managed(user=user).values("pk")
    requests = list(
        PersonMergeRequest.objects.filter(Q(first__in=mine) | Q(second__in=mine))
        .select_related("first", "second")
        .prefetch_related("agreed")
    )
    if not requests:
        return []
    seen = set(
        people_managed(user=user)
        .filter(pk__in={r.first_id for r in requests} | {r.second_id for r in requests})
        .values_list("pk", flat=True)
    )
    for request in requests:
        first_mine = request.first_id in seen
        request.mine, request.other = (
            (request.first, request.second) if first_mine else (request.second, request.first)
        )
        request.other_visible = request.other.pk in seen
        request.answered = any(u.pk == user.pk for u in request.agreed.all())
    with_championships({p.pk: p for r in requests for p in (r.mine, r.other)}.values(), user=user)
    return requests


def merged_into(person_id: int) -> int | None:
    """The id of the person a merged-away ``person_id`` is now, else None."""
    return PersonMerged.objects.filter(old_id=person_id).values_list("person_id", flat=True).first()
