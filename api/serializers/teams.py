"""Teams and their players."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.text import one_line
from tournaments.models import SEED_MAX, Membership, Player, Team
from tournaments.text import one_line_validator

# A player's details only the championship's organisers read (serializer context
# ``private``); the public never gets them, whatever it asks.
PRIVATE = ("licence", "email", "phone")


def _private(field: str, help_text: str) -> serializers.CharField:
    # Not read_only, which the schema would mark required: these are left out of every
    # answer but the organisers', so the schema says they may be missing. The serializer
    # only ever writes answers (a team is created through TeamCreateSerializer).
    return serializers.CharField(
        source=f"player.person.{field}", required=False, help_text=help_text
    )


class MemberSerializer(serializers.ModelSerializer):
    id = serializers.IntegerField(source="player.pk", read_only=True)
    key = serializers.CharField(
        source="player.record_key", read_only=True, help_text="The player in hand records."
    )
    name = serializers.CharField(
        source="player.public_name", read_only=True, help_text='As the public sees it ("Ana R.").'
    )
    club = serializers.CharField(source="player.club", read_only=True)
    person = serializers.IntegerField(
        source="player.person_id",
        read_only=True,
        help_text="The person behind the player: the same id in every championship he plays.",
    )
    public_name = serializers.CharField(
        source="player.person.public_name",
        read_only=True,
        help_text='The person\'s name as the public sees it ("Ana R." if he asked for it).',
    )
    licence = _private("licence", "The person's licence number: for the organisers only.")
    email = _private("email", "The person's email: for the organisers only.")
    phone = _private("phone", "The person's phone: for the organisers only.")

    class Meta:
        model = Membership
        fields = [
            "id",
            "key",
            "name",
            "club",
            "order",
            "is_captain",
            "person",
            "public_name",
            *PRIVATE,
        ]
        read_only_fields = fields[:-3]

    def to_representation(self, instance: Membership) -> dict[str, Any]:
        data = super().to_representation(instance)
        if not self.context.get("private"):
            for field in PRIVATE:
                data.pop(field, None)
        return data


class TeamSerializer(serializers.ModelSerializer):
    players = MemberSerializer(source="memberships", many=True, read_only=True)

    class Meta:
        model = Team
        fields = [
            "id",
            "name",
            "seed",
            "club",
            "players",
            "venue_name",
            "venue_address",
            "home_weekday",
            "home_time",
        ]
        read_only_fields = fields


class PlayerInputSerializer(serializers.Serializer):
    """A player entered with more than his name: write-only, never read back publicly."""

    name = serializers.CharField(max_length=200)
    licence = serializers.CharField(max_length=50, required=False, allow_blank=True, default="")
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    person = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        help_text="An existing person this player is (one of his likely matches: same name"
        " without case or accents, same club where both have one).",
    )


_PLAYER_INPUT_SCHEMA = {
    "oneOf": [
        {"type": "string", "maxLength": 200, "description": "The player's name."},
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "maxLength": 200, "minLength": 1},
                "licence": {"type": "string", "maxLength": 50},
                "email": {"type": "string", "format": "email"},
                "phone": {"type": "string", "maxLength": 40},
                "person": {"type": "integer", "minimum": 1, "nullable": True},
            },
            "required": ["name"],
        },
    ]
}


@extend_schema_field(_PLAYER_INPUT_SCHEMA)
class PlayerInputField(serializers.Field):
    """A player as a name, or as an object with his licence, contact and person."""

    default_error_messages = {"invalid": "A player is a name or an object with a name."}

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, str):
            name = serializers.CharField(max_length=200, validators=[one_line_validator])
            name = name.run_validation(data)
            return {"name": name, "licence": "", "email": "", "phone": "", "person": None}
        if not isinstance(data, dict):
            self.fail("invalid")
        serializer = PlayerInputSerializer(data=data)
        one_line(serializer.fields.values())
        if not serializer.is_valid():
            raise serializers.ValidationError(serializer.errors)
        return dict(serializer.validated_data)

    def to_representation(self, value: Any) -> Any:
        return value


class TeamCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    seed = serializers.IntegerField(
        min_value=1, max_value=SEED_MAX, required=False, allow_null=True
    )
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    players = serializers.ListField(
        child=PlayerInputField(),
        required=False,
        default=list,
        help_text="The players in seating order: names, or objects with a name and, as"
        " known, licence, email, phone (write-only: read back by the organisers alone)"
        " and person (an existing person's id).",
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
    venue_name = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="Its home venue (leagues)."
    )
    venue_address = serializers.CharField(max_length=300, required=False, allow_blank=True)
    home_weekday = serializers.IntegerField(
        min_value=0,
        max_value=6,
        required=False,
        allow_null=True,
        help_text="Its home night, 0 Monday to 6 Sunday; null: the league's.",
    )
    home_time = serializers.TimeField(
        required=False, allow_null=True, help_text="Its home hour; null: the league's."
    )


HOME_FIELDS = ("venue_name", "venue_address", "home_weekday", "home_time")


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
