"""The one rule of the text a request brings (``tournaments.text``), given to every
writable text field of a serializer: a control character is refused beside its field."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework import serializers

from tournaments.text import one_line_validator

# DRF's mark of a field of several lines: it keeps its line breaks and tabs (the service
# strips the other control characters).
MULTILINE = {"base_template": "textarea.html"}


def one_line(fields: Iterable[Any]) -> None:
    """Give every writable text field among ``fields`` (nested serializers and lists
    included) but those marked :data:`MULTILINE` the one-line rule."""
    for field in fields:
        if isinstance(field, serializers.CharField):
            wanted = not field.read_only and field.style != MULTILINE
            if wanted and one_line_validator not in field.validators:
                field.validators.append(one_line_validator)
        elif isinstance(field, serializers.BaseSerializer):
            inner = getattr(field, "child", field)
            one_line(getattr(inner, "fields", {}).values())
        elif isinstance(field, serializers.ListField | serializers.DictField):
            one_line([field.child])
