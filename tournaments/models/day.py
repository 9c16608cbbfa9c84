"""The day of play: the championship's referees and their invitations, check-in, and
substitutions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.people import Player
from tournaments.models.stages import Round, Stage, round_name
from tournaments.models.teams import Team


class ChampionshipReferee(models.Model):
    """A user who referees in one championship: on its list of referees."""

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="referee_entries",
        verbose_name=_("championship"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="referee_entries",
        verbose_name=_("user"),
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("added by"),
    )
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        verbose_name = _("championship referee")
        verbose_name_plural = _("championship referees")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "user"], name="championship_referee_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.championship})"


class RefereeInvitation(models.Model):
    """A one-time link that lets someone make his own referee account for a championship.

    Only the SHA-256 of the token is stored: the link is shown (or mailed) once.
    """

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="referee_invitations",
        verbose_name=_("championship"),
    )
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    name = models.CharField(_("name"), max_length=150, blank=True)
    email = models.EmailField(_("email"), blank=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("referee invitation")
        verbose_name_plural = _("referee invitations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name or self.email or str(self.pk)


class CheckIn(models.Model):
    """A team's presence before a round of a stage (the round not generated yet).

    No row for any team of the round: check-in was not taken and every team plays. Once
    one exists, only the teams marked present are paired.
    """

    stage = models.ForeignKey(
        Stage, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("stage")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("team")
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    present = models.BooleanField(_("present"), default=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("checked by"),
    )
    at = models.DateTimeField(_("checked at"), auto_now=True)

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "team", "round_number"], name="check_in_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} ({self.round_number})"


class Substitution(models.Model):
    """A player replaced in a team from a round of a stage on (earlier matches keep him)."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="substitutions", verbose_name=_("team")
    )
    player_out = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player out")
    )
    player_in = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player in")
    )
    stage = models.ForeignKey(
        Stage,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("stage"),
    )
    from_round = models.PositiveSmallIntegerField(_("from round"), default=1)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        ordering = ["team", "at"]

    def __str__(self) -> str:
        return f"{self.player_out} → {self.player_in} ({self.team})"

    @property
    def from_round_name(self) -> str:
        """The round he comes in from, as its stage names it ("Quarter-finals", "Round
        3"): a round not made yet by its number. One query (its stage loaded)."""
        if self.stage_id is None:
            return round_name(number=self.from_round, label="", settings=None)
        found = Round.objects.filter(stage_id=self.stage_id, number=self.from_round).first()
        if found is None:  # not made yet: by its number, as its stage names a round
            return self.stage.round_title(self.from_round)
        return found.name_in(self.stage)
