"""Statistics from the hands: a championship's, a team's, a person's (read from what is
kept with the hands: ``tournaments.ratings.statistics_selectors``)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.serializers.statistics import ChampionshipStatisticsSerializer, TotalsSerializer
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Person, RatingFamily
from tournaments.ratings import statistics_selectors


class ChampionshipStatistics(ApiView):
    """A championship's statistics: its sums, each team's and each player's, its biggest
    hand and its longest match."""

    serializer_class = ChampionshipStatisticsSerializer

    def get(self, request: Request, slug: str) -> Response:
        championship = access.championship(request, slug)
        found = statistics_selectors.championship_statistics(championship=championship)
        return Response(ChampionshipStatisticsSerializer(found).data)


class TeamStatistics(ApiView):
    """A team's statistics over every hand it played."""

    serializer_class = TotalsSerializer

    def get(self, request: Request, slug: str, team_id: int) -> Response:
        championship = access.championship(request, slug)
        team = championship_selectors.team_list(championship=championship).filter(pk=team_id)
        found = team.first()
        if found is None:
            raise Http404("No such team.")
        return Response(TotalsSerializer(statistics_selectors.team_statistics(team=found)).data)


class PersonStatistics(ApiView):
    """A person's statistics over the hands he played in the championships you may read:
    in one rules family with ``?family=argentine`` or ``catalan`` (an Argentine envido and
    a Catalan hand are different games), else every family together."""

    serializer_class = TotalsSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "family",
                str,
                OpenApiParameter.QUERY,
                required=False,
                enum=list(RatingFamily.values),
                description="Only the hands of this rules family.",
            )
        ]
    )
    def get(self, request: Request, person_id: int) -> Response:
        family = request.query_params.get("family")
        if family is not None and family not in RatingFamily.values:
            raise ValidationError({"family": [_("Choose argentine or catalan.")]})
        visible = championship_selectors.championships_visible(user=request.user)
        person = Person.objects.filter(pk=person_id).first()
        if person is None:
            raise Http404("No such person.")
        if family is None:
            totals = statistics_selectors.person_statistics(person=person, championships=visible)
        else:
            families = statistics_selectors.person_statistics_by_family(
                person=person, championships=visible
            )
            found = {f.family: f.totals for f in families}
            totals = found.get(family, statistics_selectors.Totals())
        if (
            not totals.hands
            and not person.players.filter(memberships__team__championship__in=visible).exists()
        ):
            raise Http404("No such person.")
        return Response(TotalsSerializer(totals).data)
