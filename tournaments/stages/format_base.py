"""What every stage format is: the class a format subclasses (its name, settings and their
defaults, the choices an organiser picks it by, its form fields, and how it makes its next
round), the variants of the stage form, and the pieces several formats share.

The formats themselves live in ``pair_formats`` (matches of two sides) and
``table_formats`` (tables of three); ``registry`` lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournaments.errors import TournamentError
from tournaments.models import Match, Stage


@dataclass(frozen=True)
class Variant:
    """One choice in the stage form: a format with some settings fixed."""

    key: str
    label: Promise
    settings: Mapping[str, Any] = field(default_factory=dict)


class StageFormat:
    """A stage format. Subclasses set the class attributes and :meth:`next_round`."""

    key: ClassVar[str]
    label: ClassVar[Promise]
    defaults: ClassVar[Mapping[str, Any]] = {}
    has_bracket: ClassVar[bool] = False
    has_groups: ClassVar[bool] = False
    # Settings the organiser types in, each with its form field (the rest come from the
    # chosen variant or the defaults).
    fields: ClassVar[Mapping[str, Callable[[], forms.Field]]] = {}

    @classmethod
    def variants(cls) -> list[Variant]:
        return [Variant(cls.key, cls.label)]

    # Whether it seats single players three to a table (gallo): its standings are placement
    # points (standings.selectors.TABLE_FORMATS lists these keys).
    has_tables: ClassVar[bool] = False

    # Whether the format pairs only the teams present at check-in (tournaments.models.CheckIn).
    uses_check_in: ClassVar[bool] = False
    # Whether a round is paired from the results of the previous one (then it waits for
    # them all; otherwise the organiser may go ahead after confirming).
    waits_for_results: ClassVar[bool] = False

    def next_round(self, stage: Stage, absent: frozenset[int] = frozenset()) -> list[Match]:
        """Create the next round's matches (``stage`` is locked by the caller); ``absent``:
        the teams not checked in, for the formats that use check-in."""
        raise NotImplementedError


def check_swiss_round_left(stage: Stage, *, default: int) -> None:
    """A Swiss stage (of pairs or of tables) plays its ``rounds`` setting, no more."""
    total = stage.settings.get("rounds", default)
    if stage.rounds.count() >= total:
        raise TournamentError(
            ngettext_lazy(
                "The one round of this Swiss stage has been generated.",
                "All %(rounds)s rounds of this Swiss stage have been generated.",
                "rounds",
            ),
            code="no_round_left",
            params={"rounds": total},
        )


def rounds_field() -> forms.Field:
    return forms.IntegerField(
        label=_("Number of rounds (Swiss)"), min_value=1, max_value=50, initial=5
    )
