"""The hand in progress of a match (docs/api.md, "The hand in progress").

The referee's tablet syncs the hand it is entering after every step; any device reading
the draft resumes it. One device holds a match: another one is refused with 409
``draft_other_device`` until it takes the match over (``takeover``), and a device that has
not seen another device's last change is refused with 409 ``draft_stale``. Both 409s carry
the draft as it is now, so the tablet can show it and offer to take over.

Where a player of the table keeps the score, a team of the match reads and writes its
draft through its personal link (``Authorization: TeamLink``, ``api.teamlink``): the
phone's sheet (``referees.views.team``) syncs here as the referee's tablet does.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, errors, idempotency
from api.serializers.matches import DraftPutSerializer, DraftSerializer
from api.teamlink import TeamLinkAuthentication, UserOrTeamLink, team_link
from api.views.base import ApiView
from api.views.hands import IDEMPOTENCY_KEY
from tournaments.entries import scoresheet
from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.results import drafts
from tournaments.results import selectors as result_selectors

REFUSALS = ("draft_other_device", "draft_stale")


class Draft(ApiView):
    """The hand in progress of a match, as the tablet holding it last synced it."""

    readers = "scorers"
    writers = "scorers"
    # A team's link too (only on the views that list it: elsewhere the header is unknown).
    authentication_classes = [TokenAuthentication, TeamLinkAuthentication, SessionAuthentication]
    permission_classes = [UserOrTeamLink]
    serializer_class = DraftSerializer
    queryset = Match.objects.none()  # the schema's model; reads go through the selectors

    def get(self, request: Request, match_id: int) -> Response:
        """The draft: the next hand's number, the hand so far, the device holding the
        match and the revision (``record`` {}, ``device`` "" and ``revision`` 0 when none
        was ever saved)."""
        match = access.scored_match(request, match_id)
        return Response(result_selectors.match_draft(match=match).to_dict())

    @extend_schema(
        request=DraftPutSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: DraftSerializer,
            409: OpenApiResponse(
                description="draft_other_device (another device holds the match) or "
                "draft_stale (the number is not the next hand's, or another device changed "
                "the draft since this one saw it); the body's ``draft`` is the draft now."
            ),
        },
    )
    def put(self, request: Request, match_id: int) -> Response:
        """Store the hand so far (the engine checks its events); the revision grows by one."""
        match = access.scored_match(request, match_id)
        data = self.valid(DraftPutSerializer, request).validated_data
        link = team_link(request)

        def save() -> Response:
            if link is not None:
                saved = scoresheet.link_draft_save(
                    team=link.team,
                    link=link,
                    match=match,
                    number=data["number"],
                    record=data["record"],
                    device=data["device"],
                    revision=data["revision"],
                    takeover=data["takeover"],
                )
            else:
                saved = drafts.draft_save(
                    match=match,
                    number=data["number"],
                    record=data["record"],
                    device=data["device"],
                    revision=data["revision"],
                    takeover=data["takeover"],
                    by=request.user,
                )
            # Stored as the next hand's: the hands before it are its number less one.
            now = result_selectors.draft_view(match=match, draft=saved, hands=saved.number - 1)
            return Response(now.to_dict())

        try:
            return idempotency.run_once(request, save)
        except TournamentError as error:
            if error.code not in REFUSALS:
                raise
            # Outside the write's transaction (rolled back): the draft as it is now.
            now = result_selectors.match_draft(match=match)
            extra = {key: error.params[key] for key in ("since", "expected") if key in error.params}
            body = errors.body(error.code, error.text, draft=now.to_dict(), **extra)
            return Response(body, status=409)
