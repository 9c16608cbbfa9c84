"""Writes to stages: creating one, and generating its next round.

A stage's format (``tournaments.stages.registry``) decides how its rounds are made; these
functions check the request, lock the stage and ask the format.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournaments.championships.services import championship_set_tiebreaks, lock_championship
from tournaments.errors import TournamentError, from_format
from tournaments.formats.base import FormatError
from tournaments.models import Championship, CheckIn, Hand, Match, Round, Stage, Team
from tournaments.notices.services import notice_matches_drawn
from tournaments.signals import announce
from tournaments.stages import registry
from tournaments.stages.rounds import lock_stage
from tournaments.standings.services import standings_outdate
from tournaments.text import check_lines


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
    """Add a stage played in ``format`` by ``teams`` (default: every team), called
    ``name``, or by its format's name (in each reader's language) when none is given.

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
    check_lines({"name": (name, _("The stage's name"))})
    name = name.strip()
    if name == str(fmt.label):
        name = ""  # the format's own name, typed: shown in each reader's language too
    # The name is the stage's natural key (an untyped one, its format's name): under the
    # championship lock a double submit of the form finds the first stage and is refused,
    # and the order cannot be taken twice.
    lock_championship(championship)
    same = championship.stages.filter(name=name)
    if not name:
        same = same.filter(format=fmt.key)
    if same.exists():
        raise TournamentError(
            _("This championship already has a stage called %(name)s."),
            code="stage_name_taken",
            params={"name": name or str(fmt.label)},
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
    chosen = list(teams) if teams is not None else list(championship.teams.playing())
    if any(t.championship_id != championship.pk for t in chosen):
        raise TournamentError(_("A team of another championship."), code="foreign_team")
    stage.teams.set(chosen)
    announce(championship_id=championship.pk, stage_id=stage.pk, what="round")
    return stage


@transaction.atomic
def round_generate(*, stage: Stage, number: int | None = None, confirm: bool = True) -> list[Match]:
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

    ``confirm`` False (the organiser's page, until he confirms): while a match of the last
    round is still undecided, nothing is generated and a ``TournamentError`` (code
    ``previous_unfinished``) says how many; commands and the API go ahead.

    Once check-in is taken for the round (:func:`check_in_set`), the formats that use it
    pair only the teams present: in a round robin the absent team's opponent wins by
    walkover; in a Swiss round the absent team loses by walkover or sits out, as the
    championship's ``absent_teams`` says.
    """
    stage = lock_stage(stage)
    if stage.championship.status == Championship.Status.DRAFT:
        # A draft is still being set up: its teams, rules and stages may all change.
        raise TournamentError(
            _("Rounds are generated once the championship is out of draft: open its entries "
              "or start it first."),
            code="championship_draft",
        )  # fmt: skip
    if number is not None and stage.rounds.filter(number__gte=number).exists():
        raise TournamentError(
            _("Round %(number)s has already been generated."),
            code="round_exists",
            params={"number": number},
        )
    fmt = registry.get(stage.format)
    last = stage.rounds.order_by("-number").first()
    if not confirm and not fmt.waits_for_results:
        open_count = _still_to_decide(last)
        if open_count:
            raise TournamentError(
                ngettext_lazy(
                    "%(count)s match of round %(number)s is not finished yet.",
                    "%(count)s matches of round %(number)s are not finished yet.",
                    "count",
                ),
                code="previous_unfinished",
                params={"count": open_count, "number": last.number},
            )
    try:
        if fmt.uses_check_in:
            absent = frozenset(check_in_absent(stage=stage, number=next_round_number(stage)))
            created = fmt.next_round(stage, absent=absent)
        else:
            created = fmt.next_round(stage)
    except FormatError as error:
        raise from_format(error) from None
    if any(m.status == Match.Status.WALKOVER for m in created):
        standings_outdate(stage=stage)
    # Each team drawn is told its next match (sent once this commits).
    notice_matches_drawn(matches=created)
    announce(championship_id=stage.championship_id, stage_id=stage.pk, what="round")
    return created


def next_round_number(stage: Stage) -> int:
    """The number the next generated round of ``stage`` will have."""
    return (stage.rounds.aggregate(top=Max("number"))["top"] or 0) + 1


def check_in_absent(*, stage: Stage, number: int) -> list[int]:
    """The teams of ``stage`` absent for round ``number``: none while check-in is not
    taken (no row for that round), else every team not marked present."""
    rows = dict(
        CheckIn.objects.filter(stage=stage, round_number=number).values_list("team_id", "present")
    )
    if not rows:
        return []
    return [t for t in stage.teams.values_list("pk", flat=True) if not rows.get(t, False)]


@transaction.atomic
def check_in_set(
    *, stage: Stage, team: Team, present: bool, by: AbstractBaseUser | None = None
) -> CheckIn:
    """Mark ``team`` present (or absent) for the next round of ``stage``."""
    if not stage.teams.filter(pk=team.pk).exists():
        raise TournamentError(
            _("%(team)s does not play this stage."), code="not_in_stage", params={"team": team}
        )
    stage = lock_stage(stage)
    number = next_round_number(stage)
    check_in, _created = CheckIn.objects.update_or_create(
        stage=stage, team=team, round_number=number, defaults={"present": present, "by": by}
    )
    return check_in


@transaction.atomic
def check_in_all(*, stage: Stage, by: AbstractBaseUser | None = None) -> int:
    """Mark every team of ``stage`` present for its next round; returns how many."""
    stage = lock_stage(stage)
    number = next_round_number(stage)
    teams = list(stage.teams.all())
    for team in teams:
        CheckIn.objects.update_or_create(
            stage=stage, team=team, round_number=number, defaults={"present": True, "by": by}
        )
    return len(teams)


@transaction.atomic
def check_in_reset(*, stage: Stage) -> None:
    """Forget the check-in of the next round: every team plays it again."""
    stage = lock_stage(stage)
    CheckIn.objects.filter(stage=stage, round_number=next_round_number(stage)).delete()


def takes_check_in(stage: Stage) -> bool:
    """Whether ``stage``'s next round pairs the teams checked in: its format uses check-in
    and the rounds that do are not over (a groups stage's knockout comes from its bracket,
    whoever is at the door)."""
    return registry.get(stage.format).uses_check_in and not _stage_over(stage)


# A match of a round still to be decided; a bracket's round (labelled) counts none: its
# matches follow from the results.
_TO_DECIDE = Q(round__label="") & ~Q(status__in=Match.DECIDED)


def round_in_play(stage: Stage) -> bool:
    """Whether a match of ``stage``'s last round is still to be decided. A team that checks
    in through its link meanwhile would check in for the round after it, and every team
    that has not yet would be absent from that round: the link waits for the round's end.
    """
    return stage.pk in rounds_in_play([stage])


def rounds_in_play(stages: Sequence[Stage]) -> set[int]:
    """The ids of those of ``stages`` whose last round is in play (:func:`round_in_play`;
    a bracket's round never is: its matches follow from the results). One query, for a
    team's page that shows several stages."""
    last = Round.objects.filter(stage=OuterRef("stage")).order_by("-number").values("pk")[:1]
    return set(
        Match.objects.filter(_TO_DECIDE, stage__in=stages, round=Subquery(last))
        .order_by()
        .values_list("stage_id", flat=True)
        .distinct()
    )


def _still_to_decide(last: Round | None) -> int:
    """How many matches of ``last``, a stage's last round, are still to be decided (none
    for no round, or a bracket's round: its matches follow from the results)."""
    if last is None:
        return 0
    return last.matches.filter(_TO_DECIDE).count()


def team_check_in_stages(*, team: Team) -> list[Stage]:
    """The stages ``team`` plays that take check-in now (:func:`takes_check_in`), in
    order: where :func:`team_check_in` marks it present (its personal link's page shows
    them too)."""
    return [s for s in team.stages.order_by("order") if takes_check_in(s)]


@transaction.atomic
def team_check_in(
    *, team: Team, by: AbstractBaseUser | None = None, stages: list[Stage] | None = None
) -> list[Stage]:
    """A team at the door (its QR code scanned): present for the next round of every stage
    it plays that uses check-in and is not over (or of ``stages``, some of those). Returns
    those stages."""
    stages = team_check_in_stages(team=team) if stages is None else stages
    if not stages:
        raise TournamentError(
            _("%(team)s plays no stage that takes check-in."),
            code="no_check_in_stage",
            params={"team": team},
        )
    for stage in stages:
        check_in_set(stage=stage, team=team, present=True, by=by)
    return stages


def _stage_over(stage: Stage) -> bool:
    # The group rounds of a groups-then-knockout stage are over once its bracket is drawn.
    return "bracket" in stage.settings


@transaction.atomic
def round_remove(*, stage: Stage, number: int) -> None:
    """Remove round ``number`` of ``stage``: only its last round, only before any hand is
    recorded in it and any result is given by hand (walkovers from the check-in go with
    the round), and never a bracket round (bracket matches follow from the results)."""
    stage = lock_stage(stage)
    round_ = stage.rounds.filter(number=number).first()
    if round_ is None:
        raise TournamentError(
            _("Round %(number)s does not exist."), code="no_round", params={"number": number}
        )
    if round_.label:
        raise TournamentError(
            _(
                "A bracket round cannot be removed: its matches follow from the results."
                " Correct the result that made it instead."
            ),
            code="bracket_round",
        )
    if stage.rounds.filter(number__gt=number).exists():
        raise TournamentError(
            _("Only the last round can be removed: remove the later rounds first."),
            code="not_last_round",
        )
    matches = list(round_.matches.all())
    if Hand.objects.filter(match__in=matches).exists():
        raise TournamentError(
            _("Hands have been recorded in this round: it cannot be removed."),
            code="round_played",
        )
    absent = set(round_.absent)
    for match in matches:
        by_check_in = match.team_a_id in absent or match.team_b_id in absent
        if match.status == Match.Status.WALKOVER and not by_check_in:
            raise TournamentError(
                _("%(match)s has a walkover result: cancel it before removing the round."),
                code="round_has_walkover",
                params={"match": str(match)},
            )
    decided = any(m.status == Match.Status.WALKOVER for m in matches)
    round_.delete()
    if not stage.rounds.exists():
        # Back to the start: the next generation reads the seeds (and groups) again.
        stage.settings.pop("teams", None)
        if stage.settings.pop("groups", None) is not None:
            stage.groups.all().delete()
        stage.save(update_fields=["settings"])
    if decided:
        standings_outdate(stage=stage)
    announce(championship_id=stage.championship_id, stage_id=stage.pk, what="round")
