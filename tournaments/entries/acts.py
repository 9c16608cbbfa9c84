"""What a team does through its personal link, and the organiser's self check-in window.

A personal link (``services.link_issue``) opens one team's page in one championship. The
acts it allows are exactly these, each written to the championship's audit log as a
``TeamAct`` through ``link``:

- :func:`link_check_in`: the team is present for the next round of its stages that take
  check-in, while the organiser lets teams check in themselves
  (``Championship.self_check_in_until``, set by :func:`championship_self_check_in`);
- :func:`link_confirm` / :func:`link_dispute`: the team's answer to a result of its own
  that is finished and still awaits that answer (its cap de colla, or its first player,
  answers: the results services record it as the side's own answer, not the organiser's);
- :func:`link_withdraw`: the team leaves before the championship starts (its place goes
  to the first team waiting);
- :func:`link_push_on` / :func:`link_push_off`: a phone turns the team's notifications on
  (for the kinds it chose) or off (``notices.push``).

And one act through a mail's unsubscribe link (:func:`mails_stop`, ``via`` mail): the
team's mails stopped.

A team whose entry the organiser refused, or that has withdrawn, does none of them: each
act reads the entry under the championship's lock first, so it meets a refusal made
while its page was open (a second tap of "withdraw" is done already, and says so).

Nobody is logged in behind a link: ``by`` is ``None`` and ``via`` is ``link``.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from tournaments.championships.services import lock_championship
from tournaments.entries.audit import team_act_log
from tournaments.entries.services import entry_refused_error, entry_withdraw
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    Entry,
    Match,
    MatchConfirmation,
    Notice,
    Player,
    Stage,
    Team,
    TeamAct,
    TeamLink,
)
from tournaments.notices.push import push_subscribe, push_unsubscribe
from tournaments.notices.services import notice_check_in_open, notices_stop
from tournaments.results.services import match_confirm, match_dispute
from tournaments.stages.registry import stage_name
from tournaments.stages.rounds import lock_stage
from tournaments.stages.services import (
    next_round_number,
    round_in_play,
    team_check_in,
    team_check_in_stages,
)

LINK = TeamAct.Via.LINK


def _local(championship: Championship, moment: datetime.datetime) -> str:
    """A moment as the championship's people read it: in its time zone."""
    return formats.date_format(timezone.localtime(moment, championship.zone), "DATETIME_FORMAT")


def self_check_in_open(championship: Championship, now: datetime.datetime | None = None) -> bool:
    """Whether teams may check in themselves through their links now."""
    until = championship.self_check_in_until
    return until is not None and until > (now or timezone.now())


@transaction.atomic
def championship_self_check_in(
    *,
    championship: Championship,
    until: datetime.datetime | None,
    by: AbstractBaseUser | None = None,
) -> Championship:
    """Let the teams check in themselves through their personal links until ``until``
    (``None`` closes it at once). A time already past is refused: it would open nothing."""
    if until is not None and until <= timezone.now():
        raise TournamentError(
            _(
                "%(time)s has already passed: choose a later time for the teams to check "
                "in themselves."
            ),
            code="self_check_in_past",
            params={"time": _local(championship, until)},
        )
    lock_championship(championship)
    championship.self_check_in_until = until
    championship.save(update_fields=["self_check_in_until"])
    if until is not None:
        notice_check_in_open(championship=championship, until=until, by=by)
    return championship


def _entry_still_in(team: Team, *, lock: bool = True) -> None:
    """Refuse an act of a team whose entry is refused or withdrawn. The entry is read under
    the championship lock, which the organiser's answers and a withdrawal take too: an act
    posted from a page opened before a refusal meets the refusal, never overwrites it. The
    lock comes first, before any match's (championship, then match). ``lock`` false: read
    as it stands, for a step that stores nothing lasting (a phone's hand in progress, sent
    after every tap: the championship's lock would queue every table's phones)."""
    if lock:
        lock_championship(team.championship)
    status = Entry.objects.filter(team=team).values_list("status", flat=True).first()
    if status == Entry.Status.REFUSED:
        raise entry_refused_error(team)
    if status == Entry.Status.WITHDRAWN:
        raise TournamentError(
            _("%(team)s has withdrawn: nothing more can be done through its link."),
            code="entry_withdrawn",
            params={"team": team.name},
        )


@transaction.atomic
def link_check_in(*, team: Team) -> list[Stage]:
    """The team, through its link, is present for the next round of every stage it plays
    that takes check-in (``stages.services.team_check_in``); only while the organiser's
    window is open and its entry is not out. Returns those stages."""
    _entry_still_in(team)
    # Read again under the lock: the organiser may have just closed it.
    championship = Championship.objects.get(pk=team.championship_id)
    if not self_check_in_open(championship):
        until = championship.self_check_in_until
        raise TournamentError(
            _("Check-in is closed: it closed at %(time)s. Check in at the venue.")
            if until is not None
            else _("Check-in is closed: the organiser has not opened it through the links."),
            code="self_check_in_closed",
            params={"time": _local(championship, until)} if until is not None else {},
        )
    # A stage whose round is being played takes the check-in for its next round once that
    # round is over (stages.services.round_in_play): the others take it now.
    # Each stage read under its lock, as a round's generation takes it: a round drawn at the
    # same moment comes before this check or after the check-in, never between them.
    stages = [lock_stage(stage) for stage in team_check_in_stages(team=team)]
    ready = [stage for stage in stages if not round_in_play(stage)]
    if stages and not ready:
        raise TournamentError(
            _("Check-in for the next round opens once the round being played is over."),
            code="round_in_play",
        )
    stages = team_check_in(team=team, by=None, stages=ready or None)
    detail = ", ".join(
        str(
            _("%(stage)s, round %(number)s")
            % {"stage": stage_name(s), "number": next_round_number(s)}
        )
        for s in stages
    )
    team_act_log(team=team, action=TeamAct.Action.CHECKED_IN, via=LINK, detail=detail)
    return stages


def _spokesman(team: Team) -> Player:
    """Who answers for the team: its cap de colla, else its first player."""
    memberships = list(team.memberships.select_related("player").order_by("order", "pk"))
    captain = next((m for m in memberships if m.is_captain), None)
    chosen = captain or (memberships[0] if memberships else None)
    if chosen is None:
        raise TournamentError(
            _("%(team)s has no players: ask the organiser."),
            code="team_without_players",
            params={"team": team.name},
        )
    return chosen.player


def _awaited_side(*, team: Team, match: Match) -> str:
    """The side ``team`` holds in ``match`` when the match is finished and awaits its
    answer (the match is locked by the caller); else a translated error."""
    side = match.side_of(team.pk)
    if side is None:
        raise TournamentError(
            _("This match is not one of %(team)s's."),
            code="not_team_match",
            params={"team": team.name},
        )
    if match.status != Match.Status.FINISHED or match.team_b_id is None:
        raise TournamentError(
            _("Only a result played to its end is confirmed: this match is not over."),
            code="not_finished",
        )
    if MatchConfirmation.objects.filter(match=match, side=side).exists():
        raise TournamentError(
            _("%(team)s has already answered: only the organiser may change it."),
            code="already_answered",
            params={"team": team.name},
        )
    return side


def _locked(match: Match) -> Match:
    # The answer is checked and stored under the match's row lock (the results services
    # lock it again in the same transaction), so two taps answer once.
    return Match.objects.select_for_update().get(pk=match.pk)


@transaction.atomic
def link_confirm(*, team: Team, match: Match) -> MatchConfirmation:
    """The team confirms the result of its finished ``match``, through its link."""
    _entry_still_in(team)
    match = _locked(match)
    side = _awaited_side(team=team, match=match)
    answer = match_confirm(match=match, side=side, by=None, player=_spokesman(team))
    team_act_log(team=team, action=TeamAct.Action.CONFIRMED, via=LINK, match=match)
    return answer


@transaction.atomic
def link_dispute(*, team: Team, match: Match, comment: str) -> MatchConfirmation:
    """The team disputes the result of its finished ``match``, saying why (``comment``):
    it goes to the organiser's queue of results to settle."""
    _entry_still_in(team)
    match = _locked(match)
    side = _awaited_side(team=team, match=match)
    answer = match_dispute(
        match=match, side=side, comment=comment, by=None, player=_spokesman(team)
    )
    team_act_log(
        team=team, action=TeamAct.Action.DISPUTED, via=LINK, match=match, detail=answer.comment
    )
    return answer


def link_withdraw(*, team: Team, reason: str = "") -> list[Entry]:
    """The team withdraws through its link, before the championship starts
    (``services.entry_withdraw``). Returns the entries promoted from the waiting list."""
    return entry_withdraw(team=team, via=LINK, by=None, reason=reason)


@transaction.atomic
def mails_stop(*, entry: Entry) -> bool:
    """The team stops its mails through the unsubscribe link of one of them (its
    ``List-Unsubscribe``): honoured at once, its notices still queued not sent, and kept
    in the audit log (once: a second click changes nothing). False when already stopped."""
    stopped = notices_stop(entry=entry)
    if stopped:
        team_act_log(team=entry.team, action=TeamAct.Action.MAILS_STOPPED, via=TeamAct.Via.MAIL)
    return stopped


@transaction.atomic
def link_push_on(
    *, link: TeamLink, endpoint: str, p256dh: str, auth: str, kinds: list[str]
) -> bool:
    """A phone turns on the team's notifications through ``link``, for ``kinds``
    (``notices.push.push_subscribe``: an endpoint of a known push service, valid keys);
    True for a new phone, False for one that changed its kinds. Kept in the audit log with
    the kinds, never the endpoint."""
    team = link.team
    _entry_still_in(team, lock=False)
    subscription, new = push_subscribe(
        link=link, endpoint=endpoint, p256dh=p256dh, auth=auth, kinds=kinds
    )
    labels = dict(Notice.Kind.choices)
    detail = ", ".join(str(labels[kind]) for kind in subscription.kinds)
    team_act_log(team=team, action=TeamAct.Action.PUSH_ON, via=LINK, detail=detail)
    return new


@transaction.atomic
def link_push_off(*, link: TeamLink, endpoint: str) -> bool:
    """A phone turns the team's notifications off through ``link``; False when it was not
    on (nothing written)."""
    removed = push_unsubscribe(team=link.team, endpoint=endpoint)
    if removed:
        team_act_log(team=link.team, action=TeamAct.Action.PUSH_OFF, via=LINK)
    return removed
