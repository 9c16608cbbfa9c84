"""Matches: list and filter, read, assign, seat, walkover."""

from __future__ import annotations

import django_filters
from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.serializers.matches import (
    MatchAssignSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    SeatsSerializer,
    WalkoverSerializer,
)
from api.views.base import ApiView
from tournaments.models import Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services


class IdFilter(django_filters.NumberFilter):
    """A whole number within what the database stores (a huge one is a 400, not a 500)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, min_value=1, max_value=2**31 - 1, **kwargs)


class MatchFilter(django_filters.FilterSet):
    stage = IdFilter(field_name="stage_id", help_text="A stage's id.")
    round = IdFilter(field_name="round__number", help_text="A round's number (with stage).")
    status = django_filters.ChoiceFilter(choices=Match.Status.choices)
    team = IdFilter(method="filter_team", help_text="A team's id.")

    class Meta:
        model = Match
        fields = ["stage", "round", "status", "team"]

    def filter_team(self, queryset, name, value):
        return queryset.filter(Q(team_a_id=value) | Q(team_b_id=value) | Q(team_c_id=value))


class MatchList(ApiView):
    """The matches of a championship, filtered by stage, round, status or team."""

    serializer_class = MatchSerializer
    filterset_class = MatchFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema only needs the model
            return Match.objects.none()
        championship = access.championship(self.request, self.kwargs["slug"])
        return result_selectors.championship_matches(championship=championship)

    @extend_schema(responses=MatchSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        return self.paginated(self.filter_queryset(self.get_queryset()), MatchSerializer)


def detail_data(match_id: int) -> dict:
    """A match as ``GET matches/{id}/`` answers it."""
    match = result_selectors.match_detail(pk=match_id)
    context = {"names": records.names(match, public=True)}
    return MatchDetailSerializer(match, context=context).data


def _detail(match_id: int) -> Response:
    return Response(detail_data(match_id))


class MatchDetail(ApiView):
    """A match."""

    writers = "organisers"
    serializer_class = MatchDetailSerializer

    def get(self, request: Request, match_id: int) -> Response:
        """A match with its seats, games, score and the number of its next hand."""
        return _detail(access.match(request, match_id).pk)

    @extend_schema(request=MatchAssignSerializer, responses={200: MatchDetailSerializer})
    def patch(self, request: Request, match_id: int) -> Response:
        """Set the table, time, referee and hand entry (quick or cards) (organisers)."""
        match = access.managed_match(request, match_id)
        data = dict(self.valid(MatchAssignSerializer, request).validated_data)
        if "referee" in data:
            referee = get_user_model().objects.filter(username=data["referee"]).first()
            if referee is None:
                message = _("There is no user %(name)s.") % {"name": data["referee"]}
                raise serializers.ValidationError({"referee": [message]})
            data["referee"] = referee
        result_services.match_assign(match=match, **data)
        return _detail(match.pk)


class MatchSeats(ApiView):
    """A match's seating."""

    writers = "referees"
    serializer_class = SeatsSerializer

    @extend_schema(request=SeatsSerializer, responses={200: MatchDetailSerializer})
    def post(self, request: Request, match_id: int) -> Response:
        """Seat the players before the first hand (its referee, organisers)."""
        match = access.refereed_match(request, match_id)
        seats = self.valid(SeatsSerializer, request).validated_data.get("seats")
        result_services.match_start(match=match, seats=seats, by=request.user)
        return _detail(match.pk)


class MatchWalkover(ApiView):
    """A walkover or forfeit."""

    writers = "organisers"
    serializer_class = WalkoverSerializer

    @extend_schema(request=WalkoverSerializer, responses={200: MatchDetailSerializer})
    def post(self, request: Request, match_id: int) -> Response:
        """Decide the match without play (or a forfeit during play): organisers."""
        match = access.managed_match(request, match_id)
        data = self.valid(WalkoverSerializer, request).validated_data
        winner = next(
            (t for t in (match.team_a, match.team_b) if t is not None and t.pk == data["winner"]),
            None,
        )
        if winner is None:
            message = _("That team does not play this match.")
            raise serializers.ValidationError({"winner": [message]})
        result_services.match_walkover(
            match=match,
            winner=winner,
            reason=data["reason"],
            forfeit=data["forfeit"],
            recorded_by=request.user,
        )
        return _detail(match.pk)
