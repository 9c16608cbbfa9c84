"""Reads of matches and their hands, and who may write hands there and then."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from tournaments.championships.selectors import MEMBERS_IN_ORDER, can_manage, is_referee
from tournaments.errors import TournamentError
from tournaments.models import Championship, Hand, HandDraft, Match


def match_detail(*, pk: int) -> Match:
    """A match with its teams and players, games, and hands (with who recorded them)."""
    return (
        Match.objects.select_related(
            "stage__championship", "round", "group", "team_a", "team_b", "winner", "referee"
        )
        .prefetch_related(
            Prefetch("team_a__memberships", queryset=MEMBERS_IN_ORDER),
            Prefetch("team_b__memberships", queryset=MEMBERS_IN_ORDER),
            "games__winner",
            Prefetch("hands", queryset=Hand.objects.select_related("recorded_by", "game")),
        )
        .get(pk=pk)
    )


def match_of(*, championship: Championship, match_id: int) -> Match:
    """A match of ``championship`` with its teams and stage, else ``Http404``."""
    match = (
        Match.objects.select_related("stage", "round", "team_a", "team_b", "winner")
        .filter(stage__championship=championship, pk=match_id)
        .first()
    )
    if match is None:
        raise Http404("No such match.")
    match.stage.championship = championship
    return match


def hand_write_problem(*, match: Match, user: Any | None) -> TournamentError | None:
    """Why hands of ``match`` may not be recorded, corrected or deleted by ``user`` now, or
    ``None`` when they may. The results services raise it; the tablet shows it beforehand.

    - Only while the championship is **running**: not in draft, nor while entries are open
      (registration: no match is played yet), nor once finished (the results are final;
      the organiser moves it back to running to fix one).
    - Only by a user who may referee (:func:`is_referee`: active and in the referees group,
      or a superuser) or who manages the championship (:func:`can_manage`). Which match a
      referee reaches is the pages' business (``referees.selectors.match_for_referee``: the
      ones assigned to him); this is the rule no page or API gets around.
    - ``user`` ``None`` is the system itself (demo data, commands): only the status applies.
    """
    championship = match.stage.championship
    if championship.status != Championship.Status.RUNNING:
        return TournamentError(
            _(
                "Hands can be recorded, corrected or deleted only while the championship is "
                "in play, and %(championship)s is “%(status)s”: nothing was saved."
            ),
            code="championship_not_running",
            params={
                "championship": championship.name,
                "status": Championship.Status(championship.status).label,
            },
        )
    if user is None or is_referee(user, championship) or can_manage(user, championship):
        return None
    return TournamentError(
        _(
            "Your account may not referee (it is not among the referees, or it is disabled): "
            "nothing was saved. Ask the organiser of the championship."
        ),
        code="not_referee",
    )


def championship_matches(*, championship: Championship) -> QuerySet[Match]:
    """Every match of a championship, in stage and round order, with teams and referee."""
    return (
        Match.objects.filter(stage__championship=championship)
        .select_related("stage", "round", "group", "team_a", "team_b", "referee")
        .order_by("stage__order", "round__number", "pk")
    )


def match_hands(*, match: Match) -> QuerySet[Hand]:
    """The hands of a match in order, with who recorded them and their game."""
    return match.hands.select_related("recorded_by", "game").order_by("number")


@dataclass(frozen=True)
class DraftView:
    """The hand in progress of a match as clients read it (``GET .../draft/``)."""

    number: int
    record: dict[str, Any]
    device: str
    revision: int
    updated_at: datetime.datetime | None
    held_since: datetime.datetime | None
    entry: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "record": self.record,
            "device": self.device,
            "revision": self.revision,
            "updated_at": self.updated_at.isoformat() if self.updated_at else None,
            "entry": self.entry,
        }


def match_draft(*, match: Match, hands: int | None = None) -> DraftView:
    """The hand in progress of ``match`` (``hands``: its number of stored hands, counted
    when not given). Without a draft, or with one for another hand number than the next
    (a hand deleted since), the record is empty and the number is the next hand's."""
    if hands is None:
        hands = Hand.objects.filter(match=match).count()
    draft = HandDraft.objects.filter(match=match).first()
    number = hands + 1
    if draft is None:
        return DraftView(number, {}, "", 0, None, None, match.entry)
    record = draft.record if draft.number == number and isinstance(draft.record, dict) else {}
    return DraftView(
        number,
        record,
        draft.device,
        draft.revision,
        draft.updated_at,
        draft.held_since,
        match.entry,
    )
