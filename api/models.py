"""The API's own records: the responses kept for ``Idempotency-Key`` retries."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class IdempotencyKey(models.Model):
    """A client's ``Idempotency-Key`` and the first response given for it.

    One row per client and key (a unique constraint): a retry with the same key and the same
    request gets ``status``/``response`` again instead of being executed twice. The client
    is a user, or a team acting through its personal link (``Authorization: TeamLink``):
    one of the two, never both.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    team = models.ForeignKey(
        "tournaments.Team",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("team"),
    )
    key = models.CharField(_("key"), max_length=200)
    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=300)
    # SHA-256 of the request body, canonical JSON: the same key with another body is refused.
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    status = models.PositiveSmallIntegerField(_("status"), null=True)
    response = models.JSONField(_("response"), null=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique"),
            models.UniqueConstraint(fields=["team", "key"], name="idempotency_key_team_unique"),
            models.CheckConstraint(
                condition=Q(user__isnull=False, team__isnull=True)
                | Q(user__isnull=True, team__isnull=False),
                name="idempotency_key_one_client",
            ),
        ]

    def __str__(self) -> str:
        return self.key
