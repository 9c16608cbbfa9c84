"""Teams and their line-ups (memberships), in one championship."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models.championships import Championship
from tournaments.models.people import Player

SEED_MAX = 2_147_483_647


# Weekdays as Python numbers them (date.weekday()): a team's home night, a league's default.
# A choice's label has its own context: the bare names are the dates' (Django's date
# formats read them, in small letters in Spanish and Catalan: "viernes 13 de noviembre").
WEEKDAYS = [
    (0, pgettext_lazy("weekday", "Monday")),
    (1, pgettext_lazy("weekday", "Tuesday")),
    (2, pgettext_lazy("weekday", "Wednesday")),
    (3, pgettext_lazy("weekday", "Thursday")),
    (4, pgettext_lazy("weekday", "Friday")),
    (5, pgettext_lazy("weekday", "Saturday")),
    (6, pgettext_lazy("weekday", "Sunday")),
]


# A team that plays: typed in by the organiser, or entered by its players and accepted.
PLAYS = Q(entry__isnull=True) | Q(entry__status="accepted")


class TeamQuerySet(models.QuerySet):
    def playing(self) -> TeamQuerySet:
        """The teams that play: typed in by the organiser, or entered by their players and
        accepted (not pending, waiting, refused or withdrawn)."""
        return self.filter(PLAYS)


class Team(models.Model):
    """A pair, a trio, a Catalan *colla*... or a single player, in one championship."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="teams", verbose_name=_("championship")
    )
    name = models.CharField(_("name"), max_length=200)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)  # 1 to SEED_MAX
    club = models.CharField(_("club or city"), max_length=200, blank=True)
    # The town it comes from, as given on a circuit qualifier's entry form (its towns are
    # restricted): public, as a club is; no person's details.
    town = models.CharField(_("town"), max_length=200, blank=True)
    players = models.ManyToManyField(
        Player, through="Membership", related_name="teams", verbose_name=_("players")
    )
    # Where it plays its home matches in a league (tournaments.stages.league), and, when
    # the club has its own night, the weekday (0 Monday … 6 Sunday) and hour of those.
    venue_name = models.CharField(_("home venue"), max_length=200, blank=True)
    venue_address = models.CharField(_("home venue's address"), max_length=300, blank=True)
    home_weekday = models.PositiveSmallIntegerField(
        _("home weekday"), null=True, blank=True, choices=WEEKDAYS
    )
    home_time = models.TimeField(_("home hour"), null=True, blank=True)

    objects = TeamQuerySet.as_manager()

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["championship", F("seed").asc(nulls_last=True), "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "name"],
                name="team_name_unique_in_championship",
                violation_error_message=_("This championship already has a team of that name."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A player in a team, in seating order; ``is_captain`` marks the cap de colla."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("team")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("player")
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    is_captain = models.BooleanField(_("cap de colla"), default=False)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["team", "order", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="membership_unique"),
            models.UniqueConstraint(
                fields=["team"], condition=Q(is_captain=True), name="one_captain_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"
