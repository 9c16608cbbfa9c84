"""Writes to people: found or created for a line-up, edited, merged.

Who may edit or merge a person is the championships' rule (``Championship.objects.
managed_by``): a user who manages a championship the person played in. Every edit and
merge is written to the audit log of each championship concerned (``TeamAct``
``person_edited`` / ``person_merged``, on one of the person's teams there).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Championship, Membership, Person, Player, TeamAct, name_key
from tournaments.signals import announce

# What the organiser may change of a person (people's page, team edit).
EDITABLE = ("name", "club", "licence", "email", "phone", "initial_only")
# The fields a merge fills in on the person kept when his are blank.
FILLED_ON_MERGE = ("club", "licence", "email", "phone")


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
    else the person of that exact licence number, else a new person (four bulk queries
    at most, for the CSV import of a thousand teams).

    A person found (chosen or by licence) keeps what he has; what he lacks (licence,
    email, phone) is taken from the details, so nothing typed is lost. A licence another
    person holds is never given to him."""
    licences = {d.licence.strip() for d in details if d.licence.strip()}
    known = {p.licence: p for p in Person.objects.filter(licence__in=licences)}
    people: list[Person] = []
    new: list[Person] = []
    filled: dict[int, Person] = {}
    for d in details:
        licence = d.licence.strip()
        person = d.person or known.get(licence)
        if person is None:
            person = Person(
                name=d.name.strip(),
                name_key=name_key(d.name),
                club=d.club.strip(),
                licence=licence,
                email=d.email.strip(),
                phone=d.phone.strip(),
            )
            new.append(person)
            if person.licence:
                known[person.licence] = person  # twice in one file: one person
        else:
            person = filled.get(person.pk, person) if person.pk else person
            if _fill_blanks(person, d, licence_free=licence not in known) and person.pk:
                filled[person.pk] = person
                if licence and not known.get(licence):
                    known[licence] = person
        people.append(person)
    Person.objects.bulk_create(new)
    if filled:
        Person.objects.bulk_update(filled.values(), ["licence", "email", "phone"])
    return Player.objects.bulk_create(
        Player(name=d.name.strip(), club=d.club.strip(), person=person)
        for d, person in zip(details, people, strict=True)
    )


def _fill_blanks(person: Person, d: PersonDetails, *, licence_free: bool) -> bool:
    changed = False
    for field in ("email", "phone", "licence"):
        value = getattr(d, field).strip()
        if value and not getattr(person, field) and (field != "licence" or licence_free):
            setattr(person, field, value)
            changed = True
    return changed


# -- editing and merging, by an organiser ---------------------------------------------------


def _refused() -> TournamentError:
    return TournamentError(
        _("You do not manage a championship this person played in."), code="person_not_managed"
    )


def _may_change(by: AbstractBaseUser, person: Person) -> bool:
    return Championship.objects.managed_by(by).filter(teams__players__person=person).exists()


def _log(*, people: Iterable[Person], action: str, by: AbstractBaseUser, detail: str) -> list[int]:
    """One act per championship the ``people`` played in, on one of their teams there.

    Returns those championships' ids."""
    teams = {}
    memberships = (
        Membership.objects.filter(player__person__in=list(people))
        .select_related("team")
        .order_by("team__championship_id", "team_id")
    )
    for membership in memberships:
        teams.setdefault(membership.team.championship_id, membership.team)
    TeamAct.objects.bulk_create(
        TeamAct(
            championship_id=championship_id,
            team=team,
            team_name=team.name,
            action=action,
            via=TeamAct.Via.ORGANISER,
            by=by if by.is_authenticated else None,
            detail=detail,
        )
        for championship_id, team in teams.items()
    )
    return list(teams)


def _record(person: Person) -> str:
    # How the audit names a person: his name and his record's number, never his contact.
    return f"{person.name} (#{person.pk})"


def _check_licence(licence: str, *, person: Person) -> None:
    if licence and Person.objects.filter(licence=licence).exclude(pk=person.pk).exists():
        raise TournamentError(
            _("Another person has licence number %(licence)s: merge the two records instead."),
            code="licence_taken",
            params={"licence": licence, "option": "licence"},
        )


@transaction.atomic
def person_update(
    *,
    person: Person,
    by: AbstractBaseUser,
    name: str | None = None,
    club: str | None = None,
    licence: str | None = None,
    email: str | None = None,
    phone: str | None = None,
    initial_only: bool | None = None,
) -> Person:
    """Change what is known of ``person`` (arguments left ``None`` stay), for a user who
    manages a championship he played in. A licence number another person holds is
    refused (two records of one human are merged, :func:`person_merge`). The line-ups'
    names (``Player.name``, as entered for each team) are not rewritten.
    """
    person = Person.objects.select_for_update().filter(pk=person.pk).first()
    if person is None:
        raise TournamentError(_("This person no longer exists."), code="person_gone")
    if not _may_change(by, person):
        raise _refused()
    given: dict[str, Any] = {
        "name": name,
        "club": club,
        "licence": licence,
        "email": email,
        "phone": phone,
        "initial_only": initial_only,
    }
    changes = {
        field: value.strip() if isinstance(value, str) else value
        for field, value in given.items()
        if value is not None
    }
    if "name" in changes and not changes["name"]:
        raise TournamentError(
            _("A player needs a name."), code="player_name_missing", params={"option": "name"}
        )
    if changes.get("email"):
        try:
            validate_email(changes["email"])
        except ValidationError:
            raise TournamentError(
                _("%(email)s is not an email address."),
                code="bad_email",
                params={"email": changes["email"], "option": "email"},
            ) from None
    _check_licence(changes.get("licence", ""), person=person)
    changed = [field for field, value in changes.items() if getattr(person, field) != value]
    if not changed:
        return person
    for field in changed:
        setattr(person, field, changes[field])
    person.save(update_fields=changed)
    labels = ", ".join(str(Person._meta.get_field(field).verbose_name) for field in changed)
    for championship_id in _log(
        people=[person],
        action=TeamAct.Action.PERSON_EDITED,
        by=by,
        detail=f"{_record(person)}: {labels}",
    ):
        announce(championship_id=championship_id, what="team")
    return person


@transaction.atomic
def person_merge(*, keep: Person, drop: Person, by: AbstractBaseUser) -> Person:
    """Make ``drop`` and ``keep`` one person: ``keep``, with every player of both (their
    hand records untouched: a player keeps his ``p<id>``), what ``keep`` lacks taken from
    ``drop``; ``drop`` is deleted.

    For a user who manages a championship each of them played in. Refused: two
    different licence numbers, or the two in the same team. The two rows are locked in
    id order, so two organisers merging the same pair at once make one merge and the
    other is told it is done.
    """
    if keep.pk == drop.pk:
        raise TournamentError(_("Choose two different people."), code="merge_same")
    locked = {
        p.pk: p
        for p in Person.objects.select_for_update().filter(pk__in=[keep.pk, drop.pk]).order_by("pk")
    }
    if len(locked) < 2:
        raise TournamentError(
            _("These two records are one person already: someone merged them meanwhile."),
            code="merge_gone",
        )
    keep, drop = locked[keep.pk], locked[drop.pk]
    if not (_may_change(by, keep) and _may_change(by, drop)):
        raise _refused()
    if keep.licence and drop.licence and keep.licence != drop.licence:
        raise TournamentError(
            _(
                "%(keep)s and %(drop)s have different licence numbers: they are two people"
                " (correct a licence first if one is wrong)."
            ),
            code="merge_licences",
            params={"keep": keep.name, "drop": drop.name},
        )
    shared = (
        Membership.objects.filter(player__person=keep)
        .filter(team__memberships__player__person=drop)
        .select_related("team")
        .first()
    )
    if shared is not None:
        raise TournamentError(
            _("%(keep)s and %(drop)s play together in %(team)s: they are two people."),
            code="merge_same_team",
            params={"keep": keep.name, "drop": drop.name, "team": shared.team.name},
        )
    detail = f"{_record(drop)} → {_record(keep)}"
    # Logged before the players move: the acts name the championships of both.
    championships = _log(
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
    drop.delete()  # first: its licence must be free before keep takes it
    if fields:
        keep.save(update_fields=fields)
    for championship_id in championships:
        announce(championship_id=championship_id, what="team")
    return keep
