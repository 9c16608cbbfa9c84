"""A match recorded as its result: who keeps the score, a result posted (each chico's final
score), the sides' answers and how a match is recorded (docs/api.md, "No referee at the
table")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.matches import MatchDetailSerializer
from tournaments.championships.services.scorekeeping import CONFIRM_WITHIN_MAX
from tournaments.models import Match, MatchConfirmation, Scorekeeping

SIDES = ["A", "B", "C"]
# No chico is worth more than a few dozen points: a bigger number is a typing slip, told
# as a field error before the engine is asked.
MOST_POINTS = 999


class ScoreSerializer(serializers.Serializer):
    """A chico's final score by side."""

    A = serializers.IntegerField(min_value=0, max_value=MOST_POINTS)
    B = serializers.IntegerField(min_value=0, max_value=MOST_POINTS)
    C = serializers.IntegerField(
        min_value=0,
        max_value=MOST_POINTS,
        required=False,
        help_text="A table of three with gallo por turno only: the third player's.",
    )


class ChicoSerializer(serializers.Serializer):
    """One chico (catalan: joc) as the rules engine takes it (docs/hand-record.md, "A
    match recorded as its result")."""

    score = ScoreSerializer()
    winner = serializers.ChoiceField(
        choices=SIDES,
        required=False,
        help_text="Only where the score cannot say it: two players of a table of three at "
        "the target in one chico.",
    )


class ResultPostSerializer(serializers.Serializer):
    games = ChicoSerializer(
        many=True,
        allow_empty=False,
        max_length=8,
        help_text="Each chico's final score in the order played: the engine checks it "
        "against the rules and the match's best of.",
    )
    winner = serializers.ChoiceField(
        choices=SIDES, required=False, help_text="The match's winner as the players state it."
    )
    reason = serializers.CharField(
        max_length=500,
        required=False,
        help_text="The organiser only: with a reason, the result the match holds is "
        "corrected; without, the result is typed at the desk.",
    )

    def games_for_engine(self) -> list[dict[str, Any]]:
        return [dict(chico, score=dict(chico["score"])) for chico in self.validated_data["games"]]


class SidePostSerializer(serializers.Serializer):
    side = serializers.ChoiceField(
        choices=SIDES,
        required=False,
        help_text="The side answered for: required of the organiser; a team answers for its "
        "own side (another one is refused).",
    )


class DisputePostSerializer(SidePostSerializer):
    comment = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="What is wrong with the result (required): the organiser reads it.",
    )


class RecordingPostSerializer(serializers.Serializer):
    to = serializers.ChoiceField(
        choices=Match.Recorded.choices, help_text="hands, or result (its result, no hands)."
    )
    reason = serializers.CharField(max_length=500, help_text="Why: kept in the match's history.")


class AnswerSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchConfirmation
        fields = ["side", "status", "comment", "at"]
        read_only_fields = fields


class AnsweredSerializer(serializers.Serializer):
    match = MatchDetailSerializer(help_text="The match as it now stands.")
    answer = AnswerSerializer(
        allow_null=True,
        help_text="The side's answer this request gave: a team's report is its "
        "confirmation, or its dispute when another result was reported first; null for the "
        "organiser's result, typed or corrected (every side's confirmation).",
    )


class ScorekeepingPostSerializer(serializers.Serializer):
    scorekeeping = serializers.ChoiceField(
        choices=Scorekeeping.choices,
        help_text="referees (the tablet), players (a player's phone, hand by hand) or results "
        "(the teams report, the desk types).",
    )
    confirm_within = serializers.IntegerField(
        min_value=1,
        max_value=CONFIRM_WITHIN_MAX,
        required=False,
        help_text="Minutes a team has to answer a result the other reported (unchanged when "
        "left out).",
    )


class StageScorekeepingPostSerializer(serializers.Serializer):
    scorekeeping = serializers.ChoiceField(
        choices=Scorekeeping.choices,
        allow_blank=True,
        help_text="Empty: as the championship says.",
    )
