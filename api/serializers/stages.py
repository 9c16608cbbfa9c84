"""Stages, rounds, standings and brackets."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.matches import MatchSerializer
from tournaments.models import Round, Scorekeeping, Stage
from tournaments.stages import registry
from tournaments.standings import tiebreaks

FORMATS = list(registry.FORMATS)


class GroupSerializer(serializers.Serializer):
    name = serializers.CharField()
    teams = serializers.ListField(child=serializers.IntegerField())


class StageSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField(
        help_text="The organiser's name for it, or its format's in the request's language."
    )
    format_display = serializers.SerializerMethodField()
    settings = serializers.SerializerMethodField()
    teams = serializers.SerializerMethodField()
    groups = serializers.SerializerMethodField()
    has_bracket = serializers.SerializerMethodField()
    has_groups = serializers.SerializerMethodField()
    scorekeeping = serializers.ChoiceField(
        choices=Scorekeeping.choices,
        allow_blank=True,
        read_only=True,
        help_text="Who keeps the score in this stage where it differs from the championship "
        "(empty: as the championship).",
    )
    scorekeeping_in_force = serializers.ChoiceField(
        choices=Scorekeeping.choices,
        read_only=True,
        help_text="Who keeps the score in this stage: its own choice, else the championship's.",
    )

    class Meta:
        model = Stage
        fields = [
            "id",
            "name",
            "order",
            "format",
            "format_display",
            "settings",
            "teams",
            "has_bracket",
            "has_groups",
            "groups",
            "scorekeeping",
            "scorekeeping_in_force",
        ]
        read_only_fields = fields

    def get_name(self, stage: Stage) -> str:
        return registry.stage_name(stage)

    def get_format_display(self, stage: Stage) -> str:
        return registry.label(stage.format)

    @extend_schema_field({"type": "object", "additionalProperties": True})
    def get_settings(self, stage: Stage) -> dict[str, Any]:
        # The format's settings only: the bracket positions and schedules are internal.
        fmt = registry.FORMATS.get(stage.format)
        keys = set(fmt.defaults) if fmt is not None else set()
        return {key: value for key, value in stage.settings.items() if key in keys}

    def get_teams(self, stage: Stage) -> list[int]:
        return [team.pk for team in stage.teams.all()]

    @extend_schema_field(GroupSerializer(many=True))
    def get_groups(self, stage: Stage) -> list[dict]:
        return [
            {"name": group.name, "teams": [team.pk for team in group.teams.all()]}
            for group in stage.groups.all()
        ]

    def get_has_bracket(self, stage: Stage) -> bool:
        fmt = registry.FORMATS.get(stage.format)
        return bool(fmt and fmt.has_bracket)

    def get_has_groups(self, stage: Stage) -> bool:
        fmt = registry.FORMATS.get(stage.format)
        return bool(fmt and fmt.has_groups)


class StageCreateSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=FORMATS)
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    settings = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="The format's settings (docs/tournaments.md); unknown ones are refused.",
    )
    teams = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Team ids; default every team of the championship.",
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(tiebreaks.TIEBREAKS)),
        required=False,
        allow_empty=False,
        help_text="The championship's tie-break chain, changed with the stage.",
    )


class RoundSerializer(serializers.ModelSerializer):
    matches = MatchSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["id", "number", "label", "matches"]
        read_only_fields = fields


class RoundGenerateSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The round you mean to generate: if it already exists, 409 (round_exists).",
    )


class GeneratedSerializer(serializers.Serializer):
    matches = MatchSerializer(many=True)


class TeamNameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class StandingLineSerializer(serializers.Serializer):
    team = TeamNameSerializer()
    rank = serializers.IntegerField()
    position = serializers.IntegerField()
    points = serializers.FloatField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    chicos_for = serializers.IntegerField()
    chicos_against = serializers.IntegerField()
    tantos_for = serializers.IntegerField()
    tantos_against = serializers.IntegerField()
    metrics = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="Tie-break key -> value (null where it does not apply).",
    )


class TieBreakColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    abbr = serializers.CharField()


class StandingsTableSerializer(serializers.Serializer):
    group = serializers.CharField(allow_null=True)
    lines = StandingLineSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    tiebreaks = TieBreakColumnSerializer(many=True)
    tables = StandingsTableSerializer(many=True)


class BracketSlotSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="W1-1, L2-1, GF, GF2, P3...")
    section = serializers.CharField()
    round = serializers.IntegerField()
    index = serializers.IntegerField()
    teams = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    winner = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField(allow_null=True)
    match = serializers.IntegerField(allow_null=True, help_text="The stored match, once made.")


class BracketSerializer(serializers.Serializer):
    finished = serializers.BooleanField()
    champion = serializers.IntegerField(allow_null=True)
    teams = TeamNameSerializer(many=True)
    slots = BracketSlotSerializer(many=True)
