"""A team's personal link as credentials of the API: ``Authorization: TeamLink <token>``.

The token is the one of the team's page (``/c/<slug>/team/<token>/``): whoever holds it
acts for the team, with no account. The API takes it in the ``Authorization`` header
only, never from the query string or the body (an address ends up in access logs,
browser histories and referrers; a header does not), and nothing here logs it or puts it
in an answer. A tampered token or a revoked link is ``401`` with the sentence the team's
page gives (``entries.link_selectors.link_by_token``).

Only the views that take it list :class:`TeamLinkAuthentication` (the results a team
reports, confirms and disputes: ``api.views.results``); everywhere else the header is
unknown, so the request is anonymous: it reads what the public reads and writes nothing.
Behind it ``request.user`` is anonymous and ``request.auth`` the team's live
:class:`~tournaments.models.TeamLink` (its team: ``request.auth.team``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments.entries.link_selectors import link_by_token
from tournaments.errors import TournamentError
from tournaments.models import TeamLink

KEYWORD = "TeamLink"
# A link's token is some 40 characters; anything far longer is not one (and is not worth
# checking a signature of).
LONGEST_TOKEN = 200


class TeamLinkAuthentication(BaseAuthentication):
    """``Authorization: TeamLink <token>``: the team behind a live personal link."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TeamLink] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != KEYWORD.lower().encode():
            return None
        if len(words) != 2 or len(words[1]) > LONGEST_TOKEN:
            raise AuthenticationFailed(
                _("Send the team's link as: Authorization: TeamLink and its token."),
                code="link_invalid",
            )
        try:
            token = words[1].decode("ascii")
            link = link_by_token(token=token)
        except UnicodeDecodeError:
            raise AuthenticationFailed(
                _("This link is not valid: copy it again from the message you received."),
                code="link_invalid",
            ) from None
        except TournamentError as error:
            raise AuthenticationFailed(error.text, code=error.code) from None
        return AnonymousUser(), link

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


def team_link(request: Request) -> TeamLink | None:
    """The personal link the request came with, or ``None`` (a user, or nobody)."""
    return request.auth if isinstance(request.auth, TeamLink) else None


class UserOrTeamLink(BasePermission):
    """A logged-in user (the views check what he may do), or a team through its link (the
    views let it act on its own matches only); nobody else (401)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        return bool(user and user.is_authenticated) or team_link(request) is not None


class ReadOrUserOrTeamLink(UserOrTeamLink):
    """Anyone reads (the views decide what); a user or a team through its link writes."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or super().has_permission(request, view)


class TeamLinkScheme(OpenApiAuthenticationExtension):
    """The scheme in the OpenAPI schema (``teamLink``)."""

    target_class = "api.teamlink.TeamLinkAuthentication"
    name = "teamLink"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A team's personal link: `TeamLink <token>`, the token of its "
            "page's address. Only in this header, never in the address.",
        }
