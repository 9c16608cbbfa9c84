"""Every API error in one shape: ``{"error": {"code", "message", "fields", ...}}``.

``code`` is stable (the engine's and the services' codes, or DRF's); ``message`` is a
sentence in the request's language (LocaleMiddleware picks it from Accept-Language).
An engine refusal adds ``hand`` (the hand's number) and ``event`` (the 0-based index of
the offending event), as ``python -m scoring`` prints them, and a reported result the
engine refuses ``game`` (the 0-based index of the chico at fault in ``games``, as
``python -m scoring result`` prints it); a CSV import adds ``rows``; a hand-number
conflict adds ``expected``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from tournaments.errors import TournamentError
from tournaments.io.imports import ImportRowsError

# Service refusals that are a conflict with the stored state rather than a bad request.
CONFLICTS = {
    "hand_exists",
    "hand_number",
    "round_exists",
    "team_name_taken",
    "slug_taken",
    "stage_name_taken",
    "rules_locked",
    "seats_locked",
    "match_over",
    "entries_closed",
    "team_has_matches",
    "seed_locked",
    "walkover",
    "walkover_after_play",
    "bad_status_change",
    "draft_other_device",
    "draft_stale",
    "championship_draft",
    "entry_refused",
    "entry_key_used",
    "entry_withdrawn",
    # A match recorded as its result: one result, one way of recording it.
    "result_differs",
    "already_answered",
    "kept_hand_by_hand",
    "result_reported",
    "recorded_already",
    "not_a_result",
    "merge_gone",
}

# Service refusals of the acting user himself (he may not referee this championship, or
# this match; he does not manage the championships of the people he would merge): the
# API's permission error, 403, with the service's code and message. The rule is the
# services' (``results.selectors.hand_write_problem``, ``people.services.merges``), so the
# pages and the API refuse the same users; only its status is decided here.
FORBIDDEN = {"not_referee", "not_match_referee", "person_not_managed", "merge_not_managed"}
# A team through its personal link, acting where it may not: another team's match, or a
# championship whose referees keep the score.
FORBIDDEN |= {"not_team_match", "referees_keep_score", "results_only"}
# A link revoked while its request was on its way (the link is checked again under its
# lock): the credentials are no longer good, as when it is revoked before.
UNAUTHORISED = {"link_revoked", "link_invalid"}
# A championship's share of messages spent: the organiser may send again later, as when
# throttled.
LIMITED = {"messages_limit"}


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


class Unprocessable(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "unprocessable"


def body(code: str, message: str, fields: dict[str, Any] | None = None, **extra: Any) -> dict:
    return {"error": {"code": code, "message": message, "fields": fields or {}, **extra}}


def _fields(detail: Any) -> dict[str, Any]:
    """DRF's nested field errors as plain strings (lists, dicts of lists...)."""
    if isinstance(detail, dict):
        return {str(key): _fields(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_fields(value) for value in detail]  # type: ignore[return-value]
    return str(detail)


def _first_message(fields: Any) -> str | None:
    if isinstance(fields, dict):
        for value in fields.values():
            if (found := _first_message(value)) is not None:
                return found
    elif isinstance(fields, list):
        for value in fields:
            if (found := _first_message(value)) is not None:
                return found
    elif isinstance(fields, str):
        return fields
    return None


def _service_error(error: DjangoValidationError) -> Response:
    if isinstance(error, ImportRowsError):
        rows = [
            {"row": row.row, "column": row.column, "message": str(row.message)}
            for row in error.rows
        ]
        message = _("The file has errors: nothing was imported.")
        return Response(body("import_rows", message, rows=rows), status=400)
    if isinstance(error, TournamentError):
        code = error.code or "invalid"
        extra: dict[str, Any] = {}
        if error.hand is not None or error.event is not None:
            extra = {"hand": error.hand, "event": error.event}
        params = error.params or {}
        if params.get("expected") is not None:
            extra["expected"] = params["expected"]
        if "index" in params:  # the engine names a chico of a reported result
            extra["game"] = params["index"]
        if code in UNAUTHORISED:
            headers = {"WWW-Authenticate": "TeamLink"}
            return Response(body(code, error.text, **extra), status=401, headers=headers)
        if code in LIMITED:
            return Response(body(code, error.text, **extra), status=429)
        answer = 409 if code in CONFLICTS else 403 if code in FORBIDDEN else 400
        return Response(body(code, error.text, **extra), status=answer)
    # A model's full_clean() in a service: field errors when it has them.
    fields = (
        {key: [str(m) for m in messages] for key, messages in error.message_dict.items()}
        if hasattr(error, "error_dict")
        else {}
    )
    return Response(body("invalid", " ".join(error.messages), fields), status=400)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, reshaped; Django's ValidationError (the services' errors) included."""
    if isinstance(exc, DjangoValidationError):
        set_rollback()
        return _service_error(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a bug: Django answers 500 and logs it
    detail = exc.detail if isinstance(exc, exceptions.APIException) else None
    if isinstance(exc, exceptions.ValidationError):
        fields = _fields(detail)
        if isinstance(fields, list):
            fields = {"non_field_errors": fields}
        message = _first_message(fields) or _("The request is not valid.")
        response.data = body("invalid", message, fields)
        return response
    code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
    if not isinstance(code, str):
        code = exc.default_code
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        extra["wait"] = int(exc.wait + 0.999)
    response.data = body(code, str(detail), **extra)
    return response
