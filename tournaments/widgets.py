"""The inputs of dates and times on every form: the browser's own pickers, given ISO values.

An ``<input type="date">`` reads its ``value`` as ``YYYY-MM-DD`` only, whatever the page's
language, and shows the date in the reader's own format itself. Django's date widgets
write the language's format instead (``25/12/2026`` in Spanish and Catalan), which the
browser takes for no value at all: the field opens empty, and a form sent back untouched
loses the date (an optional one silently). So every date, time and date-time field of the
site uses these widgets (a test walks every form to keep it so); what the browser sends
back, ISO again, every language's field reads.
"""

from __future__ import annotations

from django import forms

ISO_DATE = "%Y-%m-%d"
ISO_TIME = "%H:%M"
ISO_DATETIME = "%Y-%m-%dT%H:%M"


class DateInput(forms.DateInput):
    """``<input type="date">`` with its value as ``YYYY-MM-DD``."""

    input_type = "date"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_DATE)


class TimeInput(forms.TimeInput):
    """``<input type="time">`` with its value as ``HH:MM``."""

    input_type = "time"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_TIME)


class DateTimeInput(forms.DateTimeInput):
    """``<input type="datetime-local">`` with its value as ``YYYY-MM-DDTHH:MM``."""

    input_type = "datetime-local"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_DATETIME)


ISO_WIDGETS = (DateInput, TimeInput, DateTimeInput)
