"""A notice sent by mail: to the address the team gave at entry, in the language it was
written in, with the team's page and a one-click unsubscribe (RFC 8058).

The link in the mail is the team's personal link, as in the mail that confirmed the
entry: the mail goes only to the address the team gave, which already holds that link.
It is added here, as the mail is sent, so it is never stored with the notice, shown to
the organiser, logged (``config.logs`` hides it from the console backend) or put in a
subject. Without a live personal link (revoked), the mail links the team's public page.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.models import Entry, Notice
from tournaments.notices.stops import stop_token
from tournaments.notices.webpush import push_deliver

logger = logging.getLogger(__name__)

# Tries of a notice before it is marked failed (a few minutes apart: ``resend_notices``).
MAX_ATTEMPTS = 5


def _site(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _team_page(notice: Notice) -> str:
    team = notice.team
    slug = notice.championship.slug
    link = team.links.filter(revoked_at__isnull=True).order_by("-created_at").first()
    if link is not None:
        return _site(f"/c/{slug}/team/{link.token}/")
    return _site(f"/c/{slug}/teams/{team.pk}/")


def notice_mail(notice: Notice, entry: Entry) -> EmailMessage:
    """The mail of ``notice`` to ``entry``'s address."""
    stop = _site(reverse("tournaments:mails_stop", args=[stop_token(entry)]))
    with translation.override(notice.language):
        body = "\n".join(
            [
                notice.text,
                "",
                _("Your team's page: %(link)s") % {"link": _team_page(notice)},
                _("The link is your team's own: do not forward this mail."),
                "",
                "-- ",
                _("You get this mail because your team entered %(championship)s.")
                % {"championship": notice.championship.name},
                _("To stop these mails: %(link)s") % {"link": stop},
            ]
        )
    return EmailMessage(
        subject=notice.subject,
        body=body,
        to=[entry.email],
        headers={
            "List-Unsubscribe": f"<{stop}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


def _still_told(notice: Notice, entry: Entry | None) -> bool:
    """Whether ``notice`` may still go: the team is there, with an address, its mails not
    stopped, and not out of the championship since (but for the refusal itself)."""
    if notice.team is None or entry is None or not entry.email:
        return False
    if entry.notices_stopped_at is not None:
        return False
    return notice.kind == Notice.Kind.REFUSED or entry.status not in Entry.GONE


def notice_deliver(*, notice_id: int) -> str | None:
    """Send notice ``notice_id`` if it is still queued, by mail or to the team's phones
    (``webpush``); its state after (None: not queued, or another worker holds it). A mail
    or a push that fails leaves it queued for a later try, failed after ``MAX_ATTEMPTS``;
    it never raises."""
    with transaction.atomic():
        notice = (
            Notice.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("team", "championship", "match")
            .filter(pk=notice_id, state=Notice.State.QUEUED)
            .first()
        )
        if notice is None:
            return None
        entry = Entry.objects.filter(team_id=notice.team_id).first()
        if notice.channel == Notice.Channel.PUSH:
            return push_deliver(notice, entry, max_attempts=MAX_ATTEMPTS)
        if not _still_told(notice, entry):
            notice.state = Notice.State.CANCELLED
            notice.save(update_fields=["state"])
            return notice.state
        notice.attempts += 1
        try:
            notice_mail(notice, entry).send()
        except Exception as error:  # the mail server's trouble: try again later
            notice.failure = type(error).__name__
            if notice.attempts >= MAX_ATTEMPTS:
                notice.state = Notice.State.FAILED
            # The notice's id only: the error may repeat the address.
            logger.warning(
                "Notice %s not sent (%s, try %s)", notice.pk, notice.failure, notice.attempts
            )
        else:
            notice.state = Notice.State.SENT
            notice.sent_at = timezone.now()
            notice.failure = ""
        notice.save(update_fields=["state", "attempts", "failure", "sent_at"])
        return notice.state
