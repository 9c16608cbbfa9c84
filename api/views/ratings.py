"""Ratings: a family's leaderboard, a person's ratings with their history (public)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api.serializers.ratings import LeaderboardLineSerializer, PersonRatingsSerializer
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Person, Rating, RatingFamily
from tournaments.ratings import selectors as rating_selectors
from tournaments.ratings import skill


class Leaderboard(ApiView):
    """A rules family's leaderboard: the people with at least ``min_matches`` rated
    matches (5), best cautious rating first."""

    serializer_class = LeaderboardLineSerializer
    queryset = Rating.objects.none()  # the schema's model; reads go through the selectors

    @extend_schema(
        parameters=[
            OpenApiParameter("family", str, OpenApiParameter.PATH, enum=list(RatingFamily.values)),
        ],
        responses=LeaderboardLineSerializer(many=True),
    )
    def get(self, request: Request, family: str) -> Response:
        if family not in RatingFamily.values:
            raise Http404("No such rules family.")
        lines = rating_selectors.leaderboard(
            family=family, min_matches=skill.MIN_MATCHES, limit=None
        )
        return self.paginated(lines, LeaderboardLineSerializer)


class PersonRatings(ApiView):
    """A person's ratings, one per rules family he played in, each with its history. A
    person whose every team is in a draft answers 404 to anyone who may not read it."""

    serializer_class = PersonRatingsSerializer
    queryset = Person.objects.none()  # the schema's model; reads go through the selectors

    def get(self, request: Request, person_id: int) -> Response:
        person = Person.objects.filter(pk=person_id).first()
        if person is None:
            raise Http404("No such person.")
        ratings = rating_selectors.person_ratings(person_id=person_id)
        visible = championship_selectors.championships_visible(user=request.user)
        seen = Person.objects.filter(
            pk=person_id, players__memberships__team__championship__in=visible
        )
        if not ratings and not seen.exists():
            raise Http404("No such person.")
        data = {"id": person.pk, "name": person.public_name, "ratings": ratings}
        return Response(PersonRatingsSerializer(data, context=self.get_serializer_context()).data)
