"""A championship's open archive (docs/archive.md): one JSON document, no personal data.

Its organisers get theirs, which also keeps what the sides wrote to them when they
answered a result (a dispute's comment); everyone else, the public one without it."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.io.archive import archive_export, archive_file_name
from tournaments.models import Championship


class Archive(ApiView):
    """The whole championship as its open archive, for anyone to keep and check."""

    queryset = Championship.objects.none()  # the schema's model; the read is the export's

    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The archive (docs/archive.schema.json, its version in `version`):"
                " rules, people (public names only), teams, stages, rounds, matches, every"
                " hand record with its revisions. `python -m scoring archive-check` scores"
                " it again. What the sides wrote to the organiser (a dispute's comment) is"
                " empty, except for the championship's organisers.",
            ),
            404: OpenApiResponse(description="No such public championship (drafts included)."),
        },
    )
    def get(self, request: Request, slug: str) -> Response:
        championship = access.championship(request, slug)
        # A draft is nobody's to archive yet, its organisers' included: not public.
        if championship.status == Championship.Status.DRAFT:
            raise Http404("No such championship.")
        private = championship_selectors.can_manage(request.user, championship)
        response = Response(archive_export(championship, private=private))
        response["Content-Disposition"] = (
            f'attachment; filename="{archive_file_name(championship)}"'
        )
        return response
