"""What the forms of every audience share: a service's refusal shown on the form, beside
the field it names, and the one-line rule of the text typed (``tournaments.text``) said
beside its field."""

from __future__ import annotations

from collections.abc import Iterable

from django import forms
from django.core.exceptions import ValidationError

from tournaments.text import one_line_validator


def add_service_error(form: forms.Form, error: ValidationError) -> None:
    """Show a service's error on ``form``: on the option it names, else above the form."""
    params = getattr(error, "params", None) or {}
    field = params.get("option") if isinstance(params, dict) else None
    if field in form.fields:
        form.add_error(field, error.messages)
    else:
        form.add_error(None, error.messages)


def add_entry_errors(form: forms.Form, errors: Iterable[ValidationError]) -> None:
    """Each service sentence beside the field it names (``params["field"]``), the others
    above the form."""
    for error in errors:
        params = getattr(error, "params", None) or {}
        field = params.get("field") if isinstance(params, dict) else None
        form.add_error(field if field in form.fields else None, error.messages)


class OneLineMixin:
    """Every text field of the form but a ``Textarea`` refuses control characters (a line
    break, an escape...) beside itself, fields added in ``__init__`` included; the
    services refuse them anyway, so a form without it is no hole, only a sentence further
    from its field."""

    fields: dict[str, forms.Field]

    def full_clean(self) -> None:
        for field in self.fields.values():
            if (
                isinstance(field, forms.CharField)
                and not isinstance(field.widget, forms.Textarea)
                and one_line_validator not in field.validators
            ):
                field.validators.append(one_line_validator)
        super().full_clean()  # type: ignore[misc]
