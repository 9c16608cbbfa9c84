"""What the players were told (``tournaments.notices``), for the championship's
organisers: each notice's kind, team, channel, delivery state and times, never the
address it went to, the team's link, nor what it said; and the organiser's message."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import serializers

from api.serializers.matches import TeamBriefSerializer
from api.serializers.text import MULTILINE
from tournaments.models import Notice
from tournaments.notices.services import MESSAGE_MAX


class NoticeSerializer(serializers.ModelSerializer):
    team = TeamBriefSerializer(
        read_only=True, allow_null=True, help_text="The team told; null once it was removed."
    )
    team_name = serializers.CharField(read_only=True, help_text="The team's name when told.")
    stage = serializers.IntegerField(
        source="match.stage_id", read_only=True, allow_null=True, default=None
    )
    round = serializers.IntegerField(
        source="match.round.number",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="The number of its match's round (null: not about a match).",
    )
    state = serializers.ChoiceField(
        choices=Notice.State.choices,
        read_only=True,
        help_text="queued (waiting to go, or to be tried again), sent, failed (after its "
        "tries), cancelled (not sent: the team stopped its mails or left before its turn).",
    )
    failure = serializers.CharField(
        read_only=True, help_text="Why the last try failed: the error's kind only."
    )

    class Meta:
        model = Notice
        fields = [
            "id",
            "kind",
            "channel",
            "state",
            "team",
            "team_name",
            "match",
            "stage",
            "round",
            "language",
            "batch",
            "created_at",
            "sent_at",
            "attempts",
            "failure",
        ]
        read_only_fields = fields


class ToldSerializer(serializers.Serializer):
    told = serializers.IntegerField(help_text="How many teams were told (notices queued).")
    notices = NoticeSerializer(many=True, help_text="The notices queued, sent once committed.")


class MessageSerializer(serializers.Serializer):
    text = serializers.CharField(
        style=MULTILINE,
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"Plain text, {MESSAGE_MAX} characters at most; line breaks and tabs, no "
        "other control character.",
    )
    stage = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text="A stage's id: to its teams (with `round`, to that round's).",
    )
    round = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=32767,
        help_text="A round's number in `stage`: to the teams of its matches.",
    )
    match = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text="A match's id: to its teams. Alone, or with neither `stage` nor `round`.",
    )

    def validate(self, data: dict) -> dict:
        if "round" in data and "stage" not in data:
            raise serializers.ValidationError({"round": [_("Give the round with its stage.")]})
        if "match" in data and ("stage" in data or "round" in data):
            raise serializers.ValidationError(
                {"match": [_("Give a match alone, without a stage or a round.")]}
            )
        return data
