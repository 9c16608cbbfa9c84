"""Template filters that ask the stage-format registry about a stage."""

import datetime as dt

from django import template
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from tournaments.models import Stage
from tournaments.stages import league, registry

register = template.Library()


@register.filter
def format_label(stage: Stage) -> str:
    """The stage's format in words: ``{{ stage|format_label }}``."""
    return registry.label(stage.format)


@register.filter
def stage_name(stage: Stage) -> str:
    """The stage's name for people: ``{{ stage|stage_name }}`` (the organiser's, or its
    format's in the reader's language)."""
    return registry.stage_name(stage)


@register.filter
def has_bracket(stage: Stage) -> bool:
    """Whether the stage has (or will have) a bracket page."""
    fmt = registry.FORMATS.get(stage.format)
    return fmt is not None and fmt.has_bracket


@register.filter
def table_label(table: str) -> str:
    """A match's table for people: "Table 7" for a bare number or short code, the name
    itself when the organiser typed one ("Mesa del fondo" stays, never "Table Mesa del
    fondo")."""
    table = (table or "").strip()
    if not table:
        return ""
    if table.isdigit() or (len(table) <= 3 and " " not in table):
        return _("Table %(table)s") % {"table": table}
    return table


@register.filter
def skipped_days(stage: Stage) -> str:
    """A league's blackout dates in words ("25 December, 1 January"), in the reader's
    language; empty for a league that skips none, or another format."""
    if not stage.is_league:
        return ""
    try:
        entries = league.skip_dates(stage.settings)
    except ValidationError:
        return ""
    shown = []
    for entry in entries:
        if len(entry) == 5:  # every year
            month, day = (int(part) for part in entry.split("-"))
            shown.append(date_format(dt.date(2000, month, day), "MONTH_DAY_FORMAT"))
        else:
            shown.append(date_format(dt.date.fromisoformat(entry), "DATE_FORMAT"))
    return ", ".join(shown)


@register.filter
def round_title(stage: Stage, number: int) -> str:
    """The name of ``stage``'s round ``number`` ("Matchday 3" in a league):
    ``{{ stage|round_title:number }}``."""
    return stage.round_title(number)
