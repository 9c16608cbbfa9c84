"""Ratings per rules family and their history."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.matches import Match
from tournaments.models.people import Person


class RatingFamily(models.TextChoices):
    """The rules families a person is rated in: one rating each (``tournaments.ratings``).

    A championship's preset decides (``Championship.is_catalan``): argentine,
    argentine_flor and trucardo are the Argentine family, catalan its own."""

    ARGENTINE = "argentine", _("Argentine truco")
    CATALAN = "catalan", _("Catalan truc")


class Rating(models.Model):
    """A person's current rating in one family: OpenSkill's ``mu`` and ``sigma`` after his
    last rated match (``tournaments.ratings``; docs/tournaments.md, "Ratings").

    ``ordinal`` (mu − 3 sigma) is kept beside them so that the leaderboard is one ordered
    query; ``matches`` counts his rated matches, ``last_at`` the decision time of the last.
    """

    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("person")
    )
    family = models.CharField(_("rules family"), max_length=20, choices=RatingFamily.choices)
    mu = models.FloatField("mu")
    sigma = models.FloatField("sigma")
    ordinal = models.FloatField(_("ordinal"))
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("last match"),
    )
    last_at = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["person", "family"], name="rating_person_family"),
        ]
        indexes = [models.Index(fields=["family", "-ordinal"], name="rating_family_ordinal")]

    def __str__(self) -> str:
        return f"{self.person_id} {self.family}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    """One person's rating before and after one rated match: the history, and where a
    replay starts from (``tournaments.ratings.services``).

    Matches are rated in the order of their key ``(decided_at, match_id)``: the match's
    decision time (``Match.finished_at``) then its pk. ``place`` and ``decided_at`` are
    what the match was rated with: a match whose result, players or time changed since is
    rated again, and every later match of the family with it. ``place`` is 1 (won) or 2
    (lost) in a two-sided match, the person's place at a table of three (1 to 3, shared
    places repeat); ``won`` is a first place."""

    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("person")
    )
    family = models.CharField(_("rules family"), max_length=20, choices=RatingFamily.choices)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    decided_at = models.DateTimeField(_("decided at"))
    won = models.BooleanField(_("won"))
    place = models.PositiveSmallIntegerField(_("place"))
    number = models.PositiveIntegerField(_("rated match number"))
    mu_before = models.FloatField("mu before")
    sigma_before = models.FloatField("sigma before")
    mu_after = models.FloatField("mu after")
    sigma_after = models.FloatField("sigma after")

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["decided_at", "match_id", "person_id"]
        constraints = [
            models.UniqueConstraint(fields=["person", "match"], name="rating_change_person_match"),
        ]
        indexes = [
            models.Index(fields=["family", "decided_at", "match"], name="rating_change_order"),
            models.Index(fields=["person", "family", "decided_at"], name="rating_change_person"),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} {self.match_id}: {self.mu_before:.2f} → {self.mu_after:.2f}"
