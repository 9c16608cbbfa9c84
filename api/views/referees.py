"""A championship's referees: only the users on its list referee its matches."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.serializers.referees import RefereeAddSerializer, RefereeSerializer
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.models import Championship, ChampionshipReferee


def _entry(championship: Championship, username: str) -> ChampionshipReferee:
    for entry in championship_selectors.championship_referees(championship=championship):
        if entry.user.get_username() == username:
            return entry
    raise Http404("No such referee.")


class RefereeList(ApiView):
    """The championship's list of referees, by name: only they may be assigned its matches
    and referee them (its organisers and staff act on every match anyway)."""

    readers = "organisers"
    writers = "organisers"
    # Not a public read: without credentials a 401, as for the writes.
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = RefereeSerializer
    queryset = ChampionshipReferee.objects.none()  # the schema's model

    @extend_schema(responses=RefereeSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = access.managed_championship(request, slug)
        entries = championship_selectors.championship_referees(championship=championship)
        return self.paginated(entries, RefereeSerializer)

    @extend_schema(request=RefereeAddSerializer, responses={201: RefereeSerializer})
    def post(self, request: Request, slug: str) -> Response:
        """Put an active user on the list (adding him again changes nothing)."""
        championship = access.managed_championship(request, slug)
        username = self.valid(RefereeAddSerializer, request).validated_data["username"]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            message = _("There is no user %(name)s.") % {"name": username}
            raise serializers.ValidationError({"username": [message]})
        championship_services.referee_add(
            championship=championship, user=user, added_by=request.user
        )
        entry = _entry(championship, user.get_username())
        return Response(RefereeSerializer(entry).data, status=status.HTTP_201_CREATED)


class RefereeDetail(ApiView):
    """A referee of the championship."""

    writers = "organisers"
    serializer_class = RefereeSerializer
    queryset = ChampionshipReferee.objects.none()  # the schema's model

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, username: str) -> Response:
        """Take him off the list: his undecided matches of the championship lose him."""
        championship = access.managed_championship(request, slug)
        entry = _entry(championship, username)
        championship_services.referee_remove(championship=championship, user=entry.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
