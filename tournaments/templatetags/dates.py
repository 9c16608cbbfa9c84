"""``{{ value|day:"WEEKDAY_DATE" }}``: a date (or a moment, as it stands) in one of the
project's named day formats, as the reader's language writes it (``config/formats``:
"viernes 13 de noviembre", "dv. 13 nov.", "Fri 13 Nov").

Django reads only its own format names from a formats module; these are the project's,
looked up the same way (the language's module, then English's).
"""

from __future__ import annotations

import datetime
from typing import Any

from django import template
from django.utils import formats
from django.utils.dateformat import format as date_format
from django.utils.translation import get_language

register = template.Library()


def named_format(name: str, language: str | None = None) -> str:
    """The format ``<name>_FORMAT`` of ``language`` (default: the active one), else of
    English."""
    key = f"{name}_FORMAT"
    for lang in (language or get_language() or "en", "en"):
        for module in formats.iter_format_modules(lang):
            if hasattr(module, key):
                return getattr(module, key)
    raise KeyError(key)


@register.filter(expects_localtime=True)
def day(value: datetime.date | datetime.datetime | None, name: str) -> Any:
    """``value`` in the named day format (a moment is shown as it is: make it local
    first, with ``|timezone``)."""
    if value in (None, ""):
        return ""
    return date_format(value, named_format(name))
