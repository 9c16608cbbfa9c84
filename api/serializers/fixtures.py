"""A championship's fixtures (league matchdays, or any match with a time) and their
postponements."""

from __future__ import annotations

import zoneinfo

from rest_framework import serializers

from api.serializers.matches import THREE_ONLY, TeamBriefSerializer, table_only
from api.serializers.text import MULTILINE
from tournaments.models import Match, Postponement

# A table of three's third player, his chicos and the places: in its fixtures only.
FIXTURE_TABLE_FIELDS = ("team_c", "chicos_c", "places")


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
    team_c = TeamBriefSerializer(required=False, help_text=f"The third player. {THREE_ONLY}")
    chicos_c = serializers.IntegerField(required=False, help_text=THREE_ONLY)
    places = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Each team's place at the table (team id -> 1, 2 or 3; shared places "
        f"repeat); empty before the first hand. {THREE_ONLY}",
    )
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
            "team_c",
            "chicos_c",
            "places",
            "postponed",
            "postponements",
        ]
        read_only_fields = [f for f in fields if f not in FIXTURE_TABLE_FIELDS]

    def to_representation(self, match: Match) -> dict:
        three = match.team_c_id is not None
        return table_only(super().to_representation(match), three, FIXTURE_TABLE_FIELDS)

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
    to = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="The new date and time (ISO 8601, with an offset); left out or null: "
        "postponed, its date to be fixed later.",
    )
    reason = serializers.CharField(max_length=2000, style=MULTILINE)
    venue_name = serializers.CharField(max_length=200, required=False)
    venue_address = serializers.CharField(max_length=300, required=False, allow_blank=True)
