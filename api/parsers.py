"""The API's JSON parser: DRF's, with the nesting bound of ``tournaments.io.jsonbody``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from tournaments.io import jsonbody


class JSONParser(parsers.JSONParser):
    """A body nested deeper than ``jsonbody.MAX_DEPTH`` levels is a 400 ``parse_error``,
    as malformed JSON is (Python's parser would raise a ``RecursionError``: a 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return jsonbody.check(super().parse(stream, media_type, parser_context))
        except (RecursionError, jsonbody.TooDeep):
            raise ParseError(
                _("JSON parse error: the body is nested more than %(max)s levels deep.")
                % {"max": jsonbody.MAX_DEPTH}
            ) from None
