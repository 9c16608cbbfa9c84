"""API views: read-only, their querysets come from the selectors."""

from django.db.models import QuerySet
from rest_framework import viewsets

from api.serializers import ChampionshipSerializer
from tournaments.championships.selectors import championship_list_public
from tournaments.models import Championship


class ChampionshipViewSet(viewsets.ReadOnlyModelViewSet):
    """Public championships: ``/api/championships/`` and ``/api/championships/<slug>/``."""

    serializer_class = ChampionshipSerializer
    lookup_field = "slug"
    # Only a slug reaches the database: anything else (a NUL byte, which PostgreSQL refuses
    # with an error) is a 404 of the router.
    lookup_value_regex = r"[-a-zA-Z0-9_]+"

    def get_queryset(self) -> QuerySet[Championship]:
        return championship_list_public()
