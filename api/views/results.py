"""A match recorded as its result (docs/api.md, "No referee at the table"): the result
posted, the sides' answers, how a match is recorded.

The organiser (and staff who manage the championship) types a result at the desk or
corrects one, confirms or disputes for a side and changes how a match is recorded. A team
acts through its personal link (``Authorization: TeamLink <token>``, ``api.teamlink``) on
its own matches only: it reports a result (``entries.reports.link_report``), confirms or
disputes one (``entries.reports.link_answer``). The services decide everything; the
engine's refusals are 400s naming the chico at fault (``game``), a result other than the
stored one a 409. ``Idempotency-Key`` makes a retry safe (per user, or per team).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, idempotency
from api.serializers.matches import MatchDetailSerializer
from api.serializers.results import (
    AnsweredSerializer,
    AnswerSerializer,
    DisputePostSerializer,
    RecordingPostSerializer,
    ResultPostSerializer,
    SidePostSerializer,
)
from api.teamlink import TeamLinkAuthentication, UserOrTeamLink, team_link
from api.views.base import ApiView
from api.views.hands import IDEMPOTENCY_KEY
from api.views.matches import detail_data
from tournaments.entries import reports
from tournaments.models import Match, MatchConfirmation, TeamLink
from tournaments.results import services as result_services


def _answered(match: Match, answer: MatchConfirmation | None) -> Response:
    data = {"match": detail_data(match.pk), "answer": None}
    if answer is not None:
        data["answer"] = AnswerSerializer(answer).data
    return Response(data)


class _TeamsToo(ApiView):
    """A write the organiser makes, or a team of the match through its personal link."""

    writers = "teams"
    # The site's credentials, and a team's link (only here: elsewhere the header is unknown
    # and the request anonymous). The token first, so a 401 still asks for it.
    authentication_classes = [TokenAuthentication, TeamLinkAuthentication, SessionAuthentication]
    permission_classes = [UserOrTeamLink]
    serializer_class = AnsweredSerializer

    def team_side(self, link: TeamLink, match: Match, side: str | None) -> None:
        """A team answers for its own side: another side named is bad input."""
        own = match.side_of(link.team_id)
        if side is not None and own is not None and side != own:
            message = _("%(team)s answers for its own side only, %(side)s.") % {
                "team": link.team.name,
                "side": own,
            }
            raise serializers.ValidationError({"side": [message]})

    def run(self, request: Request, act: Callable[[], Any]) -> Response:
        return idempotency.run_once(request, act)


class MatchResult(_TeamsToo):
    """A match's result: each chico's final score."""

    @extend_schema(
        request=ResultPostSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: AnsweredSerializer},
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Record the match's result, checked by the rules engine against its rules and
        best of.

        A team (its link) reports the result of its own match: it counts at once,
        provisional; the other side confirms or disputes it. Reported first by the other
        side, the same result is this side's confirmation and another one its dispute
        (``answer``). The organiser types it at the desk (confirmed for every side), or with
        ``reason`` corrects the result the match holds. 400 with the engine's code and
        ``game`` (the chico at fault); 409 ``result_differs`` when the desk types another
        result than the stored one (correct it, with ``reason``), ``already_answered``
        when the side has answered another result, ``kept_hand_by_hand`` when the match is
        kept hand by hand; 403 ``referees_keep_score`` for a team where referees keep the
        score, ``not_team_match`` for another team's match."""
        link = team_link(request)
        match = access.match(request, match_id) if link else access.managed_match(request, match_id)
        posted = self.valid(ResultPostSerializer, request)
        games = posted.games_for_engine()
        winner = posted.validated_data.get("winner")
        reason = posted.validated_data.get("reason")
        if link is not None and reason is not None:
            message = _("Only the organiser corrects a result, giving the reason.")
            raise serializers.ValidationError({"reason": [message]})

        def record() -> Response:
            if link is not None:
                answer = reports.link_report(
                    team=link.team, match=match, games=games, winner=winner, link=link
                )
                return _answered(match, answer)
            if reason is not None:
                result_services.match_result_correct(
                    match=match, games=games, winner=winner, reason=reason, by=request.user
                )
            else:
                result_services.match_result_record(
                    match=match, games=games, winner=winner, by=request.user
                )
            return _answered(match, None)

        return self.run(request, record)


class MatchConfirm(_TeamsToo):
    """A side's confirmation of a match's result."""

    @extend_schema(
        request=SidePostSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: AnsweredSerializer},
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Confirm the result of a finished match: a team (its link) for its own side,
        once (409 ``already_answered`` after); the organiser for ``side`` (his answer
        settles a dispute). Every side confirmed, the result is final."""
        link = team_link(request)
        match = access.match(request, match_id) if link else access.managed_match(request, match_id)
        side = self.valid(SidePostSerializer, request).validated_data.get("side")
        if link is not None:
            self.team_side(link, match, side)
            return self.run(
                request,
                lambda: _answered(
                    match, reports.link_answer(team=link.team, match=match, link=link)
                ),
            )
        if side is None:
            raise serializers.ValidationError({"side": [_("Choose the side that answers.")]})
        return self.run(
            request,
            lambda: _answered(
                match, result_services.match_confirm(match=match, side=side, by=request.user)
            ),
        )


class MatchDispute(_TeamsToo):
    """A side's dispute of a match's result."""

    @extend_schema(
        request=DisputePostSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: AnsweredSerializer},
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Dispute the result of a finished match, saying why (``comment``, 400
        ``comment_missing`` without it): a team (its link) for its own side, once; the
        organiser for ``side``. It goes to the organiser's results to settle."""
        link = team_link(request)
        match = access.match(request, match_id) if link else access.managed_match(request, match_id)
        data = self.valid(DisputePostSerializer, request).validated_data
        side, comment = data.get("side"), data["comment"]
        if link is not None:
            self.team_side(link, match, side)
            return self.run(
                request,
                lambda: _answered(
                    match,
                    reports.link_answer(team=link.team, match=match, dispute=comment, link=link),
                ),
            )
        if side is None:
            raise serializers.ValidationError({"side": [_("Choose the side that answers.")]})
        return self.run(
            request,
            lambda: _answered(
                match,
                result_services.match_dispute(
                    match=match, side=side, comment=comment, by=request.user
                ),
            ),
        )


class MatchRecording(ApiView):
    """How a match is recorded: hand by hand, or as its result."""

    writers = "organisers"
    serializer_class = MatchDetailSerializer

    @extend_schema(
        request=RecordingPostSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: MatchDetailSerializer},
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Change how the match is recorded (``to``: ``hands`` or ``result``), saying why
        (organisers): what it held (its hands, or its result) is removed, kept in its
        history, and it is to be played again as far as Tanteo knows. 409
        ``recorded_already`` when it is already recorded that way."""
        match = access.managed_match(request, match_id)
        data = self.valid(RecordingPostSerializer, request).validated_data

        def change() -> Response:
            result_services.match_recording_change(
                match=match, to=data["to"], reason=data["reason"], by=request.user
            )
            return Response(detail_data(match.pk))

        return idempotency.run_once(request, change)
