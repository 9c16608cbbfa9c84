"""Ratings (``tournaments.ratings``): a person's per family, with history, and the
leaderboards. ``rating`` and ``uncertainty`` are the numbers the pages show (1000 + 40 ×
(mu − 3 sigma), and 40 × sigma); ``mu`` and ``sigma`` are OpenSkill's own."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from tournaments.ratings.selectors import Line


class RatingPointSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="His n-th rated match in this family.")
    match = serializers.IntegerField(source="match_id", help_text="The match's id.")
    decided_at = serializers.DateTimeField(help_text="When the match was decided.")
    won = serializers.BooleanField(help_text="First place (at a table of three too).")
    place = serializers.IntegerField(
        help_text="His place: 1 or 2 in a two-sided match, 1 to 3 at a table of three "
        "(a shared place repeats)."
    )
    sides = serializers.IntegerField(
        help_text="The match's sides: 2, or 3 at a table of three (each player a side)."
    )
    rating = serializers.IntegerField(source="shown", help_text="The rating after the match.")
    uncertainty = serializers.IntegerField(source="shown_sigma")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class FamilyRatingSerializer(serializers.Serializer):
    family = serializers.CharField(help_text="argentine or catalan.")
    rating = serializers.IntegerField(
        source="shown", help_text="1000 + 40 × (mu − 3 sigma): a newcomer's is 1000."
    )
    uncertainty = serializers.IntegerField(source="shown_sigma", help_text="40 × sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField(help_text="Rated matches.")
    listed = serializers.BooleanField(help_text="Enough rated matches for the leaderboard.")
    last_at = serializers.DateTimeField(allow_null=True)
    history = RatingPointSerializer(many=True, help_text="After each rated match, oldest first.")


class PersonRatingsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text='As the public sees it ("Ana R.").')
    ratings = FamilyRatingSerializer(many=True)


class LeaderboardLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    person = serializers.IntegerField(source="person.pk", help_text="The person's id.")
    name = serializers.CharField(help_text='As the public sees it ("Ana R.").')
    club = serializers.CharField(source="person.club")
    rating = serializers.IntegerField(source="shown")
    uncertainty = serializers.IntegerField(source="shown_sigma")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    page = serializers.SerializerMethodField(help_text="The person's public page.")

    def get_page(self, line: Line) -> str:
        path = reverse("tournaments:person", args=[line.person.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path
