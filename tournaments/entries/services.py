"""Writes to entries, personal links and the team acts of the audit log.

The shared core: the audit of a team's acts (:func:`team_act_log`), a team's withdrawal
and the waiting list's promotion (:func:`entry_withdraw`), the personal link
(:func:`link_issue`, :func:`link_revoke`, :func:`link_team`). The entry form's services
(submit, accept, refuse, paid) and the link's acts build on them.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.championships.services import lock_championship
from tournaments.errors import TournamentError
from tournaments.models import Championship, Entry, Match, Team, TeamAct, TeamLink
from tournaments.signals import announce

# The personal link's token: a signed TeamLink id; the salt keeps it from being any other
# of the site's signed values (a check-in QR code, a fresh invitation).
LINK_SALT = "tanteo.team-link"


def team_act_log(
    *,
    team: Team,
    action: str,
    via: str,
    by: AbstractBaseUser | None = None,
    match: Match | None = None,
    detail: str = "",
) -> TeamAct:
    """Write one act on ``team`` to its championship's audit log."""
    return TeamAct.objects.create(
        championship_id=team.championship_id,
        team=team,
        team_name=team.name,
        match=match,
        action=action,
        via=via,
        by=by if by is not None and by.is_authenticated else None,
        detail=detail,
    )


def _started(championship: Championship) -> bool:
    return (
        championship.status
        in (
            Championship.Status.RUNNING,
            Championship.Status.FINISHED,
        )
        or Match.objects.filter(stage__championship=championship).exists()
    )


def promote_waiting(
    *, championship: Championship, via: str, by: AbstractBaseUser | None
) -> list[Entry]:
    """Move the first waiting teams into the places left free under the capacity (the
    caller holds the championship lock). Returns the promoted entries."""
    policy = getattr(championship, "entry_policy", None)
    capacity = policy.capacity if policy is not None else None
    holding = Entry.objects.filter(championship=championship, status__in=Entry.HOLDING).count()
    free = None if capacity is None else max(capacity - holding, 0)
    waiting = Entry.objects.filter(championship=championship, status=Entry.Status.WAITING)
    promoted = list(waiting.select_related("team").order_by("position")[:free])
    for entry in promoted:
        entry.status = Entry.Status.PENDING
        entry.save(update_fields=["status"])
        team_act_log(team=entry.team, action=TeamAct.Action.PROMOTED, via=via, by=by)
    return promoted


@transaction.atomic
def entry_withdraw(
    *, team: Team, via: str, by: AbstractBaseUser | None = None, reason: str = ""
) -> list[Entry]:
    """Withdraw ``team`` before the championship starts: its place goes to the first team
    on the waiting list. A team the organiser typed in gets a withdrawn entry. Returns the
    entries promoted."""
    championship = team.championship
    lock_championship(championship)
    if _started(championship):
        raise TournamentError(
            _("The championship has started: ask the organiser to withdraw the team."),
            code="withdraw_started",
        )
    entry = Entry.objects.filter(team=team).first()
    if entry is not None and entry.status == Entry.Status.WITHDRAWN:
        return []  # a second tap, a retried request: already done
    if entry is None:
        last = Entry.objects.filter(championship=championship).order_by("-position").first()
        entry = Entry(
            championship=championship, team=team, position=(last.position + 1 if last else 1)
        )
    was_holding = entry.status in Entry.HOLDING or entry.pk is None
    entry.status = Entry.Status.WITHDRAWN
    entry.reason = reason.strip()
    entry.save()
    team_act_log(team=team, action=TeamAct.Action.WITHDRAWN, via=via, by=by, detail=entry.reason)
    promoted = promote_waiting(championship=championship, via=via, by=by) if was_holding else []
    announce(championship_id=championship.pk, what="team")
    return promoted


@transaction.atomic
def link_issue(*, team: Team, via: str, by: AbstractBaseUser | None = None) -> str:
    """A new personal link for ``team`` (its token); every older link stops working."""
    team.links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
    link = TeamLink.objects.create(
        team=team, created_by=by if by is not None and by.is_authenticated else None
    )
    team_act_log(team=team, action=TeamAct.Action.LINK_ISSUED, via=via, by=by)
    return signing.dumps({"l": link.pk}, salt=LINK_SALT)


@transaction.atomic
def link_revoke(*, team: Team, by: AbstractBaseUser | None = None) -> int:
    """Revoke every live link of ``team``: each answers 403 from now on. Returns how many."""
    count = team.links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
    if count:
        team_act_log(
            team=team, action=TeamAct.Action.LINK_REVOKED, via=TeamAct.Via.ORGANISER, by=by
        )
    return count


def link_team(*, slug: str, token: str) -> Team:
    """The team a personal link opens in championship ``slug``; a tampered token, a
    revoked link or another championship's link raises ``TournamentError`` (403)."""
    try:
        value = signing.loads(token, salt=LINK_SALT)
        link_id = int(value["l"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise TournamentError(
            _("This link is not valid: copy it again from the message you received."),
            code="link_invalid",
        ) from None
    link = TeamLink.objects.select_related("team__championship").filter(pk=link_id).first()
    if link is None or link.revoked_at is not None:
        raise TournamentError(
            _("This link was revoked by the organiser: ask him for the new one."),
            code="link_revoked",
        )
    if link.team.championship.slug != slug:
        raise TournamentError(
            _("This link belongs to another championship."), code="link_other_championship"
        )
    return link.team
