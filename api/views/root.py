"""The API's root, ``/api/v1/``: the addresses of its resources (public)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api.serializers.root import RootSerializer
from api.views.base import ApiView
from tournaments.models import RatingFamily


class Root(ApiView):
    """Where each resource starts: the championships, persons, circuits and leaderboards
    (the rest is reached from them), how to get a token, the schema and its docs."""

    serializer_class = RootSerializer
    pagination_class = None
    filter_backends: list = []

    @extend_schema(operation_id="v1_root")
    def get(self, request: Request) -> Response:
        def link(name: str, *args: str) -> str:
            return request.build_absolute_uri(reverse(name, args=args))

        data = {
            "championships": link("api:championships"),
            "persons": link("api:persons"),
            "circuits": link("api:circuits"),
            "ratings": {family: link("api:ratings", family) for family in RatingFamily.values},
            "token": link("api:token"),
            "schema": link("api:schema"),
            "docs": link("api:docs"),
        }
        return Response(RootSerializer(data).data)
