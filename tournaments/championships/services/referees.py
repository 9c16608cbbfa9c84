"""Writes to a championship's referees: added, removed, invited by a one-time link."""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    ChampionshipReferee,
    Match,
    RefereeInvitation,
)
from tournaments.text import check_lines

# -- referees -------------------------------------------------------------------------------

# How long an invitation link works: the day of the championship is usually within a week.
INVITATION_DAYS = 7


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def referee_add(
    *, championship: Championship, user: AbstractBaseUser, added_by: AbstractBaseUser | None
) -> ChampionshipReferee:
    """Put an existing, active user on ``championship``'s list of referees (idempotent)."""
    if not user.is_active:
        raise TournamentError(
            _("The account %(user)s is disabled."),
            code="user_inactive",
            params={"user": user.get_username()},
        )
    entry, _created = ChampionshipReferee.objects.get_or_create(
        championship=championship, user=user, defaults={"added_by": added_by}
    )
    return entry


@transaction.atomic
def referee_remove(*, championship: Championship, user: AbstractBaseUser) -> int:
    """Take ``user`` off the list of referees; his undecided matches of the championship
    lose their referee (decided ones keep it: the record says who refereed). Returns how
    many matches were unassigned."""
    ChampionshipReferee.objects.filter(championship=championship, user=user).delete()
    return (
        Match.objects.filter(stage__championship=championship, referee=user)
        .exclude(status__in=Match.DECIDED)
        .update(referee=None)
    )


@transaction.atomic
def referee_invite(
    *,
    championship: Championship,
    invited_by: AbstractBaseUser | None,
    name: str = "",
    email: str = "",
    days: int = INVITATION_DAYS,
) -> tuple[RefereeInvitation, str]:
    """A one-time invitation to referee ``championship``: returns it and its token (only
    its hash is stored, so the token is shown or mailed now or never)."""
    check_lines({"name": (name, _("The name")), "email": (email, _("The email address"))})
    token = secrets.token_urlsafe(32)
    invitation = RefereeInvitation.objects.create(
        championship=championship,
        token_hash=_token_hash(token),
        name=name.strip()[:150],
        email=email.strip(),
        invited_by=invited_by,
        expires_at=timezone.now() + datetime.timedelta(days=days),
    )
    return invitation, token


def referee_invitation_problem(invitation: RefereeInvitation | None) -> TournamentError | None:
    """Why an invitation link cannot be used (unknown, used, revoked, expired), or None."""
    if invitation is None:
        return TournamentError(
            _("This invitation link is not valid. Ask the organiser for a new one."),
            code="invitation_unknown",
        )
    if invitation.used_at is not None:
        return TournamentError(
            _("This invitation has already been used. Log in with the account it made."),
            code="invitation_used",
        )
    if invitation.revoked_at is not None:
        return TournamentError(
            _("This invitation was withdrawn by the organiser."), code="invitation_revoked"
        )
    if invitation.expires_at <= timezone.now():
        return TournamentError(
            _("This invitation has expired. Ask the organiser for a new one."),
            code="invitation_expired",
        )
    return None


def referee_invitation_find(token: str) -> RefereeInvitation | None:
    """The invitation of ``token`` (whatever its state), or None."""
    return (
        RefereeInvitation.objects.select_related("championship", "invited_by")
        .filter(token_hash=_token_hash(token))
        .first()
    )


@transaction.atomic
def referee_invitation_accept(
    *, token: str, username: str, first_name: str, last_name: str, password: str
) -> AbstractBaseUser:
    """Make the invitee's account from the invitation ``token`` and put him on the list of
    referees. The invitation is locked and used once: a second submit is refused."""
    found = referee_invitation_find(token)
    invitation = (
        RefereeInvitation.objects.select_for_update().filter(pk=found.pk).first()
        if found is not None
        else None
    )
    if problem := referee_invitation_problem(invitation):
        raise problem
    User = get_user_model()
    username = username.strip()
    if not username:
        raise TournamentError(_("Choose a user name."), code="username_missing")
    if User.objects.filter(username__iexact=username).exists():
        raise TournamentError(
            _("The user name %(username)s is taken: choose another."),
            code="username_taken",
            params={"username": username},
        )
    user = User(
        username=username,
        first_name=first_name.strip()[:150],
        last_name=last_name.strip()[:150],
        email=invitation.email,
    )
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        raise TournamentError(error.messages, code="password_weak") from None
    user.set_password(password)
    user.save()
    ChampionshipReferee.objects.create(
        championship=invitation.championship, user=user, added_by=invitation.invited_by
    )
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])
    return user


@transaction.atomic
def referee_invitation_renew(
    *, invitation: RefereeInvitation, invited_by: AbstractBaseUser | None
) -> tuple[RefereeInvitation, str]:
    """A new link for an invitation still usable, which replaces it: the old link stops
    working (withdrawn) and the new one, for the same name and address, works for
    ``INVITATION_DAYS`` from now. Returns the new invitation and its token.

    Only the token's hash is kept (:func:`referee_invite`), so a link lost by the organiser
    cannot be shown again: this is how he gets one. An invitation used, withdrawn or
    expired is refused (:func:`referee_invitation_problem`).
    """
    locked = RefereeInvitation.objects.select_for_update().filter(pk=invitation.pk).first()
    if problem := referee_invitation_problem(locked):
        raise problem
    locked.revoked_at = timezone.now()
    locked.save(update_fields=["revoked_at"])
    return referee_invite(
        championship=locked.championship,
        invited_by=invited_by,
        name=locked.name,
        email=locked.email,
    )


@transaction.atomic
def referee_invitation_revoke(*, invitation: RefereeInvitation) -> None:
    """Withdraw an unused invitation: its link stops working."""
    RefereeInvitation.objects.filter(pk=invitation.pk, used_at__isnull=True).update(
        revoked_at=timezone.now()
    )
