"""A team keeps the score of its own match hand by hand, from a player's phone, through its
personal link (docs/tournaments.md, "No referee at the table"; the sheet is the referee's,
``referees.scorers``).

The writes are the referee's (the numbered save, the draft, the seats, the undo of the last
hand, in ``tournaments.results``), with the team's rule in place of the referee's:
``results.selectors.team_scorer_problem`` (the championship in play, the team one of the
match's, the stage one where a player of the table keeps the score). Each write reads, in
this order, the team's entry under the championship's lock, its link under the link's row
lock (a link revoked at the same moment either acted before or is refused), then the match
under its lock, where the team's rule and the match's way of being recorded are checked:
the first stored wins, so a result reported meanwhile refuses the phone's hand with the
sentence ``results.selectors.by_hands_problem`` gives, and a hand stored first refuses the
report (``results.services.reported``).

Every act is written to the audit log as a ``TeamAct`` via ``link``: the players seated,
each hand recorded (with its points), the last hand deleted, the sheet taken over on
another phone. The steps of a hand in progress are not acts (the hand they end in is).
When the hand the team saves decides the match, that is the team's confirmation of the
result; the other side confirms or disputes it from its own link.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.entries.acts import LINK, _entry_still_in, _spokesman
from tournaments.entries.audit import team_act_log
from tournaments.entries.reports import link_still_live
from tournaments.errors import TournamentError
from tournaments.models import Hand, HandDraft, Match, MatchConfirmation, Team, TeamAct, TeamLink
from tournaments.results import drafts, records
from tournaments.results import services as result_services
from tournaments.results.locking import lock_match
from tournaments.results.numbering import hand_record_numbered
from tournaments.results.selectors import by_hands_problem, team_scorer_problem


def _checked(team: Team, link: TeamLink, match: Match, *, lock_entry: bool = True) -> Match:
    """The entry, the link, then the match (locked, read again): refused with the team's
    rule's sentence; the match as stored now."""
    _entry_still_in(team, lock=lock_entry)
    link_still_live(team=team, link=link)
    lock_match(match)
    found = Match.objects.select_related("stage__championship", "team_a", "team_b", "team_c").get(
        pk=match.pk
    )
    problem = team_scorer_problem(match=found, team=team) or by_hands_problem(match=found)
    if problem is not None:
        raise problem
    return found


def _points(match: Match, hand: Hand) -> str:
    names = records.side_names(match)
    parts = [f"{names.get(side, side)} {getattr(hand, f'points_{side.lower()}')}" for side in names]
    return _("Hand %(number)s: %(points)s") % {"number": hand.number, "points": ", ".join(parts)}


@transaction.atomic
def link_match_start(
    *, team: Team, link: TeamLink, match: Match, seats: Sequence[int | str] | None
) -> Match:
    """The team seats the players of its match (``results.services.match_start``)."""
    match = _checked(team, link, match)
    started = result_services.match_start(match=match, seats=seats, by=None)
    team_act_log(team=team, action=TeamAct.Action.SEATED, via=LINK, match=match)
    return started


@transaction.atomic
def link_draft_save(
    *,
    team: Team,
    link: TeamLink,
    match: Match,
    number: int,
    record: Any,
    device: str,
    revision: int,
    takeover: bool = False,
) -> HandDraft:
    """The team's phone keeps the hand in progress on the server (``results.drafts``);
    taking the match over from another device is an act of the audit log."""
    match = _checked(team, link, match, lock_entry=False)
    holder = HandDraft.objects.filter(match=match).values_list("device", flat=True).first()
    draft = drafts.draft_save(
        match=match,
        number=number,
        record=record,
        device=device,
        revision=revision,
        takeover=takeover,
        by=None,
    )
    if takeover and holder and holder != device:
        team_act_log(
            team=team,
            action=TeamAct.Action.TAKEN_OVER,
            via=LINK,
            match=match,
            detail=str(_("Hand %(number)s in progress") % {"number": number}),
        )
    return draft


@transaction.atomic
def link_hand_record(
    *,
    team: Team,
    link: TeamLink,
    match: Match,
    number: int,
    record: Mapping[str, Any],
    device: str | None = None,
) -> tuple[Hand, bool]:
    """The team records hand ``number`` (``results.numbering.hand_record_numbered``: the
    same hand sent again is stored once). Returns ``(hand, created)``. A hand that decides
    the match is the team's confirmation of the result."""
    _entry_still_in(team)
    link_still_live(team=team, link=link)
    lock_match(match)
    found = Match.objects.select_related("stage__championship", "team_a", "team_b", "team_c").get(
        pk=match.pk
    )
    stored = Hand.objects.filter(match=found, number=number).first()
    if (
        stored is not None
        and isinstance(record, Mapping)
        and stored.record == records.hand_entry(record)
    ):
        # A retry of a hand this phone stored (its answer lost): the same answer, no act.
        return stored, False
    problem = team_scorer_problem(match=found, team=team) or by_hands_problem(match=found)
    if problem is not None:
        raise problem
    hand, created = hand_record_numbered(
        match=found, number=number, record=record, recorded_by=None, device=device
    )
    if not created:
        return hand, False
    team_act_log(
        team=team,
        action=TeamAct.Action.HAND_RECORDED,
        via=LINK,
        match=found,
        detail=str(_points(found, hand)),
    )
    found.refresh_from_db()
    side = found.side_of(team.pk)
    if found.status == Match.Status.FINISHED and side is not None:
        answered = MatchConfirmation.objects.filter(match=found, side=side).exists()
        if not answered:
            result_services.match_confirm(match=found, side=side, by=None, player=_spokesman(team))
            team_act_log(team=team, action=TeamAct.Action.CONFIRMED, via=LINK, match=found)
    return hand, True


@transaction.atomic
def link_hand_undo(*, team: Team, link: TeamLink, match: Match, number: int) -> None:
    """The team deletes its match's last hand (``number``, still the last one) while the
    match is not over: once over, the sides answer and the organiser corrects."""
    match = _checked(team, link, match)
    count = match.hands.count()
    if count != number:
        raise TournamentError(
            _(
                "The match has changed since this page was shown (it now expects hand "
                "%(number)s): nothing was saved, the sheet has been reloaded."
            ),
            code="stale_hand",
            params={"number": count + 1},
        )
    if match.status in Match.DECIDED:
        raise TournamentError(
            _("This match is over: only the organiser may correct its hands now."),
            code="match_over",
        )
    last = match.hands.order_by("-number").first()
    detail = str(_points(match, last)) if last is not None else ""
    result_services.hand_delete_last(match=match, deleted_by=None)
    team_act_log(
        team=team, action=TeamAct.Action.HAND_DELETED, via=LINK, match=match, detail=detail
    )
