"""What every API view shares: conditional GET, and the helpers of writes (every text
field of a request checked by the one rule of ``tournaments.text``)."""

from __future__ import annotations

from typing import Any

from rest_framework import generics, serializers
from rest_framework.request import Request

from api.etags import ETagMixin
from api.serializers.text import one_line


class ApiView(ETagMixin, generics.GenericAPIView):
    """A GenericAPIView with ETags; subclasses say what they read and write."""

    def valid(self, serializer_class: type[serializers.Serializer], request: Request) -> Any:
        """The request's data, validated by ``serializer_class`` (400 with its fields)."""
        serializer = serializer_class(data=request.data, context=self.get_serializer_context())
        one_line(serializer.fields.values())
        serializer.is_valid(raise_exception=True)
        return serializer

    def get_serializer_context(self) -> dict[str, Any]:
        # ``private``: the reader manages the championship (set by the view that checked
        # it): the players' licences and contacts are his to read (api.serializers.teams).
        return {**super().get_serializer_context(), "private": getattr(self, "private", False)}

    def paginated(self, items: Any, serializer_class: type[serializers.Serializer]) -> Any:
        page = self.paginate_queryset(items)
        data = serializer_class(page, many=True, context=self.get_serializer_context()).data
        return self.get_paginated_response(data)
