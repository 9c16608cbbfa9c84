"""Serializers of the API: plain data out, no logic."""

from rest_framework import serializers

from tournaments.models import Championship


class ChampionshipSerializer(serializers.ModelSerializer):
    status_display = serializers.CharField(source="get_status_display", read_only=True)

    class Meta:
        model = Championship
        fields = ["slug", "name", "status", "status_display", "start_date", "end_date", "venue"]
        read_only_fields = fields
