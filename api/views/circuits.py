"""Circuits: the list, one circuit with its events and rules, its ranking (public,
read-only)."""

from __future__ import annotations

import django_filters
from django.db.models import Count
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api.serializers.circuits import (
    CircuitDetailSerializer,
    CircuitSerializer,
    RankingSerializer,
)
from api.views.base import ApiView
from tournaments.circuits import selectors as circuit_selectors
from tournaments.models import Circuit


class CircuitFilter(django_filters.FilterSet):
    family = django_filters.ChoiceFilter(choices=Circuit._meta.get_field("family").choices)

    class Meta:
        model = Circuit
        fields = ["family"]


def _circuit(slug: str) -> Circuit:
    try:
        return circuit_selectors.circuit_by_slug(slug=slug)
    except Circuit.DoesNotExist:
        raise Http404("No such circuit.") from None


class CircuitList(ApiView):
    """Every circuit, newest first: its name, dates, rules family and number of events."""

    serializer_class = CircuitSerializer
    filterset_class = CircuitFilter

    def get_queryset(self):
        # How many events each has, in the same query (the selector gives the circuits).
        return circuit_selectors.public_circuits().annotate(event_count=Count("events"))

    @extend_schema(responses=CircuitSerializer(many=True))
    def get(self, request: Request) -> Response:
        return self.paginated(self.filter_queryset(self.get_queryset()), CircuitSerializer)


class CircuitDetail(ApiView):
    """A circuit: its details, its rules (points per placement, best N, who qualifies) and
    its events in date order (championship, dates, kind, weight, town or region)."""

    serializer_class = CircuitDetailSerializer
    queryset = Circuit.objects.none()  # the schema's model; reads go through the selectors

    def get(self, request: Request, slug: str) -> Response:
        circuit = _circuit(slug)
        context = {
            **self.get_serializer_context(),
            "events": circuit_selectors.circuit_events(circuit=circuit),
        }
        return Response(CircuitDetailSerializer(circuit, context=context).data)


class CircuitRanking(ApiView):
    """A circuit's ranking of persons and of teams, as its page shows it: rank, tie, name,
    points, each event's result (counted or not) and whether it entered the final."""

    serializer_class = RankingSerializer
    queryset = Circuit.objects.none()  # the schema's model; reads go through the selectors

    def get(self, request: Request, slug: str) -> Response:
        ranking = circuit_selectors.circuit_ranking(circuit=_circuit(slug))
        return Response(RankingSerializer(ranking, context=self.get_serializer_context()).data)
