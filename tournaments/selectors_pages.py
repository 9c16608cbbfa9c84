"""Reads the web pages need beyond ``tournaments.selectors``: access checks and summaries.

Everything here only reads. The organiser pages find a championship through
:func:`championship_for_organiser`, which answers 404 to anyone who does not organise it,
so a stranger cannot even learn that a slug exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from scoring.rules import PRESETS, RuleSet
from tournaments import records, tiebreaks
from tournaments.models import Championship, Match, Round, Stage
from tournaments.services import REFEREES_GROUP


def can_organise(user: Any, championship: Championship) -> bool:
    """Staff manage every championship; anyone else only those listing them as organiser."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return championship.organisers.filter(pk=user.pk).exists()


def _managed_by(user: Any) -> QuerySet[Championship]:
    """The championships ``user`` may manage: staff all, anyone else those he organises."""
    if user.is_staff:
        return Championship.objects.all()
    return Championship.objects.filter(organisers=user)


def championships_for_organiser(*, user: Any) -> QuerySet[Championship]:
    """The championships ``user`` may manage, newest first, with their team counts."""
    queryset = _managed_by(user).annotate(team_count=Count("teams", distinct=True))
    return queryset.order_by("-start_date", "name")


def championship_for_organiser(*, user: Any, slug: str) -> Championship:
    """The championship ``slug`` if ``user`` may manage it, else ``Http404``."""
    championship = _managed_by(user).filter(slug=slug).first()
    if championship is None:
        raise Http404("No such championship.")
    return championship


def championship_public(*, slug: str) -> Championship:
    """A championship the public may see (not a draft), else ``Http404``."""
    championship = (
        Championship.objects.exclude(status=Championship.Status.DRAFT).filter(slug=slug).first()
    )
    if championship is None:
        raise Http404("No such championship.")
    return championship


def stage_of(*, championship: Championship, stage_id: int) -> Stage:
    """A stage of ``championship`` (with it attached, saving a query), else ``Http404``."""
    stage = championship.stages.filter(pk=stage_id).first()
    if stage is None:
        raise Http404("No such stage.")
    stage.championship = championship
    return stage


def round_of(*, stage: Stage, number: int) -> Round:
    round_ = stage.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404("No such round.")
    round_.stage = stage
    return round_


def match_of(*, championship: Championship, match_id: int) -> Match:
    """A match of ``championship`` with its teams and stage, else ``Http404``."""
    match = (
        Match.objects.select_related("stage", "round", "team_a", "team_b", "winner")
        .filter(stage__championship=championship, pk=match_id)
        .first()
    )
    if match is None:
        raise Http404("No such match.")
    match.stage.championship = championship
    return match


def referee_choices() -> QuerySet:
    """Users who may referee a match: staff and the members of the referees group."""
    return (
        get_user_model()
        .objects.filter(Q(is_staff=True) | Q(groups__name=REFEREES_GROUP), is_active=True)
        .distinct()
        .order_by("username")
    )


# -- rules and tie-breaks in words --------------------------------------------------------


def rule_set(championship: Championship) -> RuleSet:
    return RuleSet.from_spec(records.rules_spec(championship))


def preset_defaults(preset: str) -> RuleSet:
    return PRESETS[preset]


def rules_summary(championship: Championship) -> list[str]:
    """The rule set in a few sentences for players (in the active language)."""
    rules = rule_set(championship)
    preset = {
        "argentine": _("Argentine truco without flor"),
        "argentine_flor": _("Argentine truco with flor"),
        "trucardo": _("Trucardo"),
        "catalan": _("Catalan truc"),
    }[rules.preset]
    lines = [
        _("%(preset)s, teams of %(size)s.") % {"preset": preset, "size": championship.team_size},
    ]
    if rules.best_of == 1:
        lines.append(_("A match is a single game to %(target)s points.") % {"target": rules.target})
    else:
        lines.append(
            _("A match is won by the first team to win two games of %(target)s points.")
            % {"target": rules.target}
        )
    if rules.is_catalan:
        lines.append(_("Catalan 48-card deck; truc and tres; the rule of 11 (mestre)."))
        return lines
    lines.append(_("Spanish 40-card deck; truco, retruco and vale cuatro; envido."))
    if rules.has_halves:
        lines.append(_("Each game has two halves of 15: malas and buenas."))
    if rules.flor:
        lines.append(_("Played with flor."))
    else:
        lines.append(_("Played without flor."))
    if rules.hierarchy == "inverse":
        lines.append(_("Inverse card hierarchy."))
    return lines


@dataclass(frozen=True)
class TieBreakColumn:
    key: str
    name: str
    abbr: str


def tiebreak_columns(championship: Championship) -> list[TieBreakColumn]:
    """The championship's tie-break chain, in order, with names and abbreviations."""
    return [
        TieBreakColumn(key=cls.key, name=str(cls.name), abbr=str(cls.abbr))
        for cls in tiebreaks.check_chain(list(championship.tiebreaks))
    ]


def tiebreak_choices() -> list[tuple[str, str]]:
    """Every registered tie-break as (key, name) for a form."""
    return [(key, str(cls.name)) for key, cls in tiebreaks.TIEBREAKS.items()]


def default_tiebreaks() -> tuple[str, ...]:
    return tiebreaks.DEFAULT_CHAIN


def slug_taken(slug: str) -> bool:
    return Championship.objects.filter(slug=slug).exists()
