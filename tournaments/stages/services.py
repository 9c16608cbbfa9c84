"""Writes to stages: creating one, and generating its next round.

A stage's format (``tournaments.stages.registry``) decides how its rounds are made; these
functions check the request, lock the stage and ask the format.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from tournaments.championships.services import championship_set_tiebreaks, lock_championship
from tournaments.errors import TournamentError, from_format
from tournaments.formats.base import FormatError
from tournaments.models import Championship, Match, Stage, Team
from tournaments.signals import announce
from tournaments.stages import registry
from tournaments.stages.rounds import lock_stage


@transaction.atomic
def stage_create(
    *,
    championship: Championship,
    format: str,
    name: str = "",
    settings: Mapping[str, Any] | None = None,
    teams: Iterable[Team] | None = None,
    tiebreaks: Sequence[str] | None = None,
) -> Stage:
    """Add a stage played in ``format`` by ``teams`` (default: every team).

    ``settings`` are the format's (``registry.FORMATS[format].defaults`` lists them with
    their defaults); an unknown one is refused. ``tiebreaks``, when given and different,
    become the championship's tie-break chain in the same transaction.
    """
    fmt = registry.get(format)
    merged = dict(fmt.defaults)
    unknown = set(settings or {}) - set(merged)
    if unknown:
        raise TournamentError(
            _("Unknown setting %(setting)s for this format."),
            code="bad_setting",
            params={"setting": ", ".join(sorted(unknown))},
        )
    merged.update(settings or {})
    name = name.strip() or str(fmt.label)
    # The name is the stage's natural key: under the championship lock a double submit of
    # the form finds the first stage and is refused, and the order cannot be taken twice.
    lock_championship(championship)
    if championship.stages.filter(name=name).exists():
        raise TournamentError(
            _("This championship already has a stage called %(name)s."),
            code="stage_name_taken",
            params={"name": name},
        )
    if tiebreaks is not None and list(tiebreaks) != list(championship.tiebreaks):
        championship = championship_set_tiebreaks(championship=championship, tiebreaks=tiebreaks)
    order = (championship.stages.aggregate(top=Max("order"))["top"] or 0) + 1
    stage = Stage.objects.create(
        championship=championship,
        format=fmt.key,
        name=name,
        order=order,
        settings=merged,
    )
    chosen = list(teams) if teams is not None else list(championship.teams.all())
    if any(t.championship_id != championship.pk for t in chosen):
        raise TournamentError(_("A team of another championship."), code="foreign_team")
    stage.teams.set(chosen)
    announce(championship_id=championship.pk, stage_id=stage.pk, what="round")
    return stage


@transaction.atomic
def round_generate(*, stage: Stage, number: int | None = None) -> list[Match]:
    """Generate the next round of ``stage`` from its format and current results.

    Round robin: the next round of the circle schedule (teams in seed order). Swiss: the
    pairing of the current standings, once every match of the stage is decided.
    Elimination: the first call builds the bracket from the seeds; later calls create the
    matches whose two teams are known (winners advance by themselves as results come in).
    Groups then knockout: group rounds first, then the knockout from the group standings.
    Returns the matches created; raises ``TournamentError`` when none can be.

    ``number``: the round the organiser asked for (the form carries it). If the stage
    already has that round, e.g. the form was sent twice, nothing is generated and a
    ``TournamentError`` (code ``round_exists``) says so.
    """
    stage = lock_stage(stage)
    if number is not None and stage.rounds.filter(number__gte=number).exists():
        raise TournamentError(
            _("Round %(number)s has already been generated."),
            code="round_exists",
            params={"number": number},
        )
    try:
        created = registry.get(stage.format).next_round(stage)
    except FormatError as error:
        raise from_format(error) from None
    announce(championship_id=stage.championship_id, stage_id=stage.pk, what="round")
    return created
