"""Template filters that ask the stage-format registry about a stage."""

from django import template

from tournaments.models import Stage
from tournaments.stages import registry

register = template.Library()


@register.filter
def format_label(stage: Stage) -> str:
    """The stage's format in words: ``{{ stage|format_label }}``."""
    return registry.label(stage.format)


@register.filter
def has_bracket(stage: Stage) -> bool:
    """Whether the stage has (or will have) a bracket page."""
    fmt = registry.FORMATS.get(stage.format)
    return fmt is not None and fmt.has_bracket
