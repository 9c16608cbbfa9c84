"""Teams of a championship: list, enter, change, remove, import a CSV; players."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api.serializers.teams import (
    HOME_FIELDS,
    PlayerSerializer,
    TeamCreateSerializer,
    TeamImportResultSerializer,
    TeamImportSerializer,
    TeamSerializer,
    TeamUpdateSerializer,
)
from api.views.base import ApiView
from tournaments.championships import selectors as championship_selectors
from tournaments.championships import services as championship_services
from tournaments.io import imports
from tournaments.models import Championship, Player, Team
from tournaments.people import selectors as people_selectors
from tournaments.people.services import PersonDetails

# What the championship's organisers read of the players (licence, contact), and only
# they: the views that need managing the championship (a write's answer) serialize so.
_PRIVATE = {"private": True}


def _players(data: dict[str, Any], user: Any) -> list[PersonDetails]:
    """The players of a team to create, as the services take them; a chosen person must
    be one of the player's likely matches (400 otherwise)."""
    players = []
    for index, given in enumerate(data.get("players", [])):
        details = PersonDetails(
            name=given["name"],
            club=data.get("club", ""),
            licence=given["licence"],
            email=given["email"],
            phone=given["phone"],
        )
        if given["person"] is not None:
            person = people_selectors.likely_person(details, given["person"], user=user)
            if person is None:
                raise ValidationError(
                    {
                        "players": {
                            index: [
                                _("Person %(id)s is not a likely match of %(name)s.")
                                % {"id": given["person"], "name": details.name}
                            ]
                        }
                    }
                )
            details = replace(details, person=person)
        players.append(details)
    return players


def _team(championship: Championship, team_id: int) -> Team:
    team = championship_selectors.team_list(championship=championship).filter(pk=team_id).first()
    if team is None:
        raise Http404("No such team.")
    return team


class TeamList(ApiView):
    """The teams of a championship in seed order, with their players."""

    writers = "organisers"
    serializer_class = TeamSerializer
    queryset = Team.objects.none()  # the schema's model; reads go through the selectors

    @extend_schema(responses=TeamSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = access.championship(request, slug)
        self.private = championship_selectors.can_manage(request.user, championship)
        return self.paginated(
            championship_selectors.team_list(championship=championship), TeamSerializer
        )

    @extend_schema(request=TeamCreateSerializer, responses={201: TeamSerializer})
    def post(self, request: Request, slug: str) -> Response:
        """Enter a team with its players (in seating order) and its cap de colla."""
        championship = access.managed_championship(request, slug)
        data = self.valid(TeamCreateSerializer, request).validated_data
        data["players"] = _players(data, request.user)
        team = championship_services.team_create(championship=championship, by=request.user, **data)
        return Response(
            TeamSerializer(_team(championship, team.pk), context=_PRIVATE).data,
            status=status.HTTP_201_CREATED,
        )


class TeamDetail(ApiView):
    """A team of the championship, with its players."""

    writers = "organisers"
    serializer_class = TeamSerializer

    def get(self, request: Request, slug: str, team_id: int) -> Response:
        championship = access.championship(request, slug)
        private = championship_selectors.can_manage(request.user, championship)
        return Response(
            TeamSerializer(_team(championship, team_id), context={"private": private}).data
        )

    @extend_schema(request=TeamUpdateSerializer, responses={200: TeamSerializer})
    def patch(self, request: Request, slug: str, team_id: int) -> Response:
        """Rename the team, change its club, its seed while it has no match, or its home
        venue, night and hour (leagues)."""
        championship = access.managed_championship(request, slug)
        team = _team(championship, team_id)
        data = dict(self.valid(TeamUpdateSerializer, request).validated_data)
        home = {key: data.pop(key) for key in HOME_FIELDS if key in data}
        championship_services.team_update(team=team, **data)
        if home:
            current = {key: getattr(team, key) for key in HOME_FIELDS}
            championship_services.team_home_set(team=team, **{**current, **home})
        return Response(TeamSerializer(_team(championship, team_id), context=_PRIVATE).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, team_id: int) -> Response:
        """Remove the team, while entries are open and it has no match."""
        championship = access.managed_championship(request, slug)
        championship_services.team_remove(team=_team(championship, team_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamImport(ApiView):
    """The CSV import of teams."""

    writers = "organisers"
    serializer_class = TeamImportSerializer
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request=TeamImportSerializer, responses={201: TeamImportResultSerializer})
    def post(self, request: Request, slug: str) -> Response:
        """Import a CSV of teams (docs/csv.md): every team or none; errors per row."""
        championship = access.managed_championship(request, slug)
        upload = self.valid(TeamImportSerializer, request).validated_data["file"]
        created = imports.teams_import(championship=championship, file=upload, by=request.user)
        teams = championship_selectors.team_list(championship=championship).filter(
            pk__in=[t.pk for t in created]
        )
        return Response(
            {
                "count": len(created),
                "teams": TeamSerializer(teams, many=True, context=_PRIVATE).data,
            },
            status=status.HTTP_201_CREATED,
        )


class PlayerDetail(ApiView):
    """A player: name, club, and his teams in the championships you may read."""

    serializer_class = PlayerSerializer

    def get(self, request: Request, player_id: int) -> Response:
        visible = championship_selectors.championships_visible(user=request.user)
        teams = Team.objects.filter(championship__in=visible).select_related("championship")
        player = (
            Player.objects.filter(pk=player_id, teams__championship__in=visible)
            .distinct()
            .select_related("person")
            .prefetch_related(Prefetch("teams", queryset=teams, to_attr="visible_teams"))
            .first()
        )
        if player is None:
            raise Http404("No such player.")
        context = {"teams": player.visible_teams}
        return Response(PlayerSerializer(player, context=context).data)
