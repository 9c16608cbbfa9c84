"""A championship's list of referees: who referees its matches, and a referee added."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import ChampionshipReferee


class RefereeSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    name = serializers.CharField(
        source="user.get_full_name", read_only=True, help_text="His full name (may be empty)."
    )
    open_matches = serializers.IntegerField(
        read_only=True, help_text="His undecided matches in this championship."
    )

    class Meta:
        model = ChampionshipReferee
        fields = ["username", "name", "added_at", "open_matches"]
        read_only_fields = fields


class RefereeAddSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150, help_text="An active user's name: he referees in this championship."
    )
