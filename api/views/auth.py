"""API tokens: ``POST /api/v1/auth/token/`` with a username and password."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class TokenView(APIView):
    """Your API token: get it with your password; delete it to revoke it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenSerializer},
        auth=[],
        summary="Get your token",
    )
    def post(self, request: Request) -> Response:
        """The user's token (created on first use); send it as ``Authorization: Token ...``."""
        credentials = CredentialsSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=credentials.validated_data["username"],
            password=credentials.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise AuthenticationFailed(_("Wrong username or password."))
        token, _created = Token.objects.get_or_create(user=user)
        # The token itself: kept by no browser or proxy.
        return Response({"token": token.key}, headers={"Cache-Control": "no-store"})

    @extend_schema(request=None, responses={204: None}, summary="Revoke your token")
    def delete(self, request: Request) -> Response:
        """Delete the token of the authenticated user: it stops working at once."""
        if not request.user.is_authenticated:
            self.permission_denied(request)
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
