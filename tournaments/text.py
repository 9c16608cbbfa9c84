"""The one rule for the text people type: no control characters.

A name, a club, a licence number, a phone... ends up on pages, in CSV files, in mails
(whose subject a line break makes unsendable) and in PDFs, and none of them has a place
for a line break, an escape, a bell, a DEL or a NUL. So:

- a **line** (every text but free text) holding a control character is refused with a
  sentence (:func:`line_problem`, :func:`check_lines`; :data:`one_line_validator` on a
  form's or a serializer's field);
- **free text of several lines** (a reason, a description, how to pay) keeps its line
  breaks and tabs, and every other control character is stripped (:func:`paragraph`),
  or refused where nothing may be changed (:func:`paragraph_has_control`: an archive).

Control characters are Unicode's (category Cc: C0, DEL, C1), the line and paragraph
separators, and the bidirectional overrides that make a name read backwards. Forms, the
API's serializers (``api.views.base.ApiView.valid``, every text field of a request), the
services, the CSV import and the archive import use this module; nothing else says what
a control character is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# What free text keeps: tabs and line breaks (CR LF and CR are read as LF first).
_PARAGRAPH_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

LINE_MESSAGE = _(
    "Write this on one line, without line breaks, tabs or other invisible control characters."
)


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character.

    >>> has_control("Los Pardos"), has_control("Los\\r\\nPardos"), has_control("\\x1b[31m")
    (False, True, True)
    """
    return bool(CONTROL.search(text))


def paragraph_has_control(text: str) -> bool:
    """Whether free text holds a control character :func:`paragraph` would strip: line
    breaks (LF, CR, the line and paragraph separators) and tabs are free text's own.

    >>> paragraph_has_control("Paid\\r\\nby\\ttransfer"), paragraph_has_control("Paid\\x07")
    (False, True)
    """
    return bool(_PARAGRAPH_CONTROL.search(text.replace("\r", "\n")))


def paragraph(text: str) -> str:
    """Free text as it is kept: line breaks as LF, tabs kept, other controls stripped.

    >>> paragraph("Paid\\r\\nby transfer\\x07\\x1b")
    'Paid\\nby transfer'
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    return _PARAGRAPH_CONTROL.sub("", text)


def one_line(text: str) -> str:
    """``text`` on one line, for what is written out (a mail's subject): each control
    character a space. Text stored before the rule may still hold some.

    >>> one_line("Los\\r\\nPardos")
    'Los  Pardos'
    """
    return CONTROL.sub(" ", text)


def line_problem(value: str, *, field: str, what: Any) -> TournamentError | None:
    """The sentence refusing ``value`` when it holds a control character, naming
    ``what`` it is (a translated label) and the form's ``field`` (``params["field"]``
    and ``params["option"]``, where the pages and the API put it); else None."""
    if not has_control(value or ""):
        return None
    return TournamentError(
        _(
            "%(what)s holds a line break or an invisible control character: write it on"
            " one line, without them."
        ),
        code="control_characters",
        params={"what": what, "field": field, "option": field},
    )


def line_problems(values: Mapping[str, tuple[str, Any]]) -> list[TournamentError]:
    """:func:`line_problem` of each ``field: (value, what)``, those that have one."""
    return [
        problem
        for field, (value, what) in values.items()
        if (problem := line_problem(value, field=field, what=what)) is not None
    ]


def check_lines(values: Mapping[str, tuple[str, Any]]) -> None:
    """Raise the first of :func:`line_problems`: for a service taking several lines."""
    problems = line_problems(values)
    if problems:
        raise problems[0]


@deconstructible
class OneLine:
    """A field's validator: refuses a control character with :data:`LINE_MESSAGE`
    (Django's ``ValidationError``, which forms and DRF both show beside the field)."""

    code = "control_characters"

    def __call__(self, value: Any) -> None:
        if isinstance(value, str) and has_control(value):
            raise ValidationError(LINE_MESSAGE, code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OneLine)

    def __hash__(self) -> int:
        return hash(self.code)


one_line_validator = OneLine()
