"""Writes of the notices: a notice queued for each team told (in the team's language,
once per team and key within ``REPEAT_SECONDS``), the organiser's round called and his
message, a team's mails stopped. Each queues its sending once the transaction commits
(``tasks.send_on_commit``): the act that told is never held up, nor failed, by the mail.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import hashlib
import uuid
from collections.abc import Iterable, Iterator, Sequence

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from tournaments.championships.services import lock_championship
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    CircuitQualification,
    Entry,
    Match,
    Notice,
    NoticeMark,
    Round,
    Stage,
    Team,
)
from tournaments.notices.push import teams_listening
from tournaments.notices.tasks import send_on_commit
from tournaments.notices.texts import About, tell
from tournaments.text import paragraph, paragraph_has_control

# A team told the same thing (a round called, one message) again within this many seconds
# is told once.
REPEAT_SECONDS = 60
# What one team may be sent in an hour on each channel, whatever it is about: a runaway
# loop, a championship with a mistake repeated, never floods a player's mailbox or phone.
TEAM_PER_HOUR = 30
# The organiser's message: plain text, this long at most.
MESSAGE_MAX = 1000

Addressed = tuple[Team, About]

# Set while championships are built that nobody plays (the demo's): nobody is told.
_muted: contextvars.ContextVar[bool] = contextvars.ContextVar("notices_muted", default=False)


@contextlib.contextmanager
def notices_muted() -> Iterator[None]:
    """Queue no notice inside the block: the demo's teams have made-up addresses."""
    token = _muted.set(True)
    try:
        yield
    finally:
        _muted.reset(token)


def team_language(entry: Entry) -> str:
    """The language a team is told in: the one it entered in, else the site's."""
    languages = dict(settings.LANGUAGES)
    return entry.language if entry.language in languages else settings.LANGUAGE_CODE


def _reachable(team_ids: list[int], kind: str) -> dict[int, tuple[Entry | None, list[str]]]:
    """The teams of ``team_ids`` that may be told ``kind``, each with its entry and the
    channels that reach it: by mail, an address given at entry with the mails not stopped;
    by push, a phone that listens for ``kind`` through a live link (``push``). Never a team
    out of the championship (but for the refusal itself: the last notice a refused team
    gets), nor on a channel over its hourly limit."""
    entries = {entry.team_id: entry for entry in Entry.objects.filter(team_id__in=team_ids)}
    phones = teams_listening(team_ids, kind)
    since = timezone.now() - dt.timedelta(hours=1)
    busy = set(
        Notice.objects.filter(team_id__in=team_ids, created_at__gte=since)
        .values("team_id", "channel")
        .annotate(n=Count("pk"))
        .filter(n__gte=TEAM_PER_HOUR)
        .values_list("team_id", "channel")
    )
    found = {}
    for team_id in team_ids:
        entry = entries.get(team_id)
        if entry is not None and kind != Notice.Kind.REFUSED and entry.status in Entry.GONE:
            continue
        channels = []
        if entry is not None and entry.email and entry.notices_stopped_at is None:
            channels.append(Notice.Channel.EMAIL)
        if team_id in phones:
            channels.append(Notice.Channel.PUSH)
        channels = [channel for channel in channels if (team_id, channel) not in busy]
        if channels:
            found[team_id] = (entry, channels)
    return found


def _first_in_a_while(team_ids: list[int], key: str, now: dt.datetime) -> set[int]:
    """The teams of ``team_ids`` not told ``key`` in the last ``REPEAT_SECONDS``, marked
    as told now. Their marks are created (a concurrent creation waits for the other's
    commit) then locked in id order: two organisers calling the same round at once are
    decided one after the other, and the second finds the first's marks."""
    NoticeMark.objects.bulk_create(
        [NoticeMark(team_id=team_id, key=key) for team_id in sorted(team_ids)],
        ignore_conflicts=True,
    )
    marks = list(
        NoticeMark.objects.select_for_update().filter(team_id__in=team_ids, key=key).order_by("pk")
    )
    since = now - dt.timedelta(seconds=REPEAT_SECONDS)
    fresh = [mark for mark in marks if mark.last_at is None or mark.last_at <= since]
    NoticeMark.objects.filter(pk__in=[mark.pk for mark in fresh]).update(last_at=now)
    return {mark.team_id for mark in fresh}


@transaction.atomic
def notices_queue(
    *,
    championship: Championship,
    kind: str,
    addressed: Sequence[Addressed],
    key: str = "",
    by: AbstractBaseUser | None = None,
    batch: str = "",
) -> list[Notice]:
    """Queue a notice of ``kind`` to each team of ``addressed`` that may be told (its
    ``About`` says what about), in its language; sent once the caller's transaction
    commits, one notice per channel that reaches the team (mail, its phones). With a
    ``key``, a team told that key within ``REPEAT_SECONDS`` is skipped. A team with no
    address given at entry (typed in by the organiser) and no phone listening is not told."""
    if _muted.get():
        return []
    wanted = {team.pk: (team, about) for team, about in addressed}
    reachable = _reachable(list(wanted), kind)
    team_ids = sorted(reachable)
    if key and team_ids:
        told = _first_in_a_while(team_ids, key, timezone.now())
        team_ids = [team_id for team_id in team_ids if team_id in told]
    notices = []
    for team_id in team_ids:
        team, about = wanted[team_id]
        entry, channels = reachable[team_id]
        language = team_language(entry) if entry is not None else settings.LANGUAGE_CODE
        with translation.override(language):
            said = tell(kind, team=team, championship=championship, about=about)
        notices += [
            Notice(
                championship=championship,
                team=team,
                team_name=team.name,
                match=about.match,
                kind=kind,
                channel=channel,
                language=language,
                subject=said.subject,
                text=said.text,
                batch=batch,
                by=by if by is not None and by.is_authenticated else None,
            )
            for channel in channels
        ]
    notices = Notice.objects.bulk_create(notices)
    send_on_commit([notice.pk for notice in notices])
    return notices


def _sides(match: Match, *, but: str | None = None) -> list[Team]:
    return [team for side, team in match.teams_by_side().items() if team and side != but]


def notice_entry(*, entry: Entry, kind: str, by: AbstractBaseUser | None = None) -> list[Notice]:
    """Tell a team its entry's news: accepted, refused (with the reason it was given) or
    moved up from the waiting list (``kind``)."""
    about = About(reason=entry.reason if kind == Notice.Kind.REFUSED else "")
    return notices_queue(
        championship=entry.championship, kind=kind, addressed=[(entry.team, about)], by=by
    )


def notice_check_in_open(
    *, championship: Championship, until: dt.datetime, by: AbstractBaseUser | None = None
) -> list[Notice]:
    """Tell every team that plays that it may check in through its link until ``until``
    (the same window opened again within ``REPEAT_SECONDS`` tells nobody twice)."""
    about = About(when=until)
    teams = championship.teams.playing().order_by("pk")
    return notices_queue(
        championship=championship,
        kind=Notice.Kind.CHECK_IN,
        addressed=[(team, about) for team in teams],
        key=f"check_in:{until.isoformat()}",
        by=by,
    )


def notice_result_reported(*, match: Match, side: str, result: str) -> list[Notice]:
    """Tell the other sides of ``match`` that ``side`` reported ``result``, waiting for
    their confirmation."""
    about = About(match=match, result=result)
    return notices_queue(
        championship=match.stage.championship,
        kind=Notice.Kind.REPORTED,
        addressed=[(team, about) for team in _sides(match, but=side)],
        key=f"reported:{match.pk}",
    )


def notice_result_settled(
    *, match: Match, result: str, by: AbstractBaseUser | None = None
) -> list[Notice]:
    """Tell every side of ``match`` the result the organiser settled (and why)."""
    about = About(match=match, result=result)
    return notices_queue(
        championship=match.stage.championship,
        kind=Notice.Kind.SETTLED,
        addressed=[(team, about) for team in _sides(match)],
        by=by,
    )


def notice_match_moved(
    *, match: Match, postponed: bool, reason: str = "", by: AbstractBaseUser | None = None
) -> list[Notice]:
    """Tell both teams of a league ``match`` its new date (or that it is to be fixed),
    venue and, for a postponement, why."""
    about = About(
        match=match,
        when=match.scheduled_at,
        venue=", ".join(v for v in (match.venue_name, match.venue_address) if v),
        reason=reason,
    )
    return notices_queue(
        championship=match.stage.championship,
        kind=Notice.Kind.POSTPONED if postponed else Notice.Kind.MOVED,
        addressed=[(team, about) for team in _sides(match)],
        by=by,
    )


def _told_drawn(match: Match) -> bool:
    """A match its teams are told of when drawn: one to be played, or a bye (not a team
    absent at check-in, nor a pairing decided by its absence)."""
    if match.team_b_id is None:
        return match.outcome == Match.Outcome.BYE
    return not match.is_decided


def notice_matches_drawn(*, matches: Iterable[Match]) -> list[Notice]:
    """Tell each team of ``matches``, just drawn, its next match: its opponents, table,
    time and venue where known, or its bye. A team drawn in several at once (a league's
    season, a bracket) is told its first. The same round drawn again within
    ``REPEAT_SECONDS`` (removed and generated again) tells a team once."""
    ids = [match.pk for match in matches]
    if not ids or _muted.get():
        return []
    drawn = Match.objects.filter(pk__in=ids).select_related(
        "round", "stage__championship", "team_a", "team_b", "team_c"
    )
    first: dict[int, tuple[Team, Match]] = {}
    for match in sorted(drawn, key=lambda m: (m.round.number, m.pk)):
        if _told_drawn(match):
            for team in _sides(match):
                first.setdefault(team.pk, (team, match))
    by_round: dict[int, list[Addressed]] = {}
    for team, match in first.values():
        about = About(
            match=match,
            when=match.scheduled_at,
            venue=", ".join(v for v in (match.venue_name, match.venue_address) if v),
        )
        by_round.setdefault(match.round_id, []).append((team, about))
    notices: list[Notice] = []
    for addressed in by_round.values():
        round_ = addressed[0][1].match.round
        notices += notices_queue(
            championship=addressed[0][1].match.stage.championship,
            kind=Notice.Kind.DRAWN,
            addressed=addressed,
            key=f"drawn:{round_.stage_id}:{round_.number}",
        )
    return notices


def notice_qualified(*, qualifications: Iterable[CircuitQualification]) -> list[Notice]:
    """Tell each team just entered in its circuit's final (``qualifications`` entered,
    not withdrawn) that it qualified, with the final's page. It is told through the entry
    of the team that won the place (its qualifier's, or for circuit points its latest):
    the address the players gave is there, and is never copied to another
    championship."""
    rows = [
        row
        for row in qualifications
        if row.status == CircuitQualification.Status.ENTERED and row.source_team_id
    ]
    if not rows or _muted.get():
        return []
    rows = list(
        CircuitQualification.objects.filter(pk__in=[row.pk for row in rows]).select_related(
            "circuit", "final_team__championship", "source_team__championship"
        )
    )
    by_championship: dict[int, list[Addressed]] = {}
    for row in rows:
        final = row.final_team.championship if row.final_team else None
        if final is None:
            continue
        page = reverse("tournaments:championship", args=[final.slug])
        about = About(
            final=final.name,
            circuit=row.circuit.name,
            link=settings.SITE_URL.rstrip("/") + page,
        )
        source = row.source_team
        by_championship.setdefault(source.championship_id, []).append((source, about))
    notices: list[Notice] = []
    for addressed in by_championship.values():
        source = addressed[0][0]
        notices += notices_queue(
            championship=source.championship,
            kind=Notice.Kind.QUALIFIED,
            addressed=addressed,
            key=f"qualified:{rows[0].circuit_id}",
        )
    return notices


def _playable(matches: Iterable[Match]) -> list[Match]:
    return [m for m in matches if m.team_b_id is not None and not m.is_decided]


@transaction.atomic
def round_call(*, round_: Round, by: AbstractBaseUser | None) -> list[Notice]:
    """The organiser calls ``round_``: each team of a match still to be played is told its
    match is ready, with its table. Called again within ``REPEAT_SECONDS`` (twice, or by
    two organisers at once), a team is told once."""
    matches = _playable(round_.matches.select_related("team_a", "team_b", "team_c").order_by("pk"))
    # More matches than tables: one with no table while others have theirs waits, and is
    # told when a table frees up and it gets it (``notice_table_given``).
    if any(m.table for m in matches):
        matches = [m for m in matches if m.table]
    addressed = [(team, About(match=m)) for m in matches for team in _sides(m)]
    return notices_queue(
        championship=round_.stage.championship,
        kind=Notice.Kind.READY,
        addressed=addressed,
        key=f"ready:{round_.pk}",
        by=by,
        batch=uuid.uuid4().hex,
    )


def round_called(round_id: int) -> bool:
    """Whether the organiser has called round ``round_id`` (some team was told it)."""
    return NoticeMark.objects.filter(key=f"ready:{round_id}", last_at__isnull=False).exists()


def notice_table_given(*, match: Match) -> list[Notice]:
    """``match`` got its table after its round was called (a table freed by a match that
    ended): its teams are told it is ready, with that table. Before the call, nothing:
    the call tells them. Given the same table again, a team is told once."""
    if not match.table or match.team_b_id is None or match.is_decided or match.round_id is None:
        return []
    if match.status != Match.Status.SCHEDULED or not round_called(match.round_id):
        return []
    return notices_queue(
        championship=match.stage.championship,
        kind=Notice.Kind.READY,
        addressed=[(team, About(match=match)) for team in _sides(match)],
        key=f"ready:{match.round_id}:{match.pk}:{match.table}"[:100],
        batch=uuid.uuid4().hex,
    )


def message_problem(text: str) -> TournamentError | None:
    """Why ``text`` cannot be sent as the organiser's message, or None: plain text of
    ``MESSAGE_MAX`` characters at most, line breaks allowed, no other control character."""
    text = text.strip()
    if not text:
        return TournamentError(_("Write the message."), code="message_empty")
    if len(text) > MESSAGE_MAX:
        return TournamentError(
            _("The message is %(length)s characters long: %(max)s at most."),
            code="message_long",
            params={"length": len(text), "max": MESSAGE_MAX},
        )
    if paragraph_has_control(text):
        return TournamentError(
            _("The message holds an invisible control character: write it as plain text."),
            code="control_characters",
        )
    return None


def message_addressed(
    *,
    championship: Championship,
    text: str,
    round_: Round | None = None,
    match: Match | None = None,
    stage: Stage | None = None,
) -> list[Addressed]:
    """Whom a message goes to, each team with its match when there is one: the teams of
    ``match``, of ``round_``'s matches, of ``stage`` (entered in it, not withdrawn,
    refused or waiting), or else every team entered."""
    if match is not None:
        matches = [match]
    elif round_ is not None:
        matches = list(round_.matches.select_related("team_a", "team_b", "team_c").order_by("pk"))
    else:
        teams = stage.teams.all() if stage is not None else championship.teams.all()
        teams = teams.exclude(entry__status__in=Entry.OUT).order_by("pk")
        return [(team, About(message=text)) for team in teams]
    return [(team, About(match=m, message=text)) for m in matches for team in _sides(m)]


# The organiser's messages a championship may send in an hour: enough for a day of play,
# few enough that a slip (a form posted in a loop) stays small.
MESSAGES_PER_HOUR = 20


@transaction.atomic
def message_send(
    *,
    championship: Championship,
    text: str,
    by: AbstractBaseUser | None,
    round_: Round | None = None,
    match: Match | None = None,
    stage: Stage | None = None,
) -> list[Notice]:
    """The organiser's short message to a stage, a round, a match's teams or everyone entered
    (:func:`message_addressed`). Refused when it is not plain text (:func:`message_problem`)
    or when the championship sent ``MESSAGES_PER_HOUR`` already; the same message to the
    same teams again within ``REPEAT_SECONDS`` is sent once."""
    problem = message_problem(text)
    if problem is not None:
        raise problem
    text = paragraph(text).strip()
    lock_championship(championship)
    since = timezone.now() - dt.timedelta(hours=1)
    sent = (
        Notice.objects.filter(
            championship=championship, kind=Notice.Kind.MESSAGE, created_at__gte=since
        )
        .values("batch")
        .distinct()
        .count()
    )
    if sent >= MESSAGES_PER_HOUR:
        raise TournamentError(
            _("%(count)s messages were sent in the last hour: wait a while before the next."),
            code="messages_limit",
            params={"count": sent},
        )
    addressed = message_addressed(
        championship=championship, text=text, round_=round_, match=match, stage=stage
    )
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    return notices_queue(
        championship=championship,
        kind=Notice.Kind.MESSAGE,
        addressed=addressed,
        key=f"message:{digest}",
        by=by,
        batch=uuid.uuid4().hex,
    )


@transaction.atomic
def notices_stop(*, entry: Entry) -> bool:
    """Stop every mail to ``entry``'s team, at once: its mails still queued are not sent
    (its phones, which it turns off on its page, are not the mail's). False when they were
    stopped already (a second click)."""
    stopped = Entry.objects.filter(pk=entry.pk, notices_stopped_at__isnull=True).update(
        notices_stopped_at=timezone.now()
    )
    Notice.objects.filter(
        team_id=entry.team_id, state=Notice.State.QUEUED, channel=Notice.Channel.EMAIL
    ).update(state=Notice.State.CANCELLED)
    return bool(stopped)
