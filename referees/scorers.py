"""Who fills a match's score sheet: a referee (a logged-in user) or a team of the match
through its personal link, on a player's phone (docs/tournaments.md, "No referee at the
table").

The sheet is one: the same views, templates, engine in the page, outbox, draft and
take-over (``referees.views.sheet``). What differs is only here: which match the actor
reaches, whether he may write its hands there and then, where the sheet's forms post and
where "back" leads, how the page's script authenticates to the API, and through which
services a write goes (the referee's, or the team's ``tournaments.entries.scoresheet``,
which logs every act in the audit log).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from referees import selectors, services
from tournaments.entries import scoresheet
from tournaments.errors import TournamentError
from tournaments.models import Hand, HandDraft, Match, Team, TeamLink
from tournaments.results import drafts
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services


@dataclass(frozen=True)
class Referee:
    """The match's referee, or whoever manages its championship (``request.user``)."""

    user: Any
    team: None = None

    def match(self, pk: int) -> Match:
        return selectors.match_for_referee(user=self.user, pk=pk)

    def url(self, name: str, match: Match) -> str:
        """The sheet's own pages: ``sheet``, ``seats``, ``undo``, ``confirm``."""
        return reverse(f"referees:{name}", args=[match.pk])

    @property
    def back(self) -> tuple[str, str]:
        return reverse("referees:matches"), _("My matches")

    @property
    def api_auth(self) -> str:
        return ""  # the session's cookie, with its CSRF token

    def words(self) -> dict[str, str]:
        """The script's words that differ for this scorer (``referees.tablet.labels``)."""
        return {}

    def write_problem(self, match: Match) -> TournamentError | None:
        return result_selectors.hand_write_problem(match=match, user=self.user)

    def may_delete_hand(self, match: Match) -> bool:
        # A decided result confirmed at the table is the organiser's to correct.
        return (
            not match.is_decided
            or result_selectors.result_change_problem(match=match, user=self.user) is None
        )

    def save_hand(self, match: Match, number: int, record: Mapping[str, Any], device: str) -> Hand:
        return services.hand_save(
            match=match, number=number, record=record, recorded_by=self.user, device=device
        )

    def save_draft(
        self, match: Match, number: int, record: Any, device: str, revision: int, takeover: bool
    ) -> HandDraft:
        return drafts.draft_save(
            match=match,
            number=number,
            record=record,
            device=device,
            revision=revision,
            takeover=takeover,
            by=self.user,
        )

    def start(self, match: Match, seats: Sequence[int | str]) -> None:
        result_services.match_start(match=match, seats=seats, by=self.user)

    def undo(self, match: Match, number: int) -> None:
        services.hand_undo(match=match, number=number, by=self.user)


@dataclass(frozen=True)
class TeamScorer:
    """A team of the match, through its personal link (``link``: its live link; ``slug``
    and ``token``: the link's address, which the sheet's own addresses extend)."""

    team: Team
    link: TeamLink
    slug: str
    token: str
    user: Any = None

    def match(self, pk: int) -> Match:
        return selectors.match_for_team(team=self.team, pk=pk)

    def url(self, name: str, match: Match) -> str:
        return reverse(f"referees:team_{name}", args=[self.slug, self.token, match.pk])

    @property
    def back(self) -> tuple[str, str]:
        return reverse("tournaments:team_link", args=[self.slug, self.token]), _("Your team's page")

    @property
    def api_auth(self) -> str:
        # The API's credentials of a team (api.teamlink): the link's token, in a header.
        return f"TeamLink {self.token}"

    def words(self) -> dict[str, str]:
        # A player's phone, not the referee's tablet.
        return {
            "discard": _("Discard what this phone kept and reload"),
            "discard_confirm": _(
                "Discard the steps and hands this phone has not sent? They will be lost."
            ),
        }

    def write_problem(self, match: Match) -> TournamentError | None:
        return result_selectors.team_scorer_problem(match=match, team=self.team)

    def may_delete_hand(self, match: Match) -> bool:
        return not match.is_decided

    def save_hand(self, match: Match, number: int, record: Mapping[str, Any], device: str) -> Hand:
        try:
            hand, _created = scoresheet.link_hand_record(
                team=self.team,
                link=self.link,
                match=match,
                number=number,
                record=record,
                device=device,
            )
        except TournamentError as error:
            if error.code in ("hand_exists", "hand_number"):
                raise services.stale(error.params["expected"]) from None
            raise
        return hand

    def save_draft(
        self, match: Match, number: int, record: Any, device: str, revision: int, takeover: bool
    ) -> HandDraft:
        return scoresheet.link_draft_save(
            team=self.team,
            link=self.link,
            match=match,
            number=number,
            record=record,
            device=device,
            revision=revision,
            takeover=takeover,
        )

    def start(self, match: Match, seats: Sequence[int | str]) -> None:
        scoresheet.link_match_start(team=self.team, link=self.link, match=match, seats=seats)

    def undo(self, match: Match, number: int) -> None:
        scoresheet.link_hand_undo(team=self.team, link=self.link, match=match, number=number)


Scorer = Referee | TeamScorer


def referee(request: HttpRequest) -> Referee:
    return Referee(user=request.user)
