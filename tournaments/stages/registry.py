"""The stage formats, registered by key (Tabbycat's draw generators).

A format says what it is called, its settings and their defaults, the choices an
organiser picks it by (a format may offer variants, such as a single or double round
robin), the form fields of its settings, whether it has a bracket or groups, and how it
makes its next round (``format_base.StageFormat``). The formats live in their modules
(``pair_formats``, ``table_formats``) and are listed here, in the order the stage form
offers them: adding a format is adding its class to its module's ``FORMATS``. The stage
form, the services, the pages and the standings ask this registry.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import Stage
from tournaments.stages import pair_formats, table_formats
from tournaments.stages.format_base import StageFormat, Variant
from tournaments.standings.selectors import TABLE_FORMATS

__all__ = [
    "FORMATS",
    "StageFormat",
    "Variant",
    "get",
    "label",
    "register",
    "stage_name",
    "variants",
]

FORMATS: dict[str, StageFormat] = {
    fmt.key: fmt() for fmt in (*pair_formats.FORMATS, *table_formats.FORMATS)
}


def register(cls: type[StageFormat]) -> type[StageFormat]:
    """Add a format (a championship's own, or a test's) to those listed above."""
    FORMATS[cls.key] = cls()
    return cls


def get(key: str) -> StageFormat:
    """The format registered as ``key``; ``TournamentError`` for an unknown one."""
    try:
        return FORMATS[key]
    except KeyError:
        raise TournamentError(
            _("Unknown format %(format)s."), code="bad_format", params={"format": key}
        ) from None


def variants() -> list[tuple[StageFormat, Variant]]:
    """Every choice of the stage form, in registry order."""
    return [(fmt, variant) for fmt in FORMATS.values() for variant in fmt.variants()]


def label(key: str) -> str:
    """A format's name for people (the key itself for a format no longer registered)."""
    fmt = FORMATS.get(key)
    return str(fmt.label) if fmt is not None else key


def stage_name(stage: Stage) -> str:
    """A stage's name for people: the organiser's, or, when he typed none, its format's in
    the reader's language (``{{ stage|stage_name }}`` in a template)."""
    return stage.name or label(stage.format)


# The standings tell a table stage by its key (they cannot ask the registry, above them).
assert {key for key, fmt in FORMATS.items() if fmt.has_tables} == TABLE_FORMATS
