"""What the players are told (``tournaments.notices``): each notice sent to a team, which
is also its audit (what, to whom, when; never the address it went to), and the marks that
keep a notice from being sent twice in a short while."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.entries import TeamLink
from tournaments.models.matches import Match
from tournaments.models.teams import Team


class Notice(models.Model):
    """One message to one team through one channel, in the team's language.

    ``text`` is what the team reads, without its personal link or any address: the mail
    adds the link when it is sent (``notices.delivery``), so nothing stored here, shown to
    the organiser or exported, holds a secret."""

    class Kind(models.TextChoices):
        ACCEPTED = "accepted", _("Entry accepted")
        REFUSED = "refused", _("Entry refused")
        PROMOTED = "promoted", _("Moved up from the waiting list")
        CHECK_IN = "check_in", _("Check-in open")
        REPORTED = "reported", _("Result reported by the other team")
        SETTLED = "settled", _("Result settled by the organiser")
        MOVED = "moved", _("Match moved")
        POSTPONED = "postponed", _("Match postponed")
        READY = "ready", _("Match ready")
        DRAWN = "drawn", _("Next match drawn")
        QUALIFIED = "qualified", _("Qualified for the circuit's final")
        MESSAGE = "message", _("Organiser's message")

    class Channel(models.TextChoices):
        EMAIL = "email", _("email")
        # Web Push, to each phone of the team that allowed it (``PushSubscription``).
        PUSH = "push", _("phone notification")

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        # Not sent on purpose: the team stopped the mails, or withdrew, before its turn (or,
        # for a push, no phone of the team listens for it any more).
        CANCELLED = "cancelled", _("not sent")

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="notices",
        verbose_name=_("championship"),
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="notices",
        verbose_name=_("team"),
    )
    # The team's name when it was told: kept if the team is removed.
    team_name = models.CharField(_("team"), max_length=200)
    match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="notices",
        verbose_name=_("match"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    channel = models.CharField(
        _("channel"), max_length=20, choices=Channel.choices, default=Channel.EMAIL
    )
    state = models.CharField(_("state"), max_length=20, choices=State.choices, default=State.QUEUED)
    language = models.CharField(_("language"), max_length=8)
    subject = models.CharField(_("subject"), max_length=300)
    text = models.TextField(_("text"))
    # One act of the organiser (a round called, a message) told to many teams.
    batch = models.CharField(_("batch"), max_length=32, blank=True, db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("queued at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # Why the last attempt failed: the error's kind only (a mail server's answer may
    # repeat the address).
    failure = models.CharField(_("failure"), max_length=200, blank=True)
    # A push notice: the subscriptions (ids) it reached, so a try after a phone's push
    # service failed sends only to the phones not reached yet.
    reached = models.JSONField(_("reached"), default=list, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["championship", "-pk"]
        indexes = [
            models.Index(fields=["state", "created_at"], name="notice_state_created"),
            models.Index(fields=["championship", "kind", "created_at"], name="notice_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.team_name}: {self.get_kind_display()}"


class NoticeMark(models.Model):
    """When ``team`` was last told ``key`` (a round called for its match, one message):
    the row is locked while a notice is decided, so two organisers acting at once, or one
    tapping twice, tell a team once within ``notices.services.REPEAT_SECONDS``."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    key = models.CharField(_("key"), max_length=100)
    last_at = models.DateTimeField(_("last told at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice mark")
        verbose_name_plural = _("notice marks")
        constraints = [
            models.UniqueConstraint(fields=["team", "key"], name="notice_mark_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.team_id}: {self.key}"


class PushSubscription(models.Model):
    """A phone that allowed notifications from a team's personal link (Web Push): where its
    push service takes the messages (``endpoint``) and the keys they are encrypted to.

    The endpoint is a capability (whoever holds it, with the site's VAPID key, reaches the
    phone): it is never shown, logged nor exported, and the row names it by ``digest``.
    Made through the link, it lives with it: a revoked link's phones are told nothing."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="push_subscriptions", verbose_name=_("team")
    )
    link = models.ForeignKey(
        TeamLink, on_delete=models.CASCADE, related_name="+", verbose_name=_("personal link")
    )
    endpoint = models.CharField(_("endpoint"), max_length=1000)
    # The endpoint's SHA-256 (hex): how the team's page recognises its phone without the
    # endpoint on the page, and the row's key with the team.
    digest = models.CharField(_("digest"), max_length=64)
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("authentication secret"), max_length=50)
    # The kinds of notice (``Notice.Kind``) the phone wants.
    kinds = models.JSONField(_("kinds"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_success_at = models.DateTimeField(_("last delivered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("phone notification subscription")
        verbose_name_plural = _("phone notification subscriptions")
        constraints = [
            models.UniqueConstraint(fields=["team", "digest"], name="push_subscription_unique"),
        ]

    def __str__(self) -> str:
        # Never the endpoint: it is a capability.
        return f"{self.team_id}: {self.digest[:8]}"
