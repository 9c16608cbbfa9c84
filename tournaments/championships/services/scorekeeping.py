"""Who keeps the score at the tables: the referees, a player of the table on his phone, or
nobody (results only, reported by the teams or typed at the desk); set for a championship
and, where it differs, for one of its stages (docs/tournaments.md, "No referee at the
table"). Changing it touches no result already recorded: it says how the next ones are.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.championships.services.championships import lock_championship
from tournaments.errors import TournamentError
from tournaments.models import Championship, Scorekeeping, Stage
from tournaments.signals import announce

# A week or two at most: a league's teams may answer within days, a day's within minutes.
CONFIRM_WITHIN_MAX = 60 * 24 * 14


def _check(scorekeeping: str, *, blank: bool = False) -> str:
    if scorekeeping in Scorekeeping.values or (blank and scorekeeping == ""):
        return scorekeeping
    raise TournamentError(
        _("Unknown choice %(choice)s."), code="bad_choice", params={"choice": scorekeeping}
    )


@transaction.atomic
def championship_scorekeeping_set(
    *, championship: Championship, scorekeeping: str, confirm_within: int | None = None
) -> Championship:
    """Who keeps the score in ``championship`` (``Scorekeeping``), and how many minutes a
    team has to answer a result the other team reported (``None``: unchanged) before the
    match goes to the organiser's results to settle."""
    _check(scorekeeping)
    if confirm_within is not None and not 1 <= confirm_within <= CONFIRM_WITHIN_MAX:
        raise TournamentError(
            _("The time to confirm is between 1 minute and 14 days (%(most)s minutes)."),
            code="bad_confirm_within",
            params={"most": CONFIRM_WITHIN_MAX, "option": "confirm_within"},
        )
    lock_championship(championship)
    championship.refresh_from_db(fields=["scorekeeping", "confirm_within"])
    championship.scorekeeping = scorekeeping
    if confirm_within is not None:
        championship.confirm_within = confirm_within
    championship.save(update_fields=["scorekeeping", "confirm_within"])
    announce(championship_id=championship.pk, what="championship")
    return championship


@transaction.atomic
def stage_scorekeeping_set(*, stage: Stage, scorekeeping: str) -> Stage:
    """Who keeps the score in ``stage`` when it differs from its championship (``""``:
    as the championship says)."""
    _check(scorekeeping, blank=True)
    Stage.objects.filter(pk=stage.pk).update(scorekeeping=scorekeeping)
    stage.scorekeeping = scorekeeping
    announce(championship_id=stage.championship_id, what="stage", stage_id=stage.pk)
    return stage
