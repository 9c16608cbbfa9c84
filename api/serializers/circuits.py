"""Circuits (``tournaments.circuits``): the list, a circuit with its events and rules, and
its ranking as the circuit's page shows it. Public and read-only: names as the public sees
them ("Ana R."), person ids for their public pages, never a contact or a licence. Points
and weights are JSON numbers (150, 1.5), never strings."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Circuit, CircuitEvent


def _absolute(serializer: serializers.Serializer, path: str) -> str:
    request = serializer.context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


class CircuitSerializer(serializers.ModelSerializer):
    family_display = serializers.CharField(source="get_family_display", read_only=True)
    event_count = serializers.IntegerField(read_only=True, help_text="How many events it has.")
    page = serializers.SerializerMethodField(help_text="The circuit's public page.")

    class Meta:
        model = Circuit
        fields = [
            "slug",
            "name",
            "family",
            "family_display",
            "start_date",
            "end_date",
            "event_count",
            "page",
        ]

    def get_page(self, circuit: Circuit) -> str:
        return _absolute(self, reverse("tournaments:circuit", args=[circuit.slug]))


class CircuitEventSerializer(serializers.ModelSerializer):
    championship = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, help_text="The championship's slug."
    )
    name = serializers.CharField(source="championship.name", read_only=True)
    start_date = serializers.DateField(source="championship.start_date", read_only=True)
    end_date = serializers.DateField(
        source="championship.end_date", read_only=True, allow_null=True
    )
    status = serializers.CharField(source="championship.status", read_only=True)
    kind_display = serializers.CharField(source="get_kind_display", read_only=True)
    weight = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        coerce_to_string=False,
        help_text="Its points are the table's times this.",
    )
    place = serializers.CharField(help_text="The town or region the event is for.")

    class Meta:
        model = CircuitEvent
        fields = [
            "championship",
            "name",
            "start_date",
            "end_date",
            "status",
            "kind",
            "kind_display",
            "weight",
            "place",
        ]


class CircuitRulesSerializer(serializers.Serializer):
    points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Points for the 1st, 2nd... placement; a placement past the end scores 0.",
    )
    best_of = serializers.IntegerField(
        allow_null=True, help_text="How many results count for each person and team (null: all)."
    )
    qualify_per_event = serializers.IntegerField(
        help_text="Teams of each qualifier that enter the final."
    )
    qualify_by_points = serializers.IntegerField(
        help_text="Other teams that enter the final by circuit points."
    )


class CircuitDetailSerializer(CircuitSerializer):
    description = serializers.CharField()
    event_count = serializers.SerializerMethodField(help_text="How many events it has.")
    rules = serializers.SerializerMethodField()
    events = serializers.SerializerMethodField()
    ranking = serializers.SerializerMethodField(help_text="The ranking's API address.")
    csv = serializers.SerializerMethodField(help_text="The ranking as CSV (docs/csv.md).")

    class Meta(CircuitSerializer.Meta):
        fields = [
            *CircuitSerializer.Meta.fields,
            "description",
            "rules",
            "events",
            "ranking",
            "csv",
        ]

    def get_event_count(self, circuit: Circuit) -> int:
        return len(self.context["events"])

    @extend_schema_field(CircuitRulesSerializer)
    def get_rules(self, circuit: Circuit) -> dict:
        return CircuitRulesSerializer(circuit).data

    @extend_schema_field(CircuitEventSerializer(many=True))
    def get_events(self, circuit: Circuit) -> list:
        return CircuitEventSerializer(self.context["events"], many=True).data

    def get_ranking(self, circuit: Circuit) -> str:
        return _absolute(self, reverse("api:circuit-ranking", args=[circuit.slug]))

    def get_csv(self, circuit: Circuit) -> str:
        return _absolute(self, reverse("tournaments:circuit_csv", args=[circuit.slug]))


class EventResultSerializer(serializers.Serializer):
    championship = serializers.CharField(
        source="event.championship.slug", help_text="The event's championship's slug."
    )
    place = serializers.IntegerField(help_text="Its placement there (tied ones share it).")
    tied = serializers.BooleanField()
    points = serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        coerce_to_string=False,
        help_text="The table's points times the event's weight.",
    )
    counted = serializers.BooleanField(help_text="Among the best results that count.")


class RankingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    tied = serializers.BooleanField(help_text="Shares its rank after every tie-break.")
    key = serializers.CharField(help_text="A person's id, or a team's people (\"3-17\").")
    name = serializers.CharField(help_text='As the public sees it ("Ana R."; "Ana R. / Juan").')
    persons = serializers.ListField(
        source="person_ids", child=serializers.IntegerField(), help_text="The persons' ids."
    )
    points = serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        coerce_to_string=False,
        help_text="The counted results' sum.",
    )
    qualified = serializers.BooleanField(help_text="Entered in the circuit's final.")
    results = EventResultSerializer(many=True, help_text="In the events' date order.")


class RankingSerializer(serializers.Serializer):
    circuit = serializers.CharField(source="circuit.slug", help_text="The circuit's slug.")
    persons = RankingLineSerializer(many=True)
    teams = RankingLineSerializer(many=True)
    tiebreaks = serializers.ListField(
        child=serializers.CharField(), help_text="How equal points are broken, in order."
    )
