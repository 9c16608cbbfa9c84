"""People: who played in the championships you may read, and a person's public history."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from api.serializers.persons import PersonHistorySerializer, PersonSerializer
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Person
from tournaments.people import history as people_history


def _may_search_licences(user) -> bool:
    """A licence number is personal data: only organisers and staff look one up."""
    return bool(
        user.is_authenticated and championship_selectors.championships_managed(user=user).exists()
    )


class PersonList(ApiView):
    """The people who played in the championships you may read, by name."""

    serializer_class = PersonSerializer
    queryset = Person.objects.none()  # the schema's model; reads go through the selectors

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "search",
                str,
                description="Words of the public name or the club (case and accents aside). "
                'A person shown as "Ana R." is never found by her surname.',
            ),
            OpenApiParameter(
                "licence",
                str,
                description="An exact licence number: organisers and staff only (403 else).",
            ),
        ],
        responses=PersonSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        search = request.query_params.get("search", "")[:100]
        licence = request.query_params.get("licence", "")[:50]
        if licence and not _may_search_licences(request.user):
            raise PermissionDenied(_("Only organisers may look a licence number up."))
        found = people_history.persons_search(
            search=search,
            licence=licence,
            championships=championship_selectors.championships_visible(user=request.user),
        )
        return self.paginated(found, PersonSerializer)


class PersonDetail(ApiView):
    """A person's public history: each championship with his team, partners, placement,
    record and matches, and his next match."""

    serializer_class = PersonHistorySerializer

    def get(self, request: Request, person_id: int) -> Response:
        visible = championship_selectors.championships_visible(user=request.user)
        history = people_history.person_public(person_id=person_id, championships=visible)
        if history is None:
            raise Http404("No such person.")
        serializer = PersonHistorySerializer(history, context=self.get_serializer_context())
        return Response(serializer.data)
