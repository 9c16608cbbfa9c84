"""People: who played in the championships you may read, a person's public history, and
two records of one human merged (the rules are ``tournaments.people.services.merges``')."""

from __future__ import annotations

from django.http import Http404, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from api.serializers.persons import (
    PersonHistorySerializer,
    PersonMergeAgreedSerializer,
    PersonMergeAgreeSerializer,
    PersonMergeSerializer,
    PersonSerializer,
)
from api.views.base import ApiView
from tournaments import tasks
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Person
from tournaments.people import history as people_history
from tournaments.people import selectors as people_selectors
from tournaments.people import services as people_services


def _may_search_licences(user) -> bool:
    """A licence number is personal data: only organisers and staff look one up, and
    only among the people of the championships they manage."""
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
                description="An exact licence number, looked up among the people of the"
                " championships you manage: organisers and staff only (403 else).",
            ),
        ],
        responses=PersonSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        search = request.query_params.get("search", "")[:100]
        licence = request.query_params.get("licence", "")[:50]
        if licence and not _may_search_licences(request.user):
            raise PermissionDenied(_("Only organisers may look a licence number up."))
        championships = championship_selectors.championships_visible(user=request.user)
        if licence:
            # Who holds a licence number is told only about one's own championships' people.
            championships = championship_selectors.championships_managed(user=request.user)
        found = people_history.persons_search(
            search=search, licence=licence, championships=championships
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
            kept = people_selectors.merged_into(person_id)
            if kept is not None:
                # A record merged into another: the person kept, at his address.
                return HttpResponsePermanentRedirect(reverse("api:person", args=[kept]))
            raise Http404("No such person.")
        serializer = PersonHistorySerializer(history, context=self.get_serializer_context())
        return Response(serializer.data)


class PersonMerge(ApiView):
    """Make two records of one human one, for an organiser of every championship of both:
    ``drop``'s players move to ``keep`` (no hand record changes) and ``drop``'s address
    redirects to ``keep``'s. 403 ``merge_not_managed`` when some are other organisers'
    (``persons/merge/agree/`` asks them); 400 with a sentence for two licence numbers or
    two records playing in one championship; 409 ``merge_gone`` when merged meanwhile."""

    writers = "authenticated"
    serializer_class = PersonMergeSerializer

    @extend_schema(request=PersonMergeSerializer, responses={200: PersonSerializer})
    def post(self, request: Request) -> Response:
        data = self.valid(PersonMergeSerializer, request).validated_data
        kept = people_services.person_merge(
            keep=Person(pk=data["keep"]), drop=Person(pk=data["drop"]), by=request.user
        )
        tasks.rebuild_ratings_on_commit()  # their matches now rate one person
        return Response(PersonSerializer(kept, context=self.get_serializer_context()).data)


class PersonMergeAgree(ApiView):
    """Say that a person of your championships and another record are one human: the
    merge is made when the organisers who said so manage every championship of the two
    between them (the record with more history is kept), else it waits for the others,
    who answer on their People page. Nothing of the other record is answered here."""

    writers = "authenticated"
    serializer_class = PersonMergeAgreeSerializer

    @extend_schema(request=PersonMergeAgreeSerializer, responses={200: PersonMergeAgreedSerializer})
    def post(self, request: Request) -> Response:
        data = self.valid(PersonMergeAgreeSerializer, request).validated_data
        kept = people_services.person_merge_agree(
            person=Person(pk=data["person"]), other=Person(pk=data["other"]), by=request.user
        )
        if kept is not None:
            tasks.rebuild_ratings_on_commit()
        answer = {"merged": kept is not None, "person": kept}
        context = self.get_serializer_context()
        return Response(PersonMergeAgreedSerializer(answer, context=context).data)
