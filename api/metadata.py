"""What ``OPTIONS`` answers on the API: the view's name, description, methods and formats.

DRF's ``SimpleMetadata`` also describes the body of a PUT or POST by running the view's
object lookup and its ``serializer_class``; our views look their objects up in the
handlers (``api.access``) and validate each method with a serializer of its own, so that
lookup failed (a 500) and that description would be wrong. The request and response
bodies are described by the OpenAPI schema (``/api/schema/``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request


class Metadata(SimpleMetadata):
    def determine_metadata(self, request: Request, view: Any) -> dict[str, Any]:
        found = super().determine_metadata(request, view)
        found["allowed_methods"] = list(view.allowed_methods)
        return found

    def determine_actions(self, request: Request, view: Any) -> dict[str, Any]:
        return {}
