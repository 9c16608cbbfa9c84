"""What every form of these pages shares: a service's refusal shown on the form."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def add_service_error(form: forms.Form, error: ValidationError) -> None:
    """Show a service's error on ``form``: on the option it names, else above the form."""
    params = getattr(error, "params", None) or {}
    field = params.get("option") if isinstance(params, dict) else None
    if field in form.fields:
        form.add_error(field, error.messages)
    else:
        form.add_error(None, error.messages)
