"""What each hand told (the statistics), per side and per player."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.hands import Hand
from tournaments.models.matches import Match
from tournaments.models.people import Player
from tournaments.models.teams import Team


def _count(verbose_name: Any) -> models.PositiveIntegerField:
    return models.PositiveIntegerField(verbose_name, default=0)


class HandSideStat(models.Model):
    """What one side did in one hand (the engine's ``scoring.SideFacts``), kept for the
    statistics (``tournaments.ratings.statistics``): written with the hand, in the same
    transaction, whenever a hand is recorded, corrected or removed, and summed by SQL.

    ``comeback``: this hand won the chico for the side, which had been in the malas while
    the other side was in the buenas (``trailing``) in one of the chico's hands.
    """

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="side_stats", verbose_name=_("hand")
    )
    # Kept with the row so that a championship's or a team's sums read one table.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="+", verbose_name=_("championship")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    side = models.CharField(_("side"), max_length=1)
    points = _count(_("points"))
    envido_points = _count(_("envido points"))
    flor_points = _count(_("flor points"))
    # Truco points by the level the hand was played at: no step accepted, then each step.
    truco_points_0 = _count(_("truco points, no call accepted"))
    truco_points_1 = _count(_("truco points, first step"))
    truco_points_2 = _count(_("truco points, second step"))
    truco_points_3 = _count(_("truco points, third step"))
    mazo_points = _count(_("mazo points"))
    penalty_points = _count(_("penalty points"))
    mestre_points = _count(_("mestre points"))
    envido_called = _count(_("envido called"))
    envido_accepted = _count(_("envido accepted"))
    envido_refused = _count(_("envido refused"))
    envido_played = _count(_("envido played"))
    envido_won = _count(_("envido won"))
    truco_calls = _count(_("truco calls"))
    truco_accepted = _count(_("truco calls accepted"))
    truco_refused = _count(_("truco calls refused"))
    truco_raised = _count(_("truco calls raised"))
    truco_answers = _count(_("truco answers"))
    flor_sung = _count(_("flores sung"))
    mazos = _count(_("hands conceded at the mazo"))
    penalties = _count(_("penalties"))
    trailing = models.BooleanField(_("in the malas against the buenas"), default=False)
    chico_won = models.BooleanField(_("chico won"), default=False)
    comeback = models.BooleanField(_("chico won from the malas"), default=False)
    # At a table of three a pair's side is both its players': the second player's row (a
    # gallo por turno hand's, or a fixed gallo's pair's third column) repeats the pair's
    # facts for his own sums and is left out of sums that count each hand's events once.
    shared = models.BooleanField(_("repeats the pair's side"), default=False)

    class Meta:
        verbose_name = _("hand statistics of a side")
        verbose_name_plural = _("hand statistics of sides")
        constraints = [
            models.UniqueConstraint(fields=["hand", "side"], name="hand_side_stat_unique"),
        ]
        indexes = [
            models.Index(fields=["championship", "team"], name="side_stat_championship"),
            # The biggest hand of a championship: its first row by points.
            models.Index(fields=["championship", "-points"], name="side_stat_points"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id} {self.side}"


class HandPlayerStat(models.Model):
    """What one player did in one hand (``scoring.PlayerFacts``): a row for every player
    who took part, so that a person's hands are counted; his side's row beside it."""

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="player_stats", verbose_name=_("hand")
    )
    side_stat = models.ForeignKey(
        HandSideStat, on_delete=models.CASCADE, related_name="players", verbose_name=_("side")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="hand_stats", verbose_name=_("player")
    )
    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="+", verbose_name=_("championship")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    envido_calls = _count(_("envido calls"))
    envido_accepted = _count(_("envido accepted"))
    envido_refused = _count(_("envido refused"))
    truco_calls = _count(_("truco calls"))
    truco_accepted = _count(_("truco calls accepted"))
    truco_refused = _count(_("truco calls refused"))
    truco_raised = _count(_("truco calls raised"))
    truco_answers = _count(_("truco answers"))
    flor_sung = _count(_("flores sung"))
    mazo = _count(_("went to the mazo"))

    class Meta:
        verbose_name = _("hand statistics of a player")
        verbose_name_plural = _("hand statistics of players")
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="hand_player_stat_unique"),
        ]
        indexes = [
            models.Index(fields=["championship", "player"], name="player_stat_championship"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id} {self.player_id}"
