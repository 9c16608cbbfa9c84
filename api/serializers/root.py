"""The API's root: where each of its resources starts."""

from __future__ import annotations

from rest_framework import serializers


class RatingsLinksSerializer(serializers.Serializer):
    argentine = serializers.URLField(help_text="The Argentine truco leaderboard.")
    catalan = serializers.URLField(help_text="The Catalan truc leaderboard.")


class RootSerializer(serializers.Serializer):
    championships = serializers.URLField(help_text="Every championship you may read.")
    persons = serializers.URLField(help_text="The people who played, by name.")
    circuits = serializers.URLField(help_text="Every circuit.")
    ratings = RatingsLinksSerializer(help_text="The leaderboards, one per rules family.")
    token = serializers.URLField(help_text="POST a user name and password for a token.")
    schema = serializers.URLField(help_text="This API's OpenAPI 3 schema.")
    docs = serializers.URLField(help_text="The interactive documentation (Swagger UI).")
