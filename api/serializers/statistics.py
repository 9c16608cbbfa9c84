"""Statistics from the hands: a team's, a person's, a championship's (docs/api.md)."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.ratings.statistics_selectors import Totals


class TotalsSerializer(serializers.Serializer):
    """Sums over the hands (docs/tournaments.md "Statistics"): a team's or a
    championship's are its sides'; a person's are his side's points and outcomes in the
    hands he played, and his own calls, answers, flores and mazos."""

    hands = serializers.IntegerField()
    points = serializers.IntegerField()
    points_per_hand = serializers.FloatField()
    envido_points = serializers.IntegerField()
    flor_points = serializers.IntegerField()
    truco_points = serializers.IntegerField(help_text="Every truco level together.")
    truco_points_by_level = serializers.SerializerMethodField(
        help_text="Truco points by the level the hand was played at: no step accepted, "
        "then truco, retruco, vale cuatro (catalan: truc, tres)."
    )
    mazo_points = serializers.IntegerField()
    penalty_points = serializers.IntegerField()
    mestre_points = serializers.IntegerField()
    envido_called = serializers.IntegerField()
    envido_accepted = serializers.IntegerField()
    envido_refused = serializers.IntegerField()
    envido_played = serializers.IntegerField()
    envido_won = serializers.IntegerField()
    truco_calls = serializers.IntegerField()
    truco_accepted = serializers.IntegerField()
    truco_refused = serializers.IntegerField()
    truco_raised = serializers.IntegerField()
    truco_answers = serializers.IntegerField()
    flor_sung = serializers.IntegerField()
    mazos = serializers.IntegerField()
    penalties = serializers.IntegerField()
    chicos_won = serializers.IntegerField()
    comebacks = serializers.IntegerField(help_text="Chicos won from the malas.")

    def get_truco_points_by_level(self, totals: Totals) -> list[int]:
        return [
            totals.truco_points_0,
            totals.truco_points_1,
            totals.truco_points_2,
            totals.truco_points_3,
        ]


class TeamStatisticsRowSerializer(serializers.Serializer):
    team = serializers.IntegerField(source="team.pk")
    name = serializers.CharField(source="team.name")
    totals = TotalsSerializer()


class PlayerStatisticsRowSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(help_text="As the public sees it.")
    person = serializers.IntegerField(source="person_id", allow_null=True)
    team = serializers.IntegerField(source="team.pk", allow_null=True)
    totals = TotalsSerializer()


class BiggestHandSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match.pk")
    hand = serializers.IntegerField(source="number")
    team = serializers.IntegerField(source="team.pk")
    points = serializers.IntegerField()


class LongestMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match.pk")
    hands = serializers.IntegerField()


class ChampionshipStatisticsSerializer(serializers.Serializer):
    totals = TotalsSerializer()
    teams = TeamStatisticsRowSerializer(many=True)
    players = PlayerStatisticsRowSerializer(many=True, source="people")
    biggest_hand = BiggestHandSerializer(allow_null=True)
    longest_match = LongestMatchSerializer(allow_null=True)
