"""Writes to entries, personal links and the team acts of the audit log.

The shared core: the audit of a team's acts (:func:`team_act_log`), a team's withdrawal
and the waiting list's promotion (:func:`entry_withdraw`), the personal link
(:func:`link_issue`, :func:`link_revoke`, :func:`link_team`). Then the entry form's
services: the organiser's policy (:func:`entry_policy_set`), a team entered by its
players (:func:`entry_problems`, :func:`entry_submit`) and the organiser's answers
(:func:`entry_accept`, :func:`entry_refuse`). The link's acts build on them; the fee's
payments and refunds are ``fees``'.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournaments.championships.selectors import OPEN_ENTRIES
from tournaments.championships.services import (
    NewTeam,
    lock_championship,
    team_entry_problems,
    teams_create_many,
)
from tournaments.championships.words import words
from tournaments.entries import money
from tournaments.entries.audit import team_act_log
from tournaments.entries.form_keys import form_fingerprint, repeated_entry
from tournaments.entries.link_selectors import LINK_SALT, championship_started, link_by_token
from tournaments.entries.selectors import entries_closed_problem
from tournaments.entries.towns import town_problem, town_rule
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    Entry,
    EntryPolicy,
    Team,
    TeamAct,
    TeamLink,
)
from tournaments.people.services import PersonDetails
from tournaments.signals import announce
from tournaments.text import line_problems, paragraph


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


def entry_refused_error(team: Team) -> TournamentError:
    """The sentence for an act on a refused entry: it stays as the organiser left it."""
    return TournamentError(
        _("The entry of %(team)s was refused: it stays refused."),
        code="entry_refused",
        params={"team": team.name},
    )


@transaction.atomic
def entry_withdraw(
    *, team: Team, via: str, by: AbstractBaseUser | None = None, reason: str = ""
) -> list[Entry]:
    """Withdraw ``team`` before the championship starts: its place goes to the first team
    on the waiting list. A team the organiser typed in gets a withdrawn entry. A refused
    entry stays refused (read under the championship lock, as :func:`entry_refuse` writes
    it: they never cross). Returns the entries promoted."""
    championship = team.championship
    lock_championship(championship)
    entry = Entry.objects.filter(team=team).first()
    if entry is not None and entry.status == Entry.Status.REFUSED:
        raise entry_refused_error(team)
    if championship_started(championship):
        raise TournamentError(
            _("The championship has started: ask the organiser to withdraw the team."),
            code="withdraw_started",
        )
    if entry is not None and entry.status == Entry.Status.WITHDRAWN:
        return []  # a second tap, a retried request: already done
    if entry is None:
        last = Entry.objects.filter(championship=championship).order_by("-position").first()
        entry = Entry(
            championship=championship, team=team, position=(last.position + 1 if last else 1)
        )
    was_holding = entry.status in Entry.HOLDING or entry.pk is None
    entry.status = Entry.Status.WITHDRAWN
    entry.reason = paragraph(reason).strip()
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
    return _link_token(link)


def _link_token(link: TeamLink) -> str:
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


def link_opened(*, slug: str, token: str) -> TeamLink:
    """The personal link ``token`` opens in championship ``slug`` (its team with it); a
    tampered token, a revoked link or another championship's link raises
    ``TournamentError`` (403). An act through it passes it on, to be checked live under
    its lock (``reports.link_report``)."""
    link = link_by_token(token=token)
    if link.team.championship.slug != slug:
        raise TournamentError(
            _("This link belongs to another championship."), code="link_other_championship"
        )
    return link


def link_team(*, slug: str, token: str) -> Team:
    """The team a personal link opens in championship ``slug`` (:func:`link_opened`)."""
    return link_opened(slug=slug, token=token).team


# -- the entry form: the organiser's policy, a team entered, the organiser's answers -------


@transaction.atomic
def entry_policy_set(
    *,
    championship: Championship,
    by: AbstractBaseUser | None,
    is_open: bool,
    capacity: int | None,
    closes_at: datetime.datetime | None,
    asks: Sequence[str],
    fee: Decimal | None,
    fee_instructions: str,
    currency: str = money.DEFAULT,
) -> EntryPolicy:
    """Set how ``championship`` takes entries. A capacity raised (or removed) moves the
    first waiting teams into the places it opens. The fee is in ``currency`` (an ISO 4217
    code of ``money.CURRENCIES``). Nonsense is refused with a sentence, naming the form's
    field (``params["field"]``)."""
    lock_championship(championship)
    unknown = [question for question in asks if question not in EntryPolicy.QUESTIONS]
    if unknown:
        raise TournamentError(
            _("Unknown question %(question)s: ask for club, licence, email or phone."),
            code="entry_question_unknown",
            params={"question": unknown[0], "field": "asks"},
        )
    if capacity is not None and capacity < 1:
        raise TournamentError(
            _("The capacity is at least one team: leave it empty for no limit."),
            code="entry_capacity",
            params={"field": "capacity"},
        )
    if fee is not None and fee < 0:
        raise TournamentError(
            _("The fee cannot be negative: leave it empty for a free entry."),
            code="entry_fee",
            params={"field": "fee"},
        )
    if currency not in money.CURRENCIES:
        raise TournamentError(
            _("Choose the fee's currency from the list."),
            code="entry_currency",
            params={"field": "currency"},
        )
    if is_open and closes_at is not None and closes_at <= timezone.now():
        raise TournamentError(
            _("That closing time has passed: choose a later one, or leave it empty."),
            code="entry_closes_past",
            params={"field": "closes_at"},
        )
    if is_open and championship.status not in OPEN_ENTRIES:
        raise TournamentError(
            _("The championship has started: entries cannot open."),
            code="entries_closed",
            params={"field": "is_open"},
        )
    policy, _created = EntryPolicy.objects.update_or_create(
        championship=championship,
        defaults={
            "is_open": is_open,
            "capacity": capacity,
            "closes_at": closes_at,
            "asks": [q for q in EntryPolicy.QUESTIONS if q in asks],
            "fee": fee,
            "currency": currency,
            "fee_instructions": paragraph(fee_instructions).strip(),
        },
    )
    championship.entry_policy = policy
    promote_waiting(championship=championship, via=TeamAct.Via.ORGANISER, by=by)
    # The championship's page links to the entry form while entries are open.
    announce(championship_id=championship.pk, what="championship", slug=championship.slug)
    return policy


def entry_problems(
    *,
    championship: Championship,
    team_name: str,
    players: Sequence[PersonDetails],
    captain: str | None,
    club: str,
    email: str,
    policy: EntryPolicy | None = None,
    town: str = "",
) -> list[TournamentError]:
    """Every reason the team cannot be entered as given, each a sentence naming the
    form's field it belongs to (``params["field"]``: ``team_name``, ``club``, ``email``,
    ``phone``, ``captain``, ``town``, ``player_<n>``, ``licence_<n>``). A circuit's
    qualifier restricted to towns refuses a team from elsewhere (``entries.towns``,
    pointing to its town's qualifier); a line break or another control character in any
    of them is refused (``tournaments.text``). The form shows them all;
    :func:`entry_submit` checks them again under the championship lock."""
    if policy is None:
        policy = EntryPolicy.objects.filter(championship=championship).first()
    asks = set(policy.asks) if policy is not None else set()
    size = championship.team_size
    problems: list[TournamentError] = []

    def problem(field: str, message: object, code: str, **params: object) -> None:
        problems.append(TournamentError(message, code=code, params={"field": field, **params}))

    problems.extend(_text_problems(team_name, players, club, email, town))
    name = team_name.strip()
    if not name:
        problem("team_name", _("Give the team a name."), "team_name_missing")
    elif championship.teams.filter(name=name).exists():
        problem(
            "team_name",
            _("This championship already has a team called %(name)s: choose another name."),
            "team_name_taken",
            name=name,
        )
    if (wrong_town := town_problem(town_rule(championship), town)) is not None:
        problems.append(wrong_town)
    if "club" in asks and not club.strip():
        problem("club", _("Give the team's club or city."), "club_missing")
    if "email" in asks and not email.strip():
        problem(
            "email", _("Give an email address: the team's link is sent there."), "email_missing"
        )
    elif email.strip():
        try:
            validate_email(email.strip())
        except ValidationError:
            problem("email", _("This email address is not valid."), "email_invalid")
    if "phone" in asks and not (players and players[0].phone.strip()):
        problem("phone", _("Give a phone number."), "phone_missing")
    if len(players) != size:
        problem(
            "players",
            ngettext_lazy(
                "This championship plays with %(size)s player per team: give %(size)s name.",
                "This championship plays with %(size)s players per team: give %(size)s names.",
                "size",
            ),
            "team_size",
            size=size,
        )
    seen: set[str] = set()
    for number, player in enumerate(players, start=1):
        player_name = player.name.strip()
        if not player_name:
            problem(
                f"player_{number}",
                _("Player %(number)s needs a name."),
                "player_name_missing",
                number=number,
            )
        elif player_name.casefold() in seen:
            problem(
                f"player_{number}",
                _("%(player)s is twice in the team."),
                "player_twice",
                player=player_name,
            )
        seen.add(player_name.casefold())
        if "licence" in asks and not player.licence.strip():
            problem(
                f"licence_{number}",
                _("Give the licence number of player %(number)s."),
                "licence_missing",
                number=number,
            )
    names = [p.name.strip() for p in players]
    if captain is not None and captain.strip() not in names:
        problem(
            "captain",
            _("Choose the %(captain)s among the players."),
            "captain",
            captain=words(championship).captain,
        )
    elif len(players) == size and all(names):
        for error in team_entry_problems(
            championship=championship,
            team=name,
            players=names,
            captains=[captain.strip()] if captain else [],
        ):
            problems.append(
                TournamentError(
                    error.message,
                    code=error.code,
                    params={**(error.params or {}), "field": "captain"},
                )
            )
    return problems


def _text_problems(
    team_name: str, players: Sequence[PersonDetails], club: str, email: str, town: str
) -> list[TournamentError]:
    """Each field of the entry form holding a control character, by the form's name."""
    fields = {
        "team_name": (team_name, _("The team's name")),
        "club": (club, _("The club")),
        "email": (email, _("The email address")),
        "town": (town, _("The town")),
        "phone": (players[0].phone if players else "", _("The phone number")),
    }
    for number, player in enumerate(players, start=1):
        fields[f"player_{number}"] = (player.name, _("A player's name"))
        fields[f"licence_{number}"] = (player.licence, _("A licence number"))
    return line_problems(fields)


@transaction.atomic
def entry_submit(
    *,
    championship: Championship,
    team_name: str,
    players: Sequence[PersonDetails],
    captain: str | None = None,
    club: str = "",
    email: str = "",
    form_key: str = "",
    via: str = TeamAct.Via.FORM,
    town: str = "",
    client: str = "",
) -> tuple[Entry, str]:
    """Enter a team by its players: returns its entry and its personal link's token.

    Under the championship lock: refused (a sentence) when entries are closed or the
    team cannot be entered (:func:`entry_problems`, the first problem); then the team
    is created with its players, and its entry holds a place (``pending``) while the
    capacity has room, else waits (``waiting``), with the next arrival number. The
    players are typed by the public: a licence number is kept only where the organiser
    asks for one, and joins nobody (``people.services.players_create``).

    The same form posted again (the same ``form_key``: a double tap, a retry) enters
    nobody new: the same sending alone (``client``, the sender's address, and every field:
    ``form_keys``) gets the first entry again (``entry.repeated``: mail the link once)
    with the link it issued, while live; any other is refused (``entry_key_used``)."""
    lock_championship(championship)
    championship.refresh_from_db(fields=["status"])
    form_key = form_key.strip()
    fingerprint = form_fingerprint(
        client=client,
        team_name=team_name,
        players=players,
        captain=captain,
        club=club,
        email=email,
        town=town,
    )
    if form_key:
        first = (
            Entry.objects.select_related("team")
            .filter(championship=championship, form_key=form_key)
            .first()
        )
        if first is not None:
            return repeated_entry(first, fingerprint), _first_link(first)
    policy = EntryPolicy.objects.filter(championship=championship).first()
    closed = entries_closed_problem(championship, policy)
    if closed is not None:
        raise TournamentError(closed, code="entries_closed")
    problems = entry_problems(
        championship=championship,
        team_name=team_name,
        players=players,
        captain=captain,
        club=club,
        email=email,
        policy=policy,
        town=town,
    )
    if problems:
        raise problems[0]
    club = club.strip()
    (team,) = teams_create_many(
        championship=championship,
        teams=[
            NewTeam(
                name=team_name.strip(),
                club=club,
                players=[_as_entered(p, club, policy) for p in players],
                captain=captain.strip() if captain else None,
            )
        ],
    )
    if town.strip():
        rule = town_rule(championship)
        team.town = rule.as_listed(town) if rule else " ".join(town.split())
        team.save(update_fields=["town"])
    holding = Entry.objects.filter(championship=championship, status__in=Entry.HOLDING).count()
    capacity = policy.capacity if policy is not None else None
    status = (
        Entry.Status.PENDING if capacity is None or holding < capacity else Entry.Status.WAITING
    )
    last = Entry.objects.filter(championship=championship).order_by("-position").first()
    entry = Entry.objects.create(
        championship=championship,
        team=team,
        status=status,
        position=last.position + 1 if last is not None else 1,
        email=email.strip(),
        form_key=form_key,
        form_fingerprint=fingerprint if form_key else "",
    )
    action = TeamAct.Action.ENTERED if status == Entry.Status.PENDING else TeamAct.Action.WAITING
    team_act_log(team=team, action=action, via=via)
    token = link_issue(team=team, via=via)
    entry.repeated = False
    return entry, token


def _first_link(entry: Entry) -> str:
    """The live link ``entry`` issued (never one the organiser issued later), or ""."""
    link = entry.team.links.order_by("pk").first()
    return _link_token(link) if link is not None and link.revoked_at is None else ""


def _as_entered(player: PersonDetails, club: str, policy: EntryPolicy | None) -> PersonDetails:
    """A player's details as the public enters him: the team's club when he gave none of
    his own, his licence number only where the organiser asks for it, no person chosen."""
    asked = policy is not None and "licence" in policy.asks
    return PersonDetails(
        name=player.name,
        club=player.club.strip() or club,
        licence=player.licence if asked else "",
        email=player.email,
        phone=player.phone,
    )


def _locked_entry(entry: Entry) -> Entry:
    lock_championship(entry.championship)
    return Entry.objects.select_related("team", "championship").get(pk=entry.pk)


@transaction.atomic
def entry_accept(*, entry: Entry, by: AbstractBaseUser | None, via: str) -> Entry:
    """Accept an entered team: it plays (its place was already held). Accepting it again
    changes nothing."""
    entry = _locked_entry(entry)
    if entry.status == Entry.Status.ACCEPTED:
        return entry
    if entry.status != Entry.Status.PENDING:
        raise TournamentError(
            _("%(team)s is %(status)s: only an entered team can be accepted."),
            code="entry_not_pending",
            params={"team": entry.team.name, "status": entry.get_status_display().lower()},
        )
    entry.status = Entry.Status.ACCEPTED
    entry.save(update_fields=["status"])
    team_act_log(team=entry.team, action=TeamAct.Action.ACCEPTED, via=via, by=by)
    announce(championship_id=entry.championship_id, what="team")
    return entry


@transaction.atomic
def entry_refuse(*, entry: Entry, by: AbstractBaseUser | None, via: str, reason: str) -> Entry:
    """Refuse an entry, with the reason the team reads; the place it held goes to the
    first team on the waiting list."""
    reason = paragraph(reason).strip()
    if not reason:
        raise TournamentError(
            _("Give the reason for refusing the entry: the team reads it."),
            code="entry_reason_missing",
            params={"field": "reason"},
        )
    entry = _locked_entry(entry)
    if entry.status in (Entry.Status.REFUSED, Entry.Status.WITHDRAWN):
        raise TournamentError(
            _("%(team)s is already %(status)s."),
            code="entry_out",
            params={"team": entry.team.name, "status": entry.get_status_display().lower()},
        )
    was_holding = entry.status in Entry.HOLDING
    entry.status = Entry.Status.REFUSED
    entry.reason = reason
    entry.save(update_fields=["status", "reason"])
    team_act_log(team=entry.team, action=TeamAct.Action.REFUSED, via=via, by=by, detail=reason)
    if was_holding:
        promote_waiting(championship=entry.championship, via=via, by=by)
    announce(championship_id=entry.championship_id, what="team")
    return entry
