"""A match's hands (the hand records are the source of truth of every result), the hand in
progress, the history of every result change, and each side's answer to the result."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.matches import Game, Match
from tournaments.models.people import Player


class Hand(models.Model):
    """One hand as the referee recorded it: its entry of the match record (docs/hand-record.md).

    ``record`` holds ``cards``/``events`` (and ``gallo`` or ``pica_pica``); the match
    context (rules, teams, order, score) is rebuilt from the match. The other fields are
    derived by the engine.
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="hands", verbose_name=_("match")
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        related_name="hands",
        null=True,
        blank=True,
        verbose_name=_("game"),
    )
    number = models.PositiveIntegerField(_("number"))
    record = models.JSONField(_("hand record"))
    # Mano first, as the engine dealt it, and the game's score before the hand.
    order = models.JSONField(_("order"), default=list)
    score_before_a = models.PositiveSmallIntegerField(_("score before A"), default=0)
    score_before_b = models.PositiveSmallIntegerField(_("score before B"), default=0)
    points_a = models.PositiveSmallIntegerField(_("points A"), default=0)
    points_b = models.PositiveSmallIntegerField(_("points B"), default=0)
    score_a = models.PositiveSmallIntegerField(_("score A"), default=0)
    score_b = models.PositiveSmallIntegerField(_("score B"), default=0)
    # The third side of a table of three (0 for two-sided matches).
    score_before_c = models.PositiveSmallIntegerField(_("score before C"), default=0)
    points_c = models.PositiveSmallIntegerField(_("points C"), default=0)
    score_c = models.PositiveSmallIntegerField(_("score C"), default=0)
    status = models.CharField(_("status"), max_length=20)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    corrected_at = models.DateTimeField(_("corrected at"), null=True, blank=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_unique"),
        ]

    def __str__(self) -> str:
        return _("Hand %(number)s") % {"number": self.number}

    @property
    def points_text(self) -> str:
        """The points the hand gave, side A first: "2 – 0", at a table of three "2 – 2 – 0"."""
        points = [self.points_a, self.points_b]
        if self.match.team_c_id is not None:
            points.append(self.points_c)
        return " – ".join(str(p) for p in points)

    @property
    def score_text(self) -> str:
        """The chico's score after the hand, side A first: "12 – 9" ("12 – 9 – 3")."""
        scores = [self.score_a, self.score_b]
        if self.match.team_c_id is not None:
            scores.append(self.score_c)
        return " – ".join(str(score) for score in scores)


class HandDraft(models.Model):
    """The hand in progress at a match's table, as the tablet last synced it.

    One row per match, kept across hands: ``device`` is the tablet that holds the match
    (another device must take over explicitly), ``number`` the hand number the draft will
    be saved as, and ``record`` the hand so far in the hand-record format (``events``, and
    ``cards``/``gallo``/``pica_pica`` where used). Saving the hand empties the record and
    moves ``number`` on; ``revision`` grows with every change so a stale tablet is told.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="draft", verbose_name=_("match")
    )
    number = models.PositiveIntegerField(_("hand number"))
    record = models.JSONField(_("hand so far"), default=dict, blank=True)
    device = models.CharField(_("device"), max_length=64, blank=True)
    # When ``device`` took the match (a second device is told "since hh:mm").
    held_since = models.DateTimeField(_("held since"), null=True, blank=True)
    revision = models.PositiveIntegerField(_("revision"), default=0)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("updated by"),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("hand in progress")
        verbose_name_plural = _("hands in progress")

    def __str__(self) -> str:
        return _("Hand %(number)s in progress") % {"number": self.number}


class HandRevision(models.Model):
    """One change of a match's result, for its history and the championship's audit log.

    Written by the results services themselves (``tournaments.results.services``), whoever
    calls them: the tablet, the API, the organiser's pages. A hand's change keeps the hand
    before and after (``{"record", "points", "score"}``, None for a hand that did not or no
    longer exists); a walkover its decision; a confirmation or a dispute the side and who.
    """

    class Action(models.TextChoices):
        RECORDED = "recorded", _("Hand recorded")
        CORRECTED = "corrected", _("Hand corrected")
        REMOVED = "removed", _("Hand removed")
        WALKOVER = "walkover", _("Walkover")
        CONFIRMED = "confirmed", _("Result confirmed")
        DISPUTED = "disputed", _("Result disputed")
        RESULT = "result", _("Result recorded")
        RESULT_CORRECTED = "result_corrected", _("Result corrected")
        CONVERTED = "converted", _("Way of recording changed")

    HAND_ACTIONS = (Action.RECORDED, Action.CORRECTED, Action.REMOVED)

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="revisions", verbose_name=_("match")
    )
    # The hand's number when the change was made (empty for a change of the whole match).
    number = models.PositiveIntegerField(_("hand number"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # "A" or "B" for a confirmation or a dispute.
    side = models.CharField(_("side"), max_length=1, blank=True)
    reason = models.TextField(_("reason"), blank=True)
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
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")
        ordering = ["match", "pk"]
        indexes = [models.Index(fields=["match", "number"], name="revision_match_hand")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} #{self.number or ''}"


class MatchConfirmation(models.Model):
    """One side's answer to its match's result: confirmed or disputed.

    ``player`` is who answered at the table (the cap de colla, or any player of the side),
    ``by`` the account that recorded it (the referee holding the tablet, or the organiser
    confirming for the side, ``on_behalf``). Removed when a hand of the match changes.
    """

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="confirmations", verbose_name=_("match")
    )
    side = models.CharField(_("side"), max_length=1, choices=[("A", "A"), ("B", "B"), ("C", "C")])
    status = models.CharField(_("status"), max_length=20, choices=Status.choices)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    on_behalf = models.BooleanField(_("confirmed by the organiser"), default=False)
    comment = models.TextField(_("comment"), blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now=True)

    class Meta:
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        ordering = ["match", "side"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="confirmation_side_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} {self.side}: {self.get_status_display()}"

    @property
    def team(self) -> Any:
        """The team of the side that answered (the third player's at a table of three)."""
        return self.match.teams_by_side().get(self.side)
