"""Conditional GET for the API: an ETag on every successful read, 304 when it matches."""

from __future__ import annotations

from typing import Any

from django.utils.cache import get_conditional_response, set_response_etag


class ETagMixin:
    """Give GET responses an ETag (a hash of the body) and answer ``If-None-Match``.

    The body is rendered first, so a 304 saves the bandwidth, not the queries; it also
    varies with the language and the user, as the body does.
    """

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method not in ("GET", "HEAD") or response.status_code != 200:
            return response
        response.render()
        set_response_etag(response)
        response["Vary"] = ", ".join(
            filter(None, [response.get("Vary"), "Accept-Language, Authorization, Cookie"])
        )
        return get_conditional_response(request, etag=response["ETag"], response=response)
