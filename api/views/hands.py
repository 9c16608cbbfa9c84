"""The hands of a match: read them; record one (its referee, organisers); undo the last.

A posted hand goes through the same path as the tablet's: ``hand_record_numbered``
checks its number under the match lock, then ``results.services.hand_record`` has the
engine check the whole match with it. ``Idempotency-Key`` makes a retry safe.

Where a player of the table keeps the score, a team of the match records its hands
through its personal link (``Authorization: TeamLink``):
``entries.scoresheet.link_hand_record``, in the audit log.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, idempotency
from api.serializers.matches import HandPostSerializer, HandSerializer
from api.teamlink import ReadOrUserOrTeamLink, TeamLinkAuthentication, team_link
from api.views.base import ApiView
from tournaments.entries import scoresheet
from tournaments.models import Hand
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.results.numbering import hand_record_numbered

IDEMPOTENCY_KEY = OpenApiParameter(
    idempotency.HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Any string up to 200 characters: a retry with the same key and body gets "
    "the first response again, and nothing is stored twice.",
)


class HandList(ApiView):
    """The hands of a match."""

    writers = "scorers"
    authentication_classes = [TokenAuthentication, TeamLinkAuthentication, SessionAuthentication]
    permission_classes = [ReadOrUserOrTeamLink]
    serializer_class = HandSerializer
    queryset = Hand.objects.none()  # the schema's model; reads go through the selectors

    @extend_schema(responses=HandSerializer(many=True))
    def get(self, request: Request, match_id: int) -> Response:
        """The hands with their records, points, scores and statuses, in order."""
        match = access.match(request, match_id)
        return self.paginated(result_selectors.match_hands(match=match), HandSerializer)

    @extend_schema(
        request=HandPostSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: HandSerializer,
            200: OpenApiResponse(HandSerializer, description="Already recorded: the same hand."),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        """Record the next hand; the rules engine checks it as on the referee's tablet.

        409 ``hand_number`` when ``number`` is not the next hand (``expected`` says which),
        409 ``hand_exists`` when that hand is recorded with other events; the same hand
        posted again answers 200 with the stored hand. With ``device``, 409
        ``draft_other_device`` while another device holds the match; a stored hand empties
        the match's draft.
        """
        match = access.scored_match(request, match_id)
        posted = self.valid(HandPostSerializer, request)
        link = team_link(request)

        def record() -> Response:
            if link is not None:
                hand, created = scoresheet.link_hand_record(
                    team=link.team,
                    link=link,
                    match=match,
                    number=posted.validated_data["number"],
                    record=posted.record(),
                    device=posted.validated_data.get("device"),
                )
            else:
                hand, created = hand_record_numbered(
                    match=match,
                    number=posted.validated_data["number"],
                    record=posted.record(),
                    recorded_by=request.user,
                    device=posted.validated_data.get("device"),
                )
            hand = result_selectors.match_hands(match=match).get(pk=hand.pk)
            return Response(
                HandSerializer(hand).data,
                status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
            )

        return idempotency.run_once(request, record)


class HandLast(ApiView):
    """The last hand of a match."""

    writers = "referees"
    serializer_class = HandSerializer

    @extend_schema(responses={204: None})
    def delete(self, request: Request, match_id: int) -> Response:
        """Undo the last hand: everything is derived again (its referee, organisers)."""
        match = access.refereed_match(request, match_id)
        result_services.hand_delete_last(match=match, deleted_by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
