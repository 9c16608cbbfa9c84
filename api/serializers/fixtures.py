"""A championship's fixtures (league matchdays, or any match with a time) and their
postponements."""

from __future__ import annotations

import zoneinfo

from rest_framework import serializers

from api.serializers.matches import TeamBriefSerializer
from api.serializers.text import MULTILINE
from tournaments.models import Match, Postponement


class PostponementSerializer(serializers.ModelSerializer):
    class Meta:
        model = Postponement
        fields = ["from_at", "to_at", "from_venue", "to_venue", "reason", "at"]
        read_only_fields = fields


class FixtureSerializer(serializers.ModelSerializer):
    matchday = serializers.IntegerField(source="round.number", read_only=True)
    matchday_name = serializers.SerializerMethodField(
        help_text="Its matchday's (or round's) name, in the request's language."
    )
    matchday_date = serializers.DateField(
        source="round.date", read_only=True, allow_null=True, help_text="The matchday's date."
    )
    local_time = serializers.SerializerMethodField(
        help_text="scheduled_at in the championship's time zone (ISO 8601, with its offset)."
    )
    time_zone = serializers.CharField(source="stage.championship.time_zone", read_only=True)
    home = TeamBriefSerializer(source="team_a", read_only=True)
    away = TeamBriefSerializer(source="team_b", read_only=True)
    postponed = serializers.SerializerMethodField(
        help_text="Moved from its matchday and still to be played."
    )
    postponements = PostponementSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "stage",
            "matchday",
            "matchday_name",
            "matchday_date",
            "scheduled_at",
            "local_time",
            "time_zone",
            "home",
            "away",
            "venue_name",
            "venue_address",
            "status",
            "chicos_a",
            "chicos_b",
            "postponed",
            "postponements",
        ]
        read_only_fields = fields

    def get_matchday_name(self, match: Match) -> str:
        return str(match.round.name_in(match.stage))

    def get_local_time(self, match: Match) -> str | None:
        if match.scheduled_at is None:
            return None
        zone = zoneinfo.ZoneInfo(match.stage.championship.time_zone)
        return match.scheduled_at.astimezone(zone).isoformat()

    def get_postponed(self, match: Match) -> bool:
        return match.postponed and not match.is_decided


class PostponeSerializer(serializers.Serializer):
    to = serializers.DateTimeField(help_text="The new date and time (ISO 8601, with an offset).")
    reason = serializers.CharField(max_length=2000, style=MULTILINE)
    venue_name = serializers.CharField(max_length=200, required=False)
    venue_address = serializers.CharField(max_length=300, required=False, allow_blank=True)
