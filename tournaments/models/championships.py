"""A championship: its rules, tie-breaks, dates, zone, status, who keeps the score; who
manages every championship."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


def default_rules() -> dict:
    return {"preset": "argentine"}


def default_tiebreaks() -> list[str]:
    # tournaments.standings.tiebreaks.DEFAULT_CHAIN, copied so a migration never imports it.
    return ["points", "head_to_head", "chico_diff", "tantos_diff", "lots"]


def default_time_zone() -> str:
    return settings.TIME_ZONE


def validate_time_zone(value: str) -> None:
    """An IANA time zone name the system knows ("Europe/Madrid")."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValidationError(
            _("%(zone)s is not a time zone: give one such as Europe/Madrid."),
            code="bad_time_zone",
            params={"zone": value},
        ) from None


# Staff holding this permission manage every championship (championships.selectors).
MANAGE_ALL_PERMISSION = "tournaments.change_championship"


def manages_every_championship(user: Any) -> bool:
    """Whether ``user`` manages every championship: active staff holding
    ``tournaments.change_championship`` (given directly or by a group; superusers hold
    every permission). Staff without it are like anyone else."""
    return bool(
        user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(MANAGE_ALL_PERMISSION)
    )


class Scorekeeping(models.TextChoices):
    """Who keeps the score at the tables of a championship (or of one of its stages)."""

    REFEREES = "referees", _("Referees, hand by hand on the tablet")
    PLAYERS = "players", _("A player of the table, hand by hand on his phone")
    RESULTS = "results", _("Results only: reported by the teams or typed at the desk")


class ChampionshipQuerySet(models.QuerySet):
    def managed_by(self, user: Any) -> ChampionshipQuerySet:
        """The championships ``user`` may manage: every one for staff with the permission
        (:func:`manages_every_championship`), those he organises for anyone else.

        Here, below every domain package, so that the people's services (below the
        championships' in the layers) apply the same rule as the pages."""
        if not user.is_authenticated or not user.is_active:
            return self.none()
        if manages_every_championship(user):
            return self.all()
        return self.filter(organisers=user)


class Championship(models.Model):
    """A truco championship, from its first announcement to its final standings."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=100, unique=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    # Where it is played: match times are shown and exported in this zone.
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    rules = models.JSONField(
        _("rule set"),
        default=default_rules,
        help_text=_("A preset and its options, as in the hand records: checked by the engine."),
    )
    team_size = models.PositiveSmallIntegerField(
        _("players per team"),
        default=2,
        choices=[(1, "1"), (2, "2"), (3, "3"), (4, "4")],
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=default_tiebreaks)
    seed = models.CharField(
        _("seed of the drawing of lots"),
        max_length=100,
        blank=True,
        help_text=_("Empty: the short name is used."),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        related_name="organised_championships",
        blank=True,
    )

    class AbsentTeams(models.TextChoices):
        WALKOVER = "walkover", _("They lose by walkover")
        SIT_OUT = "sit_out", _("They sit the round out, without a result")

    # What a Swiss round does with a team not checked in (a round robin's fixed schedule
    # always gives its opponent the walkover).
    absent_teams = models.CharField(
        _("teams absent at check-in"),
        max_length=20,
        choices=AbsentTeams.choices,
        default=AbsentTeams.WALKOVER,
        help_text=_(
            "Once check-in is taken for a round, teams not checked in are left out of the"
            " pairing. In a Swiss round they lose by walkover, or sit the round out with no"
            " result; in a round robin their opponent always wins by walkover."
        ),
    )

    # Who keeps the score at the tables (docs/tournaments.md "No referee at the table"): a
    # stage may set its own (Stage.scorekeeping). Changing it touches no result recorded.
    scorekeeping = models.CharField(
        _("who keeps the score"),
        max_length=10,
        choices=Scorekeeping.choices,
        default=Scorekeeping.REFEREES,
    )
    # How long the other side has to answer a result reported by a team before the match
    # goes to the organiser's results to settle.
    confirm_within = models.PositiveIntegerField(
        _("minutes to confirm a reported result"),
        default=30,
        validators=[MinValueValidator(1), MaxValueValidator(60 * 24 * 14)],
    )
    # Until when the teams may check in themselves through their personal links (None:
    # closed); the organiser opens and closes it on the check-in page.
    self_check_in_until = models.DateTimeField(
        _("teams check in themselves until"), null=True, blank=True
    )

    objects = ChampionshipQuerySet.as_manager()

    class Meta:
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="championship_ends_after_start",
                violation_error_message=_("A championship cannot end before it starts."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def lots_seed(self) -> str:
        """What seeds the drawing of lots and the round-robin shuffle: reproducible."""
        return self.seed or self.slug

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The championship's time zone (the site's if the stored one is unknown)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
            return zoneinfo.ZoneInfo(settings.TIME_ZONE)

    @property
    def plays_gallo(self) -> bool:
        """Single players three to a table (docs/tournaments.md "Tables of three"): the
        rules name the ``gallo`` option (the organiser chose it; a preset's default for
        three players does not count) and teams have one player."""
        return self.team_size == 1 and isinstance(self.rules, dict) and "gallo" in self.rules

    @property
    def table_size(self) -> int:
        """Players at a table: 3 for gallo, else two teams' worth."""
        return 3 if self.plays_gallo else 2 * self.team_size

    @property
    def is_catalan(self) -> bool:
        preset = self.rules if isinstance(self.rules, str) else self.rules.get("preset")
        return preset == "catalan"
