"""Championships: list, create, read, change, move their status, who keeps the score."""

from __future__ import annotations

import django_filters
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.serializers.championships import (
    ChampionshipCreateSerializer,
    ChampionshipSerializer,
    ChampionshipUpdateSerializer,
    StatusSerializer,
)
from api.serializers.results import ScorekeepingPostSerializer
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.models import Championship

_DETAILS = ("name", "start_date", "end_date", "venue", "time_zone")


class ChampionshipFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Championship.Status.choices)

    class Meta:
        model = Championship
        fields = ["status"]


class ChampionshipList(ApiView):
    """Championships you may read: every public one, and the drafts you organise."""

    writers = "authenticated"
    serializer_class = ChampionshipSerializer
    filterset_class = ChampionshipFilter

    def get_queryset(self):
        visible = championship_selectors.championships_visible(user=self.request.user)
        return visible.order_by("-start_date", "name")

    @extend_schema(responses=ChampionshipSerializer(many=True))
    def get(self, request: Request) -> Response:
        return self.paginated(self.filter_queryset(self.get_queryset()), ChampionshipSerializer)

    @extend_schema(request=ChampionshipCreateSerializer, responses={201: ChampionshipSerializer})
    def post(self, request: Request) -> Response:
        """Create a draft championship; you become its organiser."""
        data = self.valid(ChampionshipCreateSerializer, request).validated_data
        championship = championship_services.championship_create(**data, organisers=[request.user])
        return Response(ChampionshipSerializer(championship).data, status=status.HTTP_201_CREATED)


class ChampionshipDetail(ApiView):
    """A championship: its details, rules and tie-breaks."""

    writers = "organisers"
    serializer_class = ChampionshipSerializer

    def get(self, request: Request, slug: str) -> Response:
        return Response(ChampionshipSerializer(access.championship(request, slug)).data)

    @extend_schema(request=ChampionshipUpdateSerializer, responses={200: ChampionshipSerializer})
    def patch(self, request: Request, slug: str) -> Response:
        """Change the details (any time), the rules and tie-breaks (until the first hand)."""
        championship = access.managed_championship(request, slug)
        data = self.valid(ChampionshipUpdateSerializer, request).validated_data
        details = set(_DETAILS) & set(data)
        rules = {"preset", "options"} & set(data)
        serialized = ChampionshipSerializer(championship).data
        with transaction.atomic():
            if details:
                championship = championship_services.championship_update(
                    championship=championship,
                    **{key: data.get(key, getattr(championship, key)) for key in _DETAILS},
                )
            if rules:
                championship = championship_services.championship_update_rules(
                    championship=championship,
                    preset=data.get("preset", serialized["preset"]),
                    # The choices as stored, not the options in force the reads show: a
                    # new preset keeps the organiser's choices, and its own defaults.
                    options=data.get(
                        "options", championship_selectors.rule_options_chosen(championship)
                    ),
                    tiebreaks=data.get("tiebreaks"),
                )
            elif "tiebreaks" in data:
                championship = championship_services.championship_set_tiebreaks(
                    championship=championship, tiebreaks=data["tiebreaks"]
                )
        championship.refresh_from_db()
        return Response(ChampionshipSerializer(championship).data)


class ChampionshipStatus(ApiView):
    """A championship's status."""

    writers = "organisers"
    serializer_class = StatusSerializer

    @extend_schema(request=StatusSerializer, responses={200: ChampionshipSerializer})
    def post(self, request: Request, slug: str) -> Response:
        """Move the status one step on (draft → registration → running → finished) or back."""
        championship = access.managed_championship(request, slug)
        data = self.valid(StatusSerializer, request).validated_data
        championship = championship_services.championship_set_status(
            championship=championship, status=data["status"]
        )
        return Response(ChampionshipSerializer(championship).data)


class ChampionshipScorekeeping(ApiView):
    """Who keeps the score in a championship."""

    writers = "organisers"
    serializer_class = ChampionshipSerializer

    @extend_schema(request=ScorekeepingPostSerializer, responses={200: ChampionshipSerializer})
    def post(self, request: Request, slug: str) -> Response:
        """Who keeps the score (``scorekeeping``) and how many minutes a team has to answer
        a reported result (``confirm_within``): for the results still to come, none
        recorded changes."""
        championship = access.managed_championship(request, slug)
        data = self.valid(ScorekeepingPostSerializer, request).validated_data
        championship = championship_services.championship_scorekeeping_set(
            championship=championship,
            scorekeeping=data["scorekeeping"],
            confirm_within=data.get("confirm_within"),
        )
        return Response(ChampionshipSerializer(championship).data)
