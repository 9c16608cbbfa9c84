"""Telling the players through the API (organisers): the organiser's message to everyone
entered, a stage, a round or a match; a round called; and what was told, each notice with
its delivery state. The notices' services decide everything, as on the pages: the same
limits, the same refusals, the same record (``Notice``: by whom, when, to whom)."""

from __future__ import annotations

import django_filters
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, idempotency
from api.serializers.notices import MessageSerializer, NoticeSerializer, ToldSerializer
from api.views.base import ApiView
from api.views.hands import IDEMPOTENCY_KEY
from api.views.matches import IdFilter
from tournaments.models import Championship, Match, Notice
from tournaments.notices import selectors
from tournaments.notices import services as notice_services
from tournaments.stages import selectors as stage_selectors


class NoticeFilter(django_filters.FilterSet):
    stage = IdFilter(field_name="match__stage_id", help_text="A stage's id.")
    round = IdFilter(
        field_name="match__round__number", help_text="A round's number (with `stage`)."
    )
    kind = django_filters.ChoiceFilter(choices=Notice.Kind.choices)
    state = django_filters.ChoiceFilter(choices=Notice.State.choices)
    channel = django_filters.ChoiceFilter(choices=Notice.Channel.choices)

    class Meta:
        model = Notice
        fields = ["stage", "round", "kind", "state", "channel"]


def _told(notices: list[Notice]) -> Response:
    found = (
        Notice.objects.filter(pk__in=[n.pk for n in notices])
        .select_related("team", "match__round")
        .order_by("pk")
    )
    return Response({"told": len(notices), "notices": NoticeSerializer(found, many=True).data})


class NoticeList(ApiView):
    """What the players of the championship were told, newest first: each notice's kind,
    team, channel and state (queued, sent, failed, cancelled: not sent), when it was
    queued and sent. Never the address, the team's link nor the words sent."""

    readers = "organisers"
    # No public read: 401 without credentials, as the entries' list.
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = NoticeSerializer
    filterset_class = NoticeFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema only needs the model
            return Notice.objects.none()
        championship = access.managed_championship(self.request, self.kwargs["slug"])
        return selectors.notices_of(championship=championship)

    @extend_schema(responses=NoticeSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        return self.paginated(self.filter_queryset(self.get_queryset()), NoticeSerializer)


def _whom(championship: Championship, data: dict) -> dict:
    """The message's addressees from the request's ids: those of ``championship`` only."""
    whom: dict = {}
    if "match" in data:
        match = (
            Match.objects.filter(pk=data["match"], stage__championship=championship)
            .select_related("team_a", "team_b", "team_c")
            .first()
        )
        if match is None:
            raise serializers.ValidationError({"match": [_("No such match in this championship.")]})
        whom["match"] = match
    if "stage" in data:
        try:
            stage = stage_selectors.stage_of(championship=championship, stage_id=data["stage"])
            if "round" in data:
                whom["round_"] = stage_selectors.round_of(stage=stage, number=data["round"])
            else:
                whom["stage"] = stage
        except Http404:
            problem = _("No such stage or round in this championship.")
            raise serializers.ValidationError({"stage": [problem]}) from None
    return whom


class Messages(ApiView):
    """The organiser's short message, by mail to each team that gave an address at entry,
    in its language: to everyone entered (not withdrawn, refused or waiting), a stage's
    teams, a round's or one match's."""

    writers = "organisers"
    serializer_class = MessageSerializer

    @extend_schema(
        request=MessageSerializer, parameters=[IDEMPOTENCY_KEY], responses={200: ToldSerializer}
    )
    def post(self, request: Request, slug: str) -> Response:
        """Send the message. Refused (400) when empty (`message_empty`), too long
        (`message_long`) or holding a control character other than line breaks and tabs
        (`control_characters`); past the championship's messages of the hour, 429
        (`messages_limit`). Nothing is then queued. The same text to the same teams
        again within a minute tells nobody twice (`told` 0)."""
        championship = access.managed_championship(request, slug)
        data = self.valid(MessageSerializer, request).validated_data
        whom = _whom(championship, data)

        def send() -> Response:
            told = notice_services.message_send(
                championship=championship, text=data["text"], by=request.user, **whom
            )
            return _told(told)

        return idempotency.run_once(request, send)


class RoundCall(ApiView):
    """Call the round: each team of a match still to be played (no bye, nothing decided)
    is told its match is ready, with its table."""

    writers = "organisers"
    serializer_class = ToldSerializer

    @extend_schema(request=None, parameters=[IDEMPOTENCY_KEY], responses={200: ToldSerializer})
    def post(self, request: Request, slug: str, stage_id: int, number: int) -> Response:
        """Called again within a minute (twice, or by two organisers at once), a team is
        told once: `told` 0."""
        championship = access.managed_championship(request, slug)
        stage = stage_selectors.stage_of(championship=championship, stage_id=stage_id)
        round_ = stage_selectors.round_of(stage=stage, number=number)
        return idempotency.run_once(
            request, lambda: _told(notice_services.round_call(round_=round_, by=request.user))
        )
