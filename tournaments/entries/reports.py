"""A team reports the result of its own match through its personal link (docs/tournaments.md,
"No referee at the table"), and its answers through the link checked live.

- :func:`link_report`: the team reports the final score of each chico of one of its
  matches (``results.services.match_result_report`` with its side and its spokesman, the
  cap de colla or its first player): the result counts at once, provisional, and the
  other side confirms or disputes it; a report of another result after the first is the
  team's dispute. Written to the audit log as a ``TeamAct`` ``reported`` via ``link``,
  with the result in words.
- :func:`link_answer`: the team confirms or disputes a result of its own
  (``acts.link_confirm`` / ``acts.link_dispute``), for the API, whose credentials are the
  link itself.

Each act reads, in this order, the team's entry under the championship's lock (a refused
or withdrawn team acts no more: ``acts._entry_still_in``), then the link it came through
under the link's row lock (a link the organiser revokes at the same moment either acted
before the revocation or is refused: never after it), then the match under its lock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.entries.acts import (
    LINK,
    _entry_still_in,
    _locked,
    _spokesman,
    link_confirm,
    link_dispute,
)
from tournaments.entries.audit import team_act_log
from tournaments.errors import TournamentError
from tournaments.models import Match, MatchConfirmation, Team, TeamAct, TeamLink
from tournaments.results.services import match_result_report, result_check, result_text


def link_still_live(*, team: Team, link: TeamLink) -> None:
    """Refuse an act through ``link`` (one of ``team``'s) once the organiser has revoked it.

    The link's row is read under lock: a revocation (an ``UPDATE`` of that row) waits for
    an act that read it first, and an act that comes second reads the revocation."""
    revoked = (
        TeamLink.objects.select_for_update()
        .filter(pk=link.pk, team=team)
        .values_list("revoked_at", flat=True)
    )
    found = list(revoked)
    if not found or found[0] is not None:
        raise TournamentError(
            _("This link was revoked by the organiser: ask him for the new one."),
            code="link_revoked",
        )


def _checked(team: Team, link: TeamLink | None) -> None:
    _entry_still_in(team)
    if link is not None:
        link_still_live(team=team, link=link)


def _team_side(team: Team, match: Match) -> str:
    side = match.side_of(team.pk)
    if side is None:
        raise TournamentError(
            _("This match is not one of %(team)s's."),
            code="not_team_match",
            params={"team": team.name},
        )
    return side


@transaction.atomic
def link_report(
    *,
    team: Team,
    match: Match,
    games: Sequence[Mapping[str, Any]],
    winner: str | None = None,
    link: TeamLink | None = None,
) -> MatchConfirmation:
    """``team`` reports the result of its ``match`` through its personal link (``link``,
    when the caller has it: checked live under its lock): each chico's final score by
    side, as the engine takes them (``games``), and the match's ``winner`` where stated.

    Returns the team's answer (``results.services.match_result_report``): its
    confirmation of the result it reported (or of the same result reported first), or its
    dispute of another result reported first. The same result reported again changes
    nothing and logs nothing."""
    _checked(team, link)
    match = _locked(match)
    side = _team_side(team, match)
    spokesman = _spokesman(team)
    answered = MatchConfirmation.objects.filter(match=match, side=side).exists()
    answer = match_result_report(
        match=match, side=side, games=games, winner=winner, player=spokesman
    )
    if not answered:
        reported = result_check(match=match, games=games, winner=winner)
        team_act_log(
            team=team,
            action=TeamAct.Action.REPORTED,
            via=LINK,
            match=match,
            detail=result_text(match, reported),
        )
    return answer


@transaction.atomic
def link_answer(
    *,
    team: Team,
    match: Match,
    dispute: str | None = None,
    link: TeamLink | None = None,
) -> MatchConfirmation:
    """``team`` confirms the result of its finished ``match`` through ``link`` (checked
    live under its lock), or disputes it saying why (``dispute``): ``acts.link_confirm``
    and ``acts.link_dispute``, after the same checks as :func:`link_report`."""
    _checked(team, link)
    if dispute is None:
        return link_confirm(team=team, match=match)
    return link_dispute(team=team, match=match, comment=dispute)
