"""Championship records. Writes go through ``services``, reads through ``selectors``."""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


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
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

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
