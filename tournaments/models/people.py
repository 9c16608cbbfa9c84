"""People across championships and their players in line-ups; public names; two records
of one human, their merge requests and where a merged-away record went."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Person(models.Model):
    """A human who plays, one record across every championship (``tournaments.people``).

    Line-ups reference him through :class:`Player`, the name the hand records use, so two
    records of the same human are merged by pointing one's players at the other: no hand
    record is rewritten. ``email`` and ``phone`` are private: never on a public page, a
    public export or the public API; ``initial_only`` shows him as "Ana R.".
    """

    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club or city"), max_length=200, blank=True)
    # A federation's licence number: unique where given, so it finds the person at once.
    licence = models.CharField(_("licence number"), max_length=50, blank=True)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    initial_only = models.BooleanField(
        _("show only the first name and the surname's initial"), default=False
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The name without case, accents or extra spaces (:func:`name_key`): the likely
    # matches are found by it in one indexed query, accents and all.
    name_key = models.CharField(_("name key"), max_length=200, editable=False, default="")

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["licence"],
                condition=~Q(licence=""),
                name="person_licence_unique",
                violation_error_message=_("Another person has this licence number."),
            ),
        ]
        indexes = [
            models.Index(fields=["name"], name="person_name"),
            models.Index(fields=["name_key"], name="person_name_key"),
        ]

    def __str__(self) -> str:
        return self.public_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # bulk_create skips save(): people.services.players_create sets the key itself.
        self.name_key = name_key(self.name)
        if kwargs.get("update_fields") is not None and "name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key"}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        """The name shown to the public: "Ana R." for a person who asked for it."""
        return public_name(self.name, initial_only=self.initial_only)


def public_name(name: str, *, initial_only: bool) -> str:
    """``name`` as the public sees it: the first word and the last word's initial.

    >>> public_name("Ana Ruiz Soler", initial_only=True)
    'Ana S.'
    >>> public_name("Ana", initial_only=True)
    'Ana'
    """
    words = name.split()
    if not initial_only or len(words) < 2:
        return name
    return f"{words[0]} {words[-1][0]}."


def name_key(text: str) -> str:
    """``text`` without case, accents or extra spaces: two names with the same key are
    likely the same person's.

    >>> name_key("  José   María PÉREZ ")
    'jose maria perez'
    >>> name_key("Núria Ferrer") == name_key("nuria  ferrer")
    True
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.split())


class Player(models.Model):
    """A name in a line-up; ``p<id>`` names him inside hand records (stable, unique).

    ``person`` is the human behind it: the same person's players in every championship
    (:class:`Person`). ``name`` and ``club`` are as entered for this line-up.
    """

    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club or city"), max_length=200, blank=True)
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="players", verbose_name=_("person")
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def record_key(self) -> str:
        return f"p{self.pk}"

    @property
    def public_name(self) -> str:
        """The name as entered for this line-up, shown as his person asked ("Ana R."): read
        with ``select_related("person")``, or it costs a query."""
        return public_name(self.name, initial_only=self.person.initial_only)


# The highest seed: PostgreSQL's integer column (SQLite would store more), so a seed is
# accepted or refused the same on every database; every way in checks it (services).


class PersonMergeRequest(models.Model):
    """Two records likely of one human that no one organiser may merge alone: the
    organisers who said "one person" (``agreed``), until every championship of the two
    is managed by one of them and the merge is made (``people.services.merges``).

    Written when a typed licence number is another record's that the one typing may not
    see (``reason`` licence: nobody agreed yet), or when an organiser asks (name).
    ``first`` is the record with the lower id: one request per pair.
    """

    class Reason(models.TextChoices):
        LICENCE = "licence", _("The same licence number was typed")
        NAME = "name", _("The same name")

    first = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("first record")
    )
    second = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("second record")
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    agreed = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="+", verbose_name=_("agreed by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("merge request")
        verbose_name_plural = _("merge requests")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="merge_request_once"),
            models.CheckConstraint(
                condition=Q(first__lt=F("second")), name="merge_request_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.first_id} = #{self.second_id}?"


class PersonMerged(models.Model):
    """Where a merged-away person went: his old id's pages redirect to the person kept
    (``person_id`` follows later merges too)."""

    old_id = models.PositiveIntegerField(_("old record"), primary_key=True)
    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="+", verbose_name=_("merged into")
    )
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)

    class Meta:
        verbose_name = _("merged record")
        verbose_name_plural = _("merged records")

    def __str__(self) -> str:
        return f"#{self.old_id} → #{self.person_id}"
