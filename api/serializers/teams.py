"""Teams and their players."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import SEED_MAX, Membership, Player, Team


class MemberSerializer(serializers.ModelSerializer):
    id = serializers.IntegerField(source="player.pk", read_only=True)
    key = serializers.CharField(
        source="player.record_key", read_only=True, help_text="The player in hand records."
    )
    name = serializers.CharField(
        source="player.public_name", read_only=True, help_text='As the public sees it ("Ana R.").'
    )
    club = serializers.CharField(source="player.club", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "key", "name", "club", "order", "is_captain"]
        read_only_fields = fields


class TeamSerializer(serializers.ModelSerializer):
    players = MemberSerializer(source="memberships", many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "seed", "club", "players"]
        read_only_fields = fields


class TeamCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    seed = serializers.IntegerField(
        min_value=1, max_value=SEED_MAX, required=False, allow_null=True
    )
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    players = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        default=list,
        help_text="Player names in seating order.",
    )
    captain = serializers.CharField(
        max_length=200,
        required=False,
        allow_null=True,
        help_text="The cap de colla (Catalan truc): one of the players' names.",
    )


class TeamUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    seed = serializers.IntegerField(min_value=1, max_value=SEED_MAX, required=False)


class TeamImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="CSV, one row per player (docs/csv.md).")


class TeamImportResultSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    teams = TeamSerializer(many=True)


class TeamRefSerializer(serializers.ModelSerializer):
    championship = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "championship"]
        read_only_fields = fields


class ChampionshipRefSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class PlayerSerializer(serializers.ModelSerializer):
    name = serializers.CharField(
        source="public_name", read_only=True, help_text='As the public sees it ("Ana R.").'
    )
    person = serializers.IntegerField(
        source="person_id", read_only=True, help_text="His person: /api/v1/persons/{id}/."
    )
    teams = serializers.SerializerMethodField()
    championships = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "club", "person", "teams", "championships"]
        read_only_fields = fields

    def _teams(self, player: Player) -> list[Team]:
        return self.context["teams"]

    @extend_schema_field(TeamRefSerializer(many=True))
    def get_teams(self, player: Player) -> list[dict]:
        return TeamRefSerializer(self._teams(player), many=True).data

    @extend_schema_field(ChampionshipRefSerializer(many=True))
    def get_championships(self, player: Player) -> list[dict]:
        seen = {t.championship.slug: t.championship for t in self._teams(player)}
        return ChampionshipRefSerializer(seen.values(), many=True).data
