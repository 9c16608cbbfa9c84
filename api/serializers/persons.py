"""People and their public history: what ``tournaments.people.history`` reads for the
public pages, never an email, a phone or a licence number."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.matches import THREE_ONLY, TeamBriefSerializer, table_only
from tournaments.models import Person
from tournaments.people.history import MatchLine, Stint
from tournaments.stages import registry


def _absolute(serializer: serializers.Serializer, path: str) -> str:
    request = serializer.context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


class PersonSerializer(serializers.ModelSerializer):
    name = serializers.CharField(
        source="public_name", read_only=True, help_text='As the public sees it ("Ana R.").'
    )
    page = serializers.SerializerMethodField(help_text="The person's public page.")

    class Meta:
        model = Person
        fields = ["id", "name", "club", "page"]
        read_only_fields = fields

    def get_page(self, person: Person) -> str:
        return _absolute(self, reverse("tournaments:person", args=[person.pk]))


class PersonMergeSerializer(serializers.Serializer):
    keep = serializers.IntegerField(min_value=1, help_text="The record kept.")
    drop = serializers.IntegerField(min_value=1, help_text="The record merged into it.")


class PersonMergeAgreeSerializer(serializers.Serializer):
    person = serializers.IntegerField(min_value=1, help_text="A person of your championships.")
    other = serializers.IntegerField(min_value=1, help_text="The record he is said to be.")


class PersonMergeAgreedSerializer(serializers.Serializer):
    merged = serializers.BooleanField(
        help_text="Whether this made the merge (false: it waits for other organisers)."
    )
    person = PersonSerializer(allow_null=True, help_text="The person kept, once merged.")


class PartnerSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="person_id", help_text="The partner's person.")
    name = serializers.CharField(source="public_name")


class MatchLineSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="match.pk")
    championship = serializers.SlugField(source="team.championship.slug")
    stage = serializers.SerializerMethodField()
    round = serializers.CharField(source="round_title")
    team = TeamBriefSerializer()
    opponent = TeamBriefSerializer(allow_null=True, help_text="Null: a bye.")
    others = TeamBriefSerializer(
        many=True, required=False, help_text=f"Both other players of the table. {THREE_ONLY}"
    )
    place = serializers.IntegerField(
        required=False, allow_null=True, help_text=f"His place at the table. {THREE_ONLY}"
    )
    status = serializers.CharField(source="match.status")
    won = serializers.BooleanField(allow_null=True, help_text="Null while undecided.")
    chicos_for = serializers.IntegerField()
    chicos_against = serializers.IntegerField()
    table = serializers.CharField(source="match.table")
    scheduled_at = serializers.DateTimeField(source="match.scheduled_at", allow_null=True)
    page = serializers.SerializerMethodField(help_text="The match's public page.")
    url = serializers.SerializerMethodField(help_text="The match in this API.")

    def get_stage(self, line: MatchLine) -> str:
        return registry.stage_name(line.match.stage)

    def to_representation(self, line: MatchLine) -> dict[str, Any]:
        three = line.match.team_c_id is not None
        return table_only(super().to_representation(line), three, ("others", "place"))

    def get_page(self, line: MatchLine) -> str:
        slug = line.team.championship.slug
        return _absolute(self, reverse("tournaments:match", args=[slug, line.match.pk]))

    def get_url(self, line: MatchLine) -> str:
        return _absolute(self, reverse("api:match", args=[line.match.pk]))


class RecordSerializer(serializers.Serializer):
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    chicos_won = serializers.IntegerField()
    chicos_lost = serializers.IntegerField()


class PlacementSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text="The team's place in the championship (the one its circuit counts); "
        "tied teams share it."
    )
    of = serializers.IntegerField(help_text="Teams placed in the championship.")
    stage = serializers.SerializerMethodField()
    group = serializers.CharField(source="group.name", allow_null=True, default=None)

    def get_stage(self, placement: Any) -> str:
        return registry.stage_name(placement.stage)


class ChampionshipBriefSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    status = serializers.CharField()
    start_date = serializers.DateField()


class StintSerializer(serializers.Serializer):
    championship = ChampionshipBriefSerializer()
    team = serializers.SerializerMethodField()
    partners = PartnerSerializer(many=True)
    placement = PlacementSerializer(allow_null=True, help_text="Null: the team is in no stage yet.")
    record = RecordSerializer()
    left = serializers.BooleanField(help_text="Substituted out of the team since.")
    matches = MatchLineSerializer(many=True, help_text="The matches he played, in order.")

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "page": {"type": "string"},
            },
            "required": ["id", "name", "page"],
        }
    )
    def get_team(self, stint: Stint) -> dict[str, Any]:
        path = reverse("tournaments:team", args=[stint.championship.slug, stint.team.pk])
        return {"id": stint.team.pk, "name": stint.team.name, "page": _absolute(self, path)}


class PersonHistorySerializer(serializers.Serializer):
    id = serializers.IntegerField(source="person.pk")
    name = serializers.CharField(source="person.public_name")
    club = serializers.CharField(source="person.club")
    page = serializers.SerializerMethodField()
    record = RecordSerializer(help_text="Every championship's together.")
    championships = StintSerializer(source="stints", many=True, help_text="Most recent first.")
    next_match = MatchLineSerializer(allow_null=True)

    def get_page(self, history: Any) -> str:
        return _absolute(self, reverse("tournaments:person", args=[history.person.pk]))
