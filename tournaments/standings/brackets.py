"""A stage's bracket as its results made it: read by the bracket page, by the advancement
of its teams (``stages.rounds.bracket_sync``) and by the championship's placements."""

from __future__ import annotations

from collections.abc import Iterable

from tournaments import formats
from tournaments.models import Match, Stage

__all__ = ["bracket_state", "stage_bracket_state"]


def bracket_state(stage: Stage, decided: Iterable[Match]) -> formats.Bracket | None:
    """The bracket of ``stage`` with the results of ``decided`` bracket matches reported.

    Results are reported as soon as their bracket match is ready, whatever the order they
    came in; a decided match whose teams no longer fit the bracket (after a correction
    upstream) is left out and reported by ``bracket_sync``.
    """
    spec = stage.settings.get("bracket")
    if not spec:
        return None
    bracket = formats.bracket_from_positions(
        spec["positions"],
        double=spec.get("double", False),
        reset=spec.get("reset", True),
        third_place=spec.get("third_place", False),
    )
    pending = [m for m in decided if m.bracket_id and m.winner_id is not None]
    progress = True
    while pending and progress:
        progress = False
        for match in list(pending):
            slot = bracket.matches.get(match.bracket_id)
            if slot is None or not slot.ready:
                continue
            if set(slot.teams) != {match.team_a_id, match.team_b_id}:
                continue
            outcome = (
                formats.Outcome.PLAYED
                if match.outcome in ("", Match.Outcome.PLAYED)
                else formats.Outcome(match.outcome)
            )
            bracket.report(match.bracket_id, match.winner_id, outcome=outcome)
            pending.remove(match)
            progress = True
    return bracket


def stage_bracket_state(stage: Stage) -> formats.Bracket | None:
    """The bracket of ``stage`` from its stored positions and every decided bracket match
    (two queries), or None before its draw."""
    # The bracket's positions are written by round_generate: read them fresh.
    settings = Stage.objects.filter(pk=stage.pk).values_list("settings", flat=True).first()
    if not settings or not settings.get("bracket"):
        return None
    decided = Match.objects.filter(stage_id=stage.pk, status__in=Match.DECIDED).exclude(
        bracket_id=""
    )
    fresh = Stage(pk=stage.pk, settings=settings)
    return bracket_state(fresh, decided.order_by("round__number", "pk"))
