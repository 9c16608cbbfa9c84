"""A championship's fixtures, and a match postponed."""

from __future__ import annotations

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.serializers.fixtures import FixtureSerializer, PostponeSerializer
from api.views.base import ApiView
from tournaments.models import Match, Postponement
from tournaments.stages import fixtures as fixture_selectors
from tournaments.stages import league


def _with_history(matches):
    return matches.prefetch_related(
        Prefetch("postponements", queryset=Postponement.objects.order_by("at", "pk"))
    )


class FixtureList(ApiView):
    """Every match of the championship with a date and time, and those postponed with
    their date to be fixed (``scheduled_at`` null), in playing order."""

    serializer_class = FixtureSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        championship = access.championship(self.request, self.kwargs["slug"])
        return _with_history(fixture_selectors.feed_matches(championship=championship))

    @extend_schema(responses=FixtureSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        """Dates, times, venues, matchdays and postponements (public)."""
        return self.paginated(self.get_queryset(), FixtureSerializer)


class MatchPostpone(ApiView):
    """A match postponed to another date (and venue)."""

    writers = "organisers"
    serializer_class = PostponeSerializer

    @extend_schema(request=PostponeSerializer, responses={201: FixtureSerializer})
    def post(self, request: Request, match_id: int) -> Response:
        """Postpone the match, with a reason (organisers): refused outside the season, on a
        day one of its teams already plays, and for a decided match."""
        match = access.managed_match(request, match_id)
        data = self.valid(PostponeSerializer, request).validated_data
        to = data.pop("to", None)
        league.match_postpone(match=match, to=to, by=request.user, **data)
        found = _with_history(
            Match.objects.filter(pk=match.pk).select_related(
                "stage__championship", "round", "team_a", "team_b", "team_c"
            )
        ).get()
        return Response(FixtureSerializer(found).data, status=status.HTTP_201_CREATED)
