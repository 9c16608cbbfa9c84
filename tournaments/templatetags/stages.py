"""Template filters that ask the stage-format registry about a stage."""

from django import template
from django.utils.translation import gettext as _

from tournaments.models import Stage
from tournaments.stages import registry

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
