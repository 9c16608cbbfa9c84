"""Reads of championships, teams and the people who run them.

Selectors own ``select_related``/``prefetch_related``. Who may manage a championship and
who may referee are decided here, once: pages, services and the API ask these functions.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import RuleSet
from tournaments.models import (
    Championship,
    ChampionshipReferee,
    Entry,
    Hand,
    Match,
    Membership,
    RefereeInvitation,
    Team,
)

# Who manages what is decided in the models' module (Championship.objects.managed_by),
# below every domain package, so the people's services apply the very same rule.
from tournaments.models import manages_every_championship as manages_every_championship

# A team's players in seating order, each with his person (for his public name): every
# prefetch of memberships uses it.
MEMBERS_IN_ORDER = Membership.objects.select_related("player__person").order_by("order")

# What may follow each status (organisers may also step back one, e.g. to reopen entries).
STATUS_FLOW = {
    Championship.Status.DRAFT: (Championship.Status.REGISTRATION,),
    Championship.Status.REGISTRATION: (Championship.Status.RUNNING, Championship.Status.DRAFT),
    Championship.Status.RUNNING: (Championship.Status.FINISHED, Championship.Status.REGISTRATION),
    Championship.Status.FINISHED: (Championship.Status.RUNNING,),
}
# Teams may be entered and removed only before play starts.
OPEN_ENTRIES = (Championship.Status.DRAFT, Championship.Status.REGISTRATION)


def status_moves(championship: Championship) -> list[tuple[str, str]]:
    """The statuses ``championship`` may move to, as (value, label): one on, or one back."""
    return [(s.value, s.label) for s in STATUS_FLOW[Championship.Status(championship.status)]]


def status_move_is_back(championship: Championship, status: str) -> bool:
    """Whether moving ``championship`` to ``status`` goes back a step (the organiser is
    asked to confirm it: a running championship reopened for entries, say)."""
    order = list(Championship.Status.values)
    return status in order and order.index(status) < order.index(championship.status)


def rules_locked(championship: Championship) -> bool:
    """Whether the championship's rules are fixed: once a hand is recorded, they are."""
    return Hand.objects.filter(match__stage__championship=championship).exists()


def entries_open(championship: Championship) -> bool:
    """Whether teams may still be entered or removed."""
    return championship.status in OPEN_ENTRIES


def championship_list_public() -> QuerySet[Championship]:
    """Championships the public may see: every one that is no longer a draft."""
    return Championship.objects.exclude(status=Championship.Status.DRAFT)


def championship_detail(*, slug: str) -> Championship:
    """A championship with its stages and its circuit, if any (raises DoesNotExist); its
    teams are :func:`championship_teams`, read only where its page draws their list."""
    # Its circuit, if any, in the same query: the page says "part of the circuit X".
    return (
        Championship.objects.select_related("circuit_event__circuit")
        .prefetch_related("stages")
        .get(slug=slug)
    )


def championship_teams(*, championship: Championship) -> list[Team]:
    """The teams in ``championship`` with their players in seating order: typed in by the
    organiser or entered by their players and holding a place; a team waiting, refused or
    withdrawn is left out. Two queries."""
    return list(
        championship.teams.exclude(entry__status__in=Entry.OUT).prefetch_related(
            Prefetch("memberships", queryset=MEMBERS_IN_ORDER)
        )
    )


def team_list(*, championship: Championship) -> QuerySet[Team]:
    """The teams of a championship in seed order, with their players."""
    return championship.teams.prefetch_related(Prefetch("memberships", queryset=MEMBERS_IN_ORDER))


def rules_spec(championship: Championship, *, best_of: int | None = None) -> dict[str, Any]:
    """The championship's rule set as a spec object, with the match's ``best_of``."""
    rules = championship.rules
    spec = {"preset": rules} if isinstance(rules, str) else dict(rules)
    if best_of is not None:
        spec["best_of"] = best_of
    return spec


def is_referee(user: Any, championship: Championship) -> bool:
    """Whether ``user`` referees in ``championship``: an active user on its list of
    referees (:func:`championship_referees`), and only there.

    Nothing site-wide makes a referee: not a Django group, nor the staff or superuser
    flags. Whoever manages the championship (:func:`can_manage`: its organisers, staff with
    the permission) acts there as its manager, not as a referee.
    """
    if not user.is_authenticated or not user.is_active:
        return False
    return referees_of(championship).filter(pk=user.pk).exists()


def referees_of(championship: Championship) -> QuerySet:
    """The active users on ``championship``'s list of referees."""
    return get_user_model().objects.filter(
        referee_entries__championship=championship, is_active=True
    )


def championship_referees(*, championship: Championship) -> list[Any]:
    """The championship's list of referees, by full name, each with ``entry`` (who added
    him and when) and ``open_matches`` (his undecided matches in it)."""
    entries = (
        ChampionshipReferee.objects.filter(championship=championship)
        .select_related("user", "added_by")
        .annotate(
            open_matches=Count(
                "user__refereed_matches",
                filter=Q(user__refereed_matches__stage__championship=championship)
                & ~Q(user__refereed_matches__status__in=Match.DECIDED),
            )
        )
    )
    return sorted(entries, key=lambda e: (person_name(e.user).casefold(), e.user.pk))


def person_name(user: Any) -> str:
    """How people know a user: his full name and, after it, his user name."""
    full = user.get_full_name().strip()
    username = user.get_username()
    return f"{full} ({username})" if full else username


def referee_invitations_pending(*, championship: Championship) -> QuerySet[RefereeInvitation]:
    """The invitations of ``championship`` still usable: not used, revoked nor expired."""
    return RefereeInvitation.objects.filter(
        championship=championship,
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).select_related("invited_by")


def may_check_in(user: Any, championship: Championship) -> bool:
    """Who marks teams present at the door: whoever manages the championship, and its
    referees (:func:`is_referee` for it)."""
    return can_manage(user, championship) or is_referee(user, championship)


# The model permission that lets a staff user manage every championship.
def can_manage(user: Any, championship: Championship) -> bool:
    """Whether ``user`` may manage ``championship`` (the rule :func:`_managed_by` applies)."""
    return user.is_authenticated and _managed_by(user).filter(pk=championship.pk).exists()


def championships_managed(*, user: Any) -> QuerySet[Championship]:
    """The championships ``user`` may manage (unordered, for filters)."""
    return _managed_by(user)


def _managed_by(user: Any) -> QuerySet[Championship]:
    """The championships ``user`` may manage: every one for staff with the permission
    (:func:`manages_every_championship`), those he organises for anyone else."""
    return Championship.objects.managed_by(user)


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


def championships_visible(*, user: Any) -> QuerySet[Championship]:
    """What ``user`` may read: every public championship, and the drafts he may manage."""
    public = Championship.objects.exclude(status=Championship.Status.DRAFT)
    if not user.is_authenticated:
        return public
    return Championship.objects.filter(
        Q(pk__in=public.values("pk")) | Q(pk__in=_managed_by(user).values("pk"))
    )


def may_read(user: Any, championship: Championship) -> bool:
    """Whether ``user`` may read ``championship``: :func:`championships_visible`'s rule for
    one championship already loaded (a query only for a draft)."""
    return championship.status != Championship.Status.DRAFT or can_manage(user, championship)


def championship_visible(*, user: Any, slug: str) -> Championship:
    """The championship ``slug`` if ``user`` may read it (public, or his draft), else 404."""
    championship = championships_visible(user=user).filter(slug=slug).first()
    if championship is None:
        raise Http404("No such championship.")
    return championship


def may_referee(user: Any, match: Any) -> bool:
    """Whether ``user`` may open ``match`` to record its hands: its referee, and whoever
    manages its championship (:func:`can_manage`). The tablet and the API both ask this;
    the results services then check that he still referees there (on the championship's
    list: ``results.selectors.hand_write_problem``) and that play is on."""
    if not user.is_authenticated or not user.is_active:
        return False
    if match.referee_id is not None and match.referee_id == user.pk:
        return True
    return can_manage(user, match.stage.championship)


def championship_public(*, slug: str) -> Championship:
    """A championship the public may see (not a draft), else ``Http404``."""
    # Its circuit's event comes along (a join): the entry form asks a qualifier's towns.
    championship = (
        Championship.objects.exclude(status=Championship.Status.DRAFT)
        .select_related("circuit_event")
        .filter(slug=slug)
        .first()
    )
    if championship is None:
        raise Http404("No such championship.")
    return championship


def referee_choices(championship: Championship) -> QuerySet:
    """Users an organiser may assign to a match of ``championship``: its referees
    (:func:`is_referee`: the active users on its list), by name. The organiser is not
    offered unless he put himself on the list: he acts on every match anyway."""
    return referees_of(championship).order_by("first_name", "last_name", "username")


def rule_set(championship: Championship) -> RuleSet:
    return RuleSet.from_spec(rules_spec(championship))


def rule_options_chosen(championship: Championship) -> dict[str, Any]:
    """The options the organiser chose for ``championship``'s preset, as stored (those
    left at the preset's default are absent)."""
    return {key: value for key, value in rules_spec(championship).items() if key != "preset"}


def rule_options_in_force(championship: Championship) -> dict[str, Any]:
    """Every option of ``championship``'s rules with the value that applies: the preset's
    defaults with the organiser's choices over them, as the engine answers them
    (``scoring.RuleSet.options``: the engine owns the values, nothing is worked out here)."""
    return rule_set(championship).options


def rules_summary(championship: Championship) -> list[str]:
    """The rule set in a few sentences for players (in the active language)."""
    rules = rule_set(championship)
    # The family's name: whether flor is played is said once, below.
    preset = {
        "argentine": _("Argentine truco"),
        "argentine_flor": _("Argentine truco"),
        "trucardo": _("Trucardo"),
        "catalan": _("Catalan truc"),
    }[rules.preset]
    if championship.plays_gallo:
        return _gallo_summary(rules, preset)
    if championship.team_size == 1:
        lines = [_("%(preset)s, one player against another.") % {"preset": preset}]
    else:
        lines = [
            _("%(preset)s, teams of %(size)s.") % {"preset": preset, "size": championship.team_size}
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


def _gallo_summary(rules: RuleSet, preset: str) -> list[str]:
    """Tables of three (gallo): who plays against whom, and how a table is won."""
    lines = [
        _("%(preset)s at tables of three: each player plays for himself.") % {"preset": preset}
    ]
    if rules.gallo == "por_turno":
        lines.append(
            _(
                "Gallo por turno: in each hand the dealer is the gallo and plays alone "
                "against the other two, who play as a pair; the gallo is dealt four cards "
                "and discards one. Each player keeps his own score: what the pair wins "
                "counts for each of its two players."
            )
        )
    else:
        lines.append(
            _(
                "Gallo fijo: the same player is the gallo in every hand and plays alone "
                "against the other two, who play as a pair and share one score; the gallo "
                "is dealt four cards and discards one."
            )
        )
    if rules.best_of == 1:
        lines.append(
            _("A table is a single game: the first player to %(target)s points wins it.")
            % {"target": rules.target}
        )
    else:
        lines.append(
            _("A table is won by the first player to win two games of %(target)s points.")
            % {"target": rules.target}
        )
    lines.append(_("Spanish 40-card deck; truco, retruco and vale cuatro; envido."))
    lines.append(_("Played with flor.") if rules.flor else _("Played without flor."))
    return lines


def slug_taken(slug: str) -> bool:
    return Championship.objects.filter(slug=slug).exists()
