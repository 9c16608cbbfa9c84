"""Championships: what is read, and the requests that create and change them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import scoring
from tournaments.championships import selectors as championship_selectors
from tournaments.models import Championship, validate_time_zone
from tournaments.standings import tiebreaks

PRESETS = ["argentine", "argentine_flor", "trucardo", "catalan"]
TIEBREAKS = list(tiebreaks.TIEBREAKS)


def _options_schema() -> dict[str, Any]:
    """The ``options`` object in the OpenAPI schema, from the engine's table of options
    (``scoring.OPTIONS``): each option with every value some preset accepts and each
    preset's default, so the schema follows the engine without being retyped."""
    properties = {}
    for option in scoring.OPTIONS:
        values: list[Any] = []
        for family in option.values.values():
            values.extend(v for v in family if v not in values)
        defaults = ", ".join(f"{preset} {value}" for preset, value in option.defaults.items())
        properties[option.key] = {"enum": values, "description": f"Defaults: {defaults}."}
    return {
        "type": "object",
        "description": "Every option of the preset's family with the value in force: the "
        "preset's default unless the organiser chose another (docs/rules.md).",
        "properties": properties,
        "additionalProperties": False,
    }


OPTIONS_SCHEMA = _options_schema()


class ChampionshipSerializer(serializers.ModelSerializer):
    status_display = serializers.CharField(source="get_status_display", read_only=True)
    preset = serializers.SerializerMethodField()
    options = serializers.SerializerMethodField()

    class Meta:
        model = Championship
        fields = [
            "slug",
            "name",
            "status",
            "status_display",
            "start_date",
            "end_date",
            "venue",
            "time_zone",
            "preset",
            "options",
            "team_size",
            "tiebreaks",
            "scorekeeping",
            "confirm_within",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "scorekeeping": {
                "help_text": "Who keeps the score at the tables: referees (the tablet), "
                "players (a player's phone, hand by hand) or results (the teams report their "
                "result, the desk types it). A stage may choose its own."
            },
            "confirm_within": {
                "help_text": "Minutes a team has to answer a result the other team reported "
                "before the match goes to the organiser's results to settle."
            },
        }

    def get_preset(self, championship: Championship) -> str:
        rules = championship.rules
        return rules if isinstance(rules, str) else str(rules.get("preset", ""))

    @extend_schema_field(OPTIONS_SCHEMA)
    def get_options(self, championship: Championship) -> dict[str, Any]:
        return championship_selectors.rule_options_in_force(championship)


class ChampionshipCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=100)
    start_date = serializers.DateField()
    end_date = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        validators=[validate_time_zone],
        help_text="IANA time zone of the venue (default: the site's); match times use it.",
    )
    preset = serializers.ChoiceField(choices=PRESETS, default="argentine")
    options = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="Rule options of the preset (the rules engine checks them).",
    )
    team_size = serializers.IntegerField(min_value=1, max_value=4, default=2)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False, allow_empty=False
    )
    seed = serializers.CharField(max_length=100, required=False, allow_blank=True)


class ChampionshipUpdateSerializer(serializers.Serializer):
    """Every field optional: details at any time; rules and tie-breaks until the first hand."""

    name = serializers.CharField(max_length=200, required=False)
    start_date = serializers.DateField(required=False)
    end_date = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    time_zone = serializers.CharField(
        max_length=64, required=False, validators=[validate_time_zone]
    )
    preset = serializers.ChoiceField(choices=PRESETS, required=False)
    options = serializers.DictField(child=serializers.JSONField(), required=False)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS), required=False, allow_empty=False
    )


class StatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Championship.Status.choices)
