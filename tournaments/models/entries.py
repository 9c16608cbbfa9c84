"""Online entry: the policy, the entries, the teams' personal links and their acts."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.matches import Match
from tournaments.models.teams import Team


class EntryPolicy(models.Model):
    """How a championship takes entries from the players (``tournaments.entries``).

    Open while ``is_open`` and before ``closes_at``; ``capacity`` teams are entered, the
    next wait in arrival order. ``asks`` lists the optional questions of the form (the
    players' names always, their number from the rules).
    """

    QUESTIONS = ("club", "licence", "email", "phone")

    championship = models.OneToOneField(
        Championship,
        on_delete=models.CASCADE,
        related_name="entry_policy",
        verbose_name=_("championship"),
    )
    is_open = models.BooleanField(_("entries open"), default=False)
    capacity = models.PositiveIntegerField(_("capacity (teams)"), null=True, blank=True)
    closes_at = models.DateTimeField(_("entries close"), null=True, blank=True)
    asks = models.JSONField(_("questions asked"), default=list, blank=True)
    fee = models.DecimalField(_("entry fee"), max_digits=8, decimal_places=2, null=True, blank=True)
    # The fee's ISO 4217 code (``entries.money.CURRENCIES`` lists the choices).
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    fee_instructions = models.TextField(_("how to pay"), blank=True)

    class Meta:
        verbose_name = _("entry policy")
        verbose_name_plural = _("entry policies")

    def __str__(self) -> str:
        return str(self.championship)


class Entry(models.Model):
    """A team's entry by its players, with its place: entered (pending the organiser's
    acceptance), accepted, on the waiting list (``position`` keeps the arrival order),
    refused or withdrawn. A team typed in by the organiser has no entry and plays."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Entered")
        ACCEPTED = "accepted", _("Accepted")
        WAITING = "waiting", _("Waiting list")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    # The entries that hold a place (the capacity counts them).
    HOLDING = (Status.PENDING, Status.ACCEPTED)
    # A team that is out: never paired, never in a new stage.
    OUT = (Status.WAITING, Status.REFUSED, Status.WITHDRAWN)
    # A team gone for good: a fee it paid is to be refunded.
    GONE = (Status.REFUSED, Status.WITHDRAWN)

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("championship"),
    )
    team = models.OneToOneField(
        Team, on_delete=models.CASCADE, related_name="entry", verbose_name=_("team")
    )
    status = models.CharField(_("status"), max_length=20, choices=Status.choices)
    # Arrival order in the championship, 1, 2, 3...: the waiting list's order.
    position = models.PositiveIntegerField(_("arrival"))
    paid = models.BooleanField(_("paid"), default=False)
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    # When the organiser gave the fee back to a team gone (``to_refund`` until then).
    refunded_at = models.DateTimeField(_("refunded at"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    # Private: where the team's link was sent.
    email = models.EmailField(_("email"), blank=True)
    # The language the team entered in: what it is told in (``tournaments.notices``).
    language = models.CharField(_("language"), max_length=8, blank=True)
    # When the team stopped the mails (their one-click unsubscribe): nothing more is sent.
    notices_stopped_at = models.DateTimeField(_("mails stopped at"), null=True, blank=True)
    # The form's one-time key: the same form posted twice enters one team.
    form_key = models.CharField(_("form key"), max_length=64, blank=True, editable=False)
    # Who sent it and what (a keyed hash of the address and every field, nothing readable):
    # the key answers the first entry again only to that sending (entries.services).
    form_fingerprint = models.CharField(
        _("form fingerprint"), max_length=64, blank=True, editable=False
    )
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["championship", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "position"], name="entry_position_unique"
            ),
            models.UniqueConstraint(
                fields=["championship", "form_key"],
                condition=~Q(form_key=""),
                name="entry_form_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} ({self.get_status_display()})"

    @property
    def to_refund(self) -> bool:
        """It paid and is gone (refused or withdrawn), and the fee is not refunded yet."""
        return self.paid and self.status in self.GONE and self.refunded_at is None


# What signs a personal link's token: the entries read it, the notices' mails write it.
LINK_SALT = "tanteo.team-link"


class TeamLink(models.Model):
    """A team's personal link: the signed token names this row; revoked, it opens nothing.

    A team has at most one live link: issuing a new one revokes the others.
    """

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="links", verbose_name=_("team")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        verbose_name = _("team link")
        verbose_name_plural = _("team links")
        ordering = ["team", "-created_at"]

    def __str__(self) -> str:
        return str(self.team)

    @property
    def token(self) -> str:
        """The signed token that names this link (the secret part of its URL)."""
        return signing.dumps({"l": self.pk}, salt=LINK_SALT)


class TeamAct(models.Model):
    """One act on a team's place in a championship, for the audit log: its entry and what
    happened to it, its personal link, and every act done through that link."""

    class Action(models.TextChoices):
        ENTERED = "entered", _("Entered")
        WAITING = "waiting", _("Put on the waiting list")
        PROMOTED = "promoted", _("Promoted from the waiting list")
        ACCEPTED = "accepted", _("Entry accepted")
        REFUSED = "refused", _("Entry refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        PAID = "paid", _("Marked paid")
        UNPAID = "unpaid", _("Marked unpaid")
        REFUNDED = "refunded", _("Fee refunded")
        LINK_ISSUED = "link_issued", _("Personal link issued")
        LINK_REVOKED = "link_revoked", _("Personal link revoked")
        CHECKED_IN = "checked_in", _("Checked in")
        CONFIRMED = "confirmed", _("Result confirmed")
        DISPUTED = "disputed", _("Result disputed")
        REPORTED = "reported", _("Result reported")
        # The score kept hand by hand on a player's phone (referees.scorers).
        SEATED = "seated", _("Players seated")
        HAND_RECORDED = "hand_recorded", _("Hand recorded")
        HAND_DELETED = "hand_deleted", _("Last hand deleted")
        TAKEN_OVER = "taken_over", _("Score sheet moved to another phone")
        MOVED = "moved", _("Moved")
        PERSON_MERGED = "person_merged", _("Two records of a player merged")
        PERSON_EDITED = "person_edited", _("A player's details changed")
        QUALIFIED = "qualified", _("Entered as qualified for the final")
        REPLACEMENT = "replacement", _("Entered in place of a qualified team that withdrew")
        MAILS_STOPPED = "mails_stopped", _("Stopped the mails")
        PUSH_ON = "push_on", _("Notifications turned on on a phone")
        PUSH_OFF = "push_off", _("Notifications turned off on a phone")

    class Via(models.TextChoices):
        FORM = "form", _("entry form")
        LINK = "link", _("personal link")
        ORGANISER = "organiser", _("organiser")
        API = "api", _("API")
        CIRCUIT = "circuit", _("circuit")
        MAIL = "mail", _("a mail's unsubscribe link")

    championship = models.ForeignKey(
        Championship,
        on_delete=models.CASCADE,
        related_name="team_acts",
        verbose_name=_("championship"),
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="acts",
        verbose_name=_("team"),
    )
    # The team's name when it acted: kept if the team is removed.
    team_name = models.CharField(_("team"), max_length=200)
    match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    via = models.CharField(_("through"), max_length=20, choices=Via.choices)
    detail = models.TextField(_("detail"), blank=True)
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
        verbose_name = _("team act")
        verbose_name_plural = _("team acts")
        ordering = ["championship", "pk"]

    def __str__(self) -> str:
        return f"{self.team_name}: {self.get_action_display()}"
