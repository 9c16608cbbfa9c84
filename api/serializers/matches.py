"""Matches, their games and hands."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.text import MULTILINE
from tournaments.models import Game, Hand, Match, Team

_SIDES = {
    "type": "object",
    "properties": {
        "A": {"type": "integer"},
        "B": {"type": "integer"},
        "C": {"type": "integer", "description": "A table of three only (gallo)."},
    },
    "required": ["A", "B"],
}

# The fields of a table of three (gallo): in the payload of such a match only, so every
# two-sided payload stays as it was; not required in the schema (not read-only either,
# which drf-spectacular would list as required: these serializers are never read from).
TABLE_FIELDS = ("team_c", "chicos_c", "tantos_c", "places")
THREE_ONLY = "A table of three (gallo) only: absent from two-sided matches."


def table_only(data: dict[str, Any], three: bool, fields: tuple[str, ...]) -> dict[str, Any]:
    if not three:
        for name in fields:
            data.pop(name, None)
    return data


class TeamBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name"]
        read_only_fields = fields


class MatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    round_label = serializers.CharField(source="round.label", read_only=True)
    round_name = serializers.SerializerMethodField(
        help_text="The round's name for people (Semi-finals, Round 2), in the request's language."
    )
    group = serializers.SlugRelatedField(slug_field="name", read_only=True, allow_null=True)
    team_a = TeamBriefSerializer(read_only=True)
    team_b = TeamBriefSerializer(read_only=True, allow_null=True)
    team_c = TeamBriefSerializer(required=False, help_text=f"The third player. {THREE_ONLY}")
    chicos_c = serializers.IntegerField(required=False, help_text=THREE_ONLY)
    tantos_c = serializers.IntegerField(required=False, help_text=THREE_ONLY)
    places = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Each team's place at the table (team id -> 1, 2 or 3; shared places "
        f"repeat), as the rules engine ranks it; empty before the first hand. {THREE_ONLY}",
    )
    referee = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    outcome = serializers.CharField(
        read_only=True, help_text="played, walkover, forfeit, bye; empty until decided."
    )
    provisional = serializers.BooleanField(
        source="is_provisional",
        read_only=True,
        help_text="A result played to its end that its two sides have not both confirmed.",
    )
    confirmed_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When both sides had confirmed the result."
    )
    reason = serializers.CharField(
        source="reason_text",
        read_only=True,
        help_text="Why it was decided without play: the organiser's words, or Tanteo's own "
        "reason (reason_code) in the request's language.",
    )
    reason_code = serializers.CharField(
        read_only=True,
        help_text="absent: a team absent at check-in; empty: the reason is the organiser's.",
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "stage",
            "round",
            "round_label",
            "round_name",
            "group",
            "bracket_id",
            "team_a",
            "team_b",
            "team_c",
            "table",
            "scheduled_at",
            "referee",
            "status",
            "outcome",
            "best_of",
            "entry",
            "winner",
            "chicos_a",
            "chicos_b",
            "tantos_a",
            "tantos_b",
            "chicos_c",
            "tantos_c",
            "places",
            "reason",
            "reason_code",
            "provisional",
            "confirmed_at",
            "recorded",
            "reported_at",
            "reported_side",
        ]
        read_only_fields = [f for f in fields if f not in TABLE_FIELDS]
        extra_kwargs = {
            "recorded": {
                "help_text": "hands: recorded hand by hand; result: as its result (each "
                "chico's final score, no hands)."
            },
            "reported_at": {"help_text": "When its result was reported or typed (null: not)."},
            "reported_side": {
                "help_text": "The side that reported its result; empty: typed at the "
                "organiser's desk, or none."
            },
        }

    def get_round_name(self, match: Match) -> str:
        return str(match.round.name_in(match.stage))

    def to_representation(self, match: Match) -> dict[str, Any]:
        return table_only(
            super().to_representation(match), match.team_c_id is not None, TABLE_FIELDS
        )


class GameSerializer(serializers.ModelSerializer):
    score_c = serializers.IntegerField(required=False, help_text=THREE_ONLY)

    class Meta:
        model = Game
        fields = ["number", "score_a", "score_b", "score_c", "winner"]
        read_only_fields = ["number", "score_a", "score_b", "winner"]

    def to_representation(self, game: Game) -> dict[str, Any]:
        three = game.match.team_c_id is not None  # the match is the prefetch's, no query
        return table_only(super().to_representation(game), three, ("score_c",))


class SeatSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()


class MatchDetailSerializer(MatchSerializer):
    championship = serializers.SlugRelatedField(
        source="stage.championship", slug_field="slug", read_only=True
    )
    games = GameSerializer(many=True, read_only=True)
    seats = serializers.SerializerMethodField()
    next_hand = serializers.SerializerMethodField(
        help_text="The number the next hand is posted with."
    )

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "championship", "seats", "games", "next_hand"]
        read_only_fields = fields

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, match: Match) -> list[dict[str, str]]:
        names = self.context.get("names", {})
        return [{"key": key, "name": names.get(key, key)} for key in match.seats]

    def get_next_hand(self, match: Match) -> int:
        return match.hands.count() + 1


class MatchAssignSerializer(serializers.Serializer):
    table = serializers.CharField(max_length=50, required=False, allow_blank=True)
    scheduled_at = serializers.DateTimeField(required=False)
    referee = serializers.CharField(
        required=False, help_text="The referee's username (a referee, or staff)."
    )
    entry = serializers.ChoiceField(
        choices=Match.Entry.choices,
        required=False,
        help_text="How the tablet enters hands: quick (trick by trick) or cards.",
    )


class SeatsSerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        help_text="Player keys (p<id>) counter-clockwise, the first hand's mano first; "
        "default the two teams alternating.",
    )


class WalkoverSerializer(serializers.Serializer):
    winner = serializers.IntegerField(help_text="The id of the team that takes the match.")
    reason = serializers.CharField(max_length=300, style=MULTILINE)
    forfeit = serializers.BooleanField(
        default=False, help_text="The loser gave up during play: recorded hands stay."
    )


class HandSerializer(serializers.ModelSerializer):
    record = serializers.JSONField(read_only=True)
    order = serializers.ListField(child=serializers.CharField(), read_only=True)
    score_before = serializers.SerializerMethodField()
    points = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    game = serializers.IntegerField(source="game.number", read_only=True, allow_null=True)
    recorded_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Hand
        fields = [
            "number",
            "game",
            "record",
            "order",
            "score_before",
            "points",
            "score",
            "status",
            "recorded_by",
            "recorded_at",
            "corrected_at",
        ]
        read_only_fields = fields

    @staticmethod
    def _sides(hand: Hand, field: str) -> dict[str, int]:
        sides = {"A": getattr(hand, f"{field}_a"), "B": getattr(hand, f"{field}_b")}
        if hand.match.team_c_id is not None:  # a table of three: its third side too
            sides["C"] = getattr(hand, f"{field}_c")
        return sides

    @extend_schema_field(_SIDES)
    def get_score_before(self, hand: Hand) -> dict[str, int]:
        return self._sides(hand, "score_before")

    @extend_schema_field(_SIDES)
    def get_points(self, hand: Hand) -> dict[str, int]:
        return self._sides(hand, "points")

    @extend_schema_field(_SIDES)
    def get_score(self, hand: Hand) -> dict[str, int]:
        return self._sides(hand, "score")


class HandPostSerializer(serializers.Serializer):
    """One hand of the match (docs/hand-record.md): the engine checks the rest."""

    number = serializers.IntegerField(min_value=1, help_text="The hand's number: the next one.")
    # Checked by the engine, not here: a bad card or event is refused with the engine's
    # code and the event's index, as on the tablet.
    cards = serializers.JSONField(
        required=False, help_text='Player key -> his three cards, e.g. {"p3": ["1E", ...]}.'
    )
    events = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        default=list,
        help_text="The events in the order they happened, one action each.",
    )
    pica_pica = serializers.JSONField(
        required=False,
        help_text="Six or eight players: the list of pica-pica sub-hands "
        "({order, cards, events} each).",
    )
    gallo = serializers.CharField(required=False, help_text="Three players: the gallo's key.")
    device = serializers.CharField(
        required=False,
        max_length=64,
        help_text="The tablet sending the hand: refused (409 draft_other_device) while "
        "another device holds the match.",
    )

    def record(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data.pop("number")
        data.pop("device", None)
        return data


class DraftSerializer(serializers.Serializer):
    """The hand in progress of a match (docs/api.md, "The hand in progress")."""

    number = serializers.IntegerField(help_text="The hand number the draft will be saved as.")
    record = serializers.JSONField(help_text="The hand so far (docs/hand-record.md).")
    device = serializers.CharField(help_text="The device holding the match; empty: none.")
    revision = serializers.IntegerField(help_text="Grows with every change; 0: never saved.")
    updated_at = serializers.DateTimeField(allow_null=True)
    entry = serializers.ChoiceField(choices=Match.Entry.choices)


class DraftPutSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, help_text="The next hand's number.")
    record = serializers.JSONField(help_text="The hand so far (docs/hand-record.md).")
    device = serializers.CharField(max_length=64, help_text="This device's id.")
    revision = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The revision this device last saw."
    )
    takeover = serializers.BooleanField(
        default=False, help_text="Take the match over from the device holding it."
    )
