"""Circuits of championships: their events, qualifications and stored placements."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.ratings import RatingFamily
from tournaments.models.teams import Team


def default_circuit_points() -> list[int]:
    # Points for 1st, 2nd, 3rd...; a place past the end of the table scores nothing.
    return [100, 70, 50, 40, 30, 25, 20, 15, 10, 5]


class Circuit(models.Model):
    """A season or a series of championships with one ranking (``tournaments.circuits``):
    qualifying events that feed a final, or a federation's ranking events.

    Its rules are set once: ``points`` per placement (1st, 2nd...), each event's points
    multiplied by its ``weight``; ``best_of`` the number of results that count for each
    person or team (None: all); the first ``qualify_per_event`` teams of each qualifier and
    the best ``qualify_by_points`` others by circuit points enter the final.
    """

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=100, unique=True)
    # The rules family of its events (their presets): one ranking compares like with like.
    family = models.CharField(
        _("rules family"),
        max_length=20,
        choices=RatingFamily.choices,
        default=RatingFamily.ARGENTINE,
    )
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    description = models.TextField(_("description"), blank=True)
    points = models.JSONField(_("points per placement"), default=default_circuit_points)
    best_of = models.PositiveSmallIntegerField(
        _("results that count (best N)"),
        null=True,
        blank=True,
        help_text=_("Empty: every result counts."),
    )
    qualify_per_event = models.PositiveSmallIntegerField(
        _("teams qualified by each qualifier"), default=1
    )
    qualify_by_points = models.PositiveSmallIntegerField(
        _("other teams qualified by circuit points"), default=0
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organisers"),
        related_name="organised_circuits",
        blank=True,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")),
                name="circuit_ends_after_start",
                violation_error_message=_("A circuit cannot end before it starts."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CircuitEvent(models.Model):
    """A championship of a circuit: a qualifier, the final, or an event that only counts
    for the ranking. A championship belongs to one circuit at most."""

    class Kind(models.TextChoices):
        QUALIFIER = "qualifier", _("Qualifier")
        FINAL = "final", _("Final")
        RANKING = "ranking", _("Ranking event")

    circuit = models.ForeignKey(
        Circuit, on_delete=models.CASCADE, related_name="events", verbose_name=_("circuit")
    )
    championship = models.OneToOneField(
        Championship,
        on_delete=models.CASCADE,
        related_name="circuit_event",
        verbose_name=_("championship"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.QUALIFIER)
    # Its points are the table's times this (a major event 2, a minor one 0.5).
    weight = models.DecimalField(_("weight"), max_digits=5, decimal_places=2, default=1)
    # The town or region the event is for, as the public reads it ("Inca", "Llevant").
    place = models.CharField(_("town or region"), max_length=200, blank=True)
    # When not empty, only players from these towns may enter (the entry form asks).
    towns = models.JSONField(_("towns admitted"), default=list, blank=True)

    class Meta:
        verbose_name = _("circuit event")
        verbose_name_plural = _("circuit events")
        ordering = ["circuit", "championship__start_date", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["circuit"],
                condition=Q(kind="final"),
                name="circuit_one_final",
                violation_error_message=_("This circuit already has a final."),
            ),
            models.CheckConstraint(
                condition=Q(weight__gt=0),
                name="circuit_event_weight_positive",
                violation_error_message=_("An event's weight must be above zero."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.circuit}: {self.championship}"


class CircuitQualification(models.Model):
    """A team's place in its circuit's final: won at a qualifier (``event``, ``place``) or
    by circuit points (``event`` empty), and the team entered in the final for it.

    ``people_key`` (the team's person ids, sorted, joined by "-") is the team across
    championships: a team qualifies once, however many qualifiers it wins. A qualified
    team that withdraws keeps its row (``withdrawn``), so it is never entered again, and
    the next in line gets a row that ``replaces`` it.
    """

    class Status(models.TextChoices):
        ENTERED = "entered", _("Entered in the final")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    circuit = models.ForeignKey(
        Circuit,
        on_delete=models.CASCADE,
        related_name="qualifications",
        verbose_name=_("circuit"),
    )
    people_key = models.CharField(_("team's people"), max_length=200)
    event = models.ForeignKey(
        CircuitEvent,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="qualifications",
        verbose_name=_("qualified at"),
    )
    place = models.PositiveSmallIntegerField(_("placement"))
    source_team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("qualifying team"),
    )
    final_team = models.OneToOneField(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="qualification",
        verbose_name=_("team in the final"),
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ENTERED
    )
    replaces = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name=_("replaces"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("qualification")
        verbose_name_plural = _("qualifications")
        ordering = ["circuit", "created_at", "pk"]
        constraints = [
            # The last guard against two qualifiers finishing at once entering a team twice.
            models.UniqueConstraint(
                fields=["circuit", "people_key"], name="qualification_once_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.circuit}: {self.people_key}"


class CircuitPlacement(models.Model):
    """A team's placement in an event of a circuit, as the ranking reads it.

    Written by ``circuits.qualification.placements_store`` from the championship's stages
    (``standings.placements``) whenever its results change, all the event's rows at once:
    the ranking is then one query and sums, however many events and people.
    """

    event = models.ForeignKey(
        CircuitEvent,
        on_delete=models.CASCADE,
        related_name="placements",
        verbose_name=_("event"),
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    people_key = models.CharField(_("team's people"), max_length=200)
    place = models.PositiveSmallIntegerField(_("placement"))
    tied = models.BooleanField(_("tied"), default=False)

    class Meta:
        verbose_name = _("circuit placement")
        verbose_name_plural = _("circuit placements")
        ordering = ["event", "place", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "team"], name="circuit_placement_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.people_key} {self.place}"
