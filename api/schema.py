"""The OpenAPI schema: every operation lists the errors it may answer, in one shape."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as BaseAutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ImportRowSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    column = serializers.CharField()
    message = serializers.CharField()


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable identifier (docs/api.md lists them).")
    message = serializers.CharField(help_text="A sentence in the request's language.")
    fields = serializers.DictField(
        child=serializers.JSONField(), help_text="Field name -> its messages (bad input)."
    )
    hand = serializers.IntegerField(
        required=False, allow_null=True, help_text="Engine refusal: the hand's number."
    )
    event = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Engine refusal: 0-based index of the offending event (null: none).",
    )
    game = serializers.IntegerField(
        required=False,
        help_text="A reported result the engine refuses: 0-based index of the chico at fault "
        "in games.",
    )
    expected = serializers.IntegerField(
        required=False, help_text="Hand-number conflict: the hand the match expects."
    )
    rows = ImportRowSerializer(many=True, required=False, help_text="CSV import: bad rows.")
    wait = serializers.IntegerField(required=False, help_text="Throttled: seconds to wait.")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


ERRORS = {
    400: "Bad input, or a refusal of the rules engine or a service.",
    401: "Credentials missing or wrong.",
    403: "Authenticated, but not allowed to do this.",
    404: "Not found (or not visible to you: drafts are never revealed).",
    405: "Method not allowed.",
    406: "Cannot answer in the requested format.",
    409: "Conflicts with the stored state (hand numbers, existing names, locked rules).",
    415: "Unsupported request body type.",
    422: "An Idempotency-Key reused with another request.",
    429: "Too many requests: throttled.",
}
READ_ERRORS = (400, 401, 403, 404, 405, 406, 429)


WHO = {
    "read": "Who: anyone reads what is public; organisers and staff also their drafts "
    "(404 to anyone else).",
    "authenticated": "Who: any authenticated user (401 without credentials).",
    "public": "Who: anyone, without credentials, while the championship takes entries "
    "(a limited number per address, with the entry form: 429 past it).",
    "organisers": "Who: the championship's organisers and staff (401 without credentials, "
    "403 if you may read it but not manage it, 404 if you may not even read it).",
    "teams": "Who: the championship's organisers and staff, or a team of the match through "
    "its personal link (`Authorization: TeamLink <token>`: its own matches only, 403 "
    "otherwise; a revoked link 401); 401 without credentials, 403 for any other user who "
    "may read the match, 404 if you may not even read it.",
    "referees": "Who: the match's referee while on the championship's list of referees, the "
    "championship's organisers and staff (401 without credentials, 403 for anyone else who "
    "may read the match, 404 otherwise).",
    "scorers": "Who: the match's referee while on the championship's list of referees, the "
    "championship's organisers and staff; and where a player of the table keeps the score "
    "(the stage's `scorekeeping`: `players`), a team of the match through its personal link "
    "(`Authorization: TeamLink <token>`: its own matches only, 404 otherwise; 403 where the "
    "referees keep the score or only results are reported; a revoked link 401). 401 without "
    "credentials, 403 for any other user who may read the match.",
}


class AutoSchema(BaseAutoSchema):
    """drf-spectacular's schema, plus who may call each operation, its error responses, and
    which operations need credentials.

    A view says who writes through it with ``writers`` and who reads it with ``readers``
    (keys of ``WHO``; reads default to ``read``: public).
    """

    def _who(self) -> str:
        if self.method in ("GET", "HEAD"):
            return getattr(self.view, "readers", "read")
        return getattr(self.view, "writers", "")

    def get_description(self) -> str:
        description = super().get_description() or ""
        who = WHO.get(self._who(), "")
        return f"{description}\n\n{who}".strip()

    def get_auth(self) -> list[dict[str, Any]]:
        """No credentials for a public read (Swagger UI shows no lock on it); one of the
        API's credentials, never none, for everything else. DRF's default would also list
        "none" for reads and for views that authenticate by hand (``{}``), which Swagger
        UI shows as a lock on every public GET."""
        if self._who() in ("read", "public"):
            return []
        return [requirement for requirement in super().get_auth() if requirement]

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None and "security" not in operation:
            # Said outright (``security: []``: no credentials), not left to a default.
            operation["security"] = []
        return operation

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction=direction)
        codes = ERRORS if self.method not in ("GET", "HEAD") else READ_ERRORS
        for code in codes:
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=ERRORS[code]),
                    str(code),
                    direction=direction,
                )
        if self.method == "GET":
            responses.setdefault("304", {"description": "Not modified (If-None-Match)."})
        return responses
