"""Stages: list, create, read, who keeps their score; their rounds (and generating the
next), standings, bracket."""

from __future__ import annotations

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.serializers.results import StageScorekeepingPostSerializer
from api.serializers.stages import (
    BracketSerializer,
    GeneratedSerializer,
    RoundGenerateSerializer,
    RoundSerializer,
    StageCreateSerializer,
    StageSerializer,
    StandingsSerializer,
)
from api.views.base import ApiView
from tournaments.championships import services as championship_services
from tournaments.models import Group, Round, Stage
from tournaments.stages import selectors as stage_selectors
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors

_GROUPS = Prefetch("groups", queryset=Group.objects.prefetch_related("teams"))


def _stages(championship):
    return championship.stages.prefetch_related("teams", _GROUPS)


class StageList(ApiView):
    """The stages of a championship, in order."""

    writers = "organisers"
    serializer_class = StageSerializer
    queryset = Stage.objects.none()  # the schema's model; reads go through the selectors

    @extend_schema(responses=StageSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = access.championship(request, slug)
        return self.paginated(_stages(championship), StageSerializer)

    @extend_schema(request=StageCreateSerializer, responses={201: StageSerializer})
    def post(self, request: Request, slug: str) -> Response:
        """Add a stage in a format of the registry, with its settings and tie-breaks."""
        championship = access.managed_championship(request, slug)
        data = dict(self.valid(StageCreateSerializer, request).validated_data)
        if "teams" in data:
            chosen = set(data["teams"])
            data["teams"] = list(championship.teams.filter(pk__in=chosen))
            if len(data["teams"]) != len(chosen):
                message = _("A team is not a team of this championship.")
                raise serializers.ValidationError({"teams": [message]})
        stage = stage_services.stage_create(championship=championship, **data)
        return Response(
            StageSerializer(_stages(championship).get(pk=stage.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class StageDetail(ApiView):
    """A stage: its format, settings, teams and groups."""

    serializer_class = StageSerializer

    def get(self, request: Request, slug: str, stage_id: int) -> Response:
        stage = access.stage(request, slug, stage_id)
        return Response(StageSerializer(_stages(stage.championship).get(pk=stage.pk)).data)


class StageScorekeeping(ApiView):
    """Who keeps the score in a stage."""

    writers = "organisers"
    serializer_class = StageSerializer

    @extend_schema(request=StageScorekeepingPostSerializer, responses={200: StageSerializer})
    def post(self, request: Request, slug: str, stage_id: int) -> Response:
        """Who keeps the score in this stage when it differs from the championship
        (``scorekeeping``; empty: as the championship), for the results still to come."""
        championship = access.managed_championship(request, slug)
        stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
        data = self.valid(StageScorekeepingPostSerializer, request).validated_data
        championship_services.stage_scorekeeping_set(stage=stage, scorekeeping=data["scorekeeping"])
        return Response(StageSerializer(_stages(championship).get(pk=stage.pk)).data)


class RoundList(ApiView):
    """The rounds of a stage, each with its matches; POST generates the next one."""

    writers = "organisers"
    serializer_class = RoundSerializer
    queryset = Round.objects.none()

    @extend_schema(responses=RoundSerializer(many=True))
    def get(self, request: Request, slug: str, stage_id: int) -> Response:
        stage = access.stage(request, slug, stage_id)
        return self.paginated(stage_selectors.stage_rounds(stage=stage), RoundSerializer)

    @extend_schema(request=RoundGenerateSerializer, responses={201: GeneratedSerializer})
    def post(self, request: Request, slug: str, stage_id: int) -> Response:
        """Generate the next round (the format decides it); ``number`` guards a resend."""
        championship = access.managed_championship(request, slug)
        stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
        number = self.valid(RoundGenerateSerializer, request).validated_data.get("number")
        created = stage_services.round_generate(stage=stage, number=number)
        matches = stage_selectors.matches_of(ids=[m.pk for m in created])
        return Response(
            GeneratedSerializer({"matches": matches}).data, status=status.HTTP_201_CREATED
        )


class Standings(ApiView):
    """The standings of a stage, per group when it has groups, with every tie-break value."""

    serializer_class = StandingsSerializer

    def get(self, request: Request, slug: str, stage_id: int) -> Response:
        stage = access.stage(request, slug, stage_id)
        columns = standing_selectors.stage_tiebreak_columns(stage)
        tables = [
            {
                "group": group.name if group else None,
                "lines": standing_selectors.stage_standings(stage=stage, group=group),
            }
            for group in list(stage.groups.all()) or [None]
        ]
        return Response(StandingsSerializer({"tiebreaks": columns, "tables": tables}).data)


class Bracket(ApiView):
    """The bracket of an elimination stage (or the knockout after groups): every slot."""

    serializer_class = BracketSerializer

    def get(self, request: Request, slug: str, stage_id: int) -> Response:
        stage: Stage = access.stage(request, slug, stage_id)
        view = stage_selectors.stage_bracket(stage=stage)
        if view is None:
            data = {"finished": False, "champion": None, "teams": [], "slots": []}
            return Response(BracketSerializer(data).data)
        slots = [
            {
                "id": slot.id,
                "section": str(slot.section),
                "round": slot.round,
                "index": slot.index,
                "teams": list(slot.teams),
                "winner": slot.winner,
                "outcome": str(slot.outcome) if slot.outcome else None,
                "match": view.matches[slot.id].pk if slot.id in view.matches else None,
            }
            for slot in view.bracket.matches.values()
        ]
        data = {
            "finished": view.bracket.finished,
            "champion": view.bracket.champion,
            "teams": sorted(view.teams.values(), key=lambda team: team.pk),
            "slots": slots,
        }
        return Response(BracketSerializer(data).data)
