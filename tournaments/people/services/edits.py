"""A person's details edited by an organiser, and what the edits and merges share.

Who may edit a person is the championships' rule (``Championship.objects.managed_by``):
a user who manages a championship the person played in. Every edit and merge is written
to the audit log of each championship concerned (``TeamAct`` ``person_edited`` /
``person_merged``, on one of the person's teams there).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Championship, Membership, Person, TeamAct
from tournaments.people import selectors
from tournaments.signals import announce
from tournaments.text import check_lines

# What the organiser may change of a person (people's page, team edit).
EDITABLE = ("name", "club", "licence", "email", "phone", "initial_only")
# The fields a merge fills in on the person kept when his are blank.
FILLED_ON_MERGE = ("club", "licence", "email", "phone")


def refused() -> TournamentError:
    return TournamentError(
        _("You do not manage a championship this person played in."), code="person_not_managed"
    )


def may_change(by: AbstractBaseUser, person: Person) -> bool:
    return Championship.objects.managed_by(by).filter(teams__players__person=person).exists()


def log(*, people: Iterable[Person], action: str, by: AbstractBaseUser, detail: str) -> list[int]:
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


def record(person: Person) -> str:
    # How the audit names a person: his name and his record's number, never his contact.
    return f"{person.name} (#{person.pk})"


def _check_licence(licence: str, *, person: Person, by: AbstractBaseUser) -> None:
    holders = Person.objects.filter(licence=licence).exclude(pk=person.pk)
    if not licence or not holders.exists():
        return
    if selectors.people_managed(user=by).filter(pk__in=holders.values("pk")).exists():
        raise TournamentError(
            _("Another person has licence number %(licence)s: merge the two records instead."),
            code="licence_taken",
            params={"licence": licence, "option": "licence"},
        )
    # Held by a record of championships he does not manage: nothing of it is told.
    raise TournamentError(
        _(
            "Licence number %(licence)s is another person's, on record in championships"
            " you do not manage: check it with the player."
        ),
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
    refused (two records of one human are merged, ``merges.person_merge``), and so is a
    line break or another control character in any of them. The line-ups' names
    (``Player.name``, as entered for each team) are not rewritten.
    """
    person = Person.objects.select_for_update().filter(pk=person.pk).first()
    if person is None:
        raise TournamentError(_("This person no longer exists."), code="person_gone")
    if not may_change(by, person):
        raise refused()
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
    check_lines(
        {
            field: (changes[field], capfirst(Person._meta.get_field(field).verbose_name))
            for field in ("name", "club", "licence", "email", "phone")
            if field in changes
        }
    )
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
    _check_licence(changes.get("licence", ""), person=person, by=by)
    changed = [field for field, value in changes.items() if getattr(person, field) != value]
    if not changed:
        return person
    for field in changed:
        setattr(person, field, changes[field])
    person.save(update_fields=changed)
    labels = ", ".join(str(Person._meta.get_field(field).verbose_name) for field in changed)
    for championship_id in log(
        people=[person],
        action=TeamAct.Action.PERSON_EDITED,
        by=by,
        detail=f"{record(person)}: {labels}",
    ):
        announce(championship_id=championship_id, what="team")
    return person
