"""The message that gives a team entered through the form its personal link."""

from __future__ import annotations

import logging

from django.core.mail import send_mail
from django.utils.translation import gettext as _

from tournaments.entries.selectors import waiting_number
from tournaments.models import Entry
from tournaments.text import one_line

logger = logging.getLogger(__name__)


def entry_link_mail(*, entry: Entry, link: str) -> bool:
    """Mail ``link`` to the address the entry gave, in the active language. False when
    the mail could not be sent (logged): the page then says so, and shows the link."""
    if not entry.email:
        return False
    championship = entry.championship
    waiting = waiting_number(entry)
    if waiting is None:
        place = _("Your team is entered.")
    else:
        place = _("Your team is on the waiting list, number %(number)s.") % {"number": waiting}
    # On one line whatever was stored before the rule (tournaments.text): a line break in
    # a subject makes the message unsendable.
    subject = _("%(team)s at %(championship)s") % {
        "team": one_line(entry.team.name),
        "championship": one_line(championship.name),
    }
    body = _(
        "%(place)s\n\n"
        "This is your team's personal link: keep it, it is shown only once. Through it "
        "you follow your team, check in on the day and withdraw if you cannot come.\n"
        "%(link)s\n"
    ) % {"place": place, "link": link}
    try:
        send_mail(subject, body, None, [entry.email])
    except Exception:  # any mail failure: the link on the page still works
        logger.exception("Could not mail the link of entry %s", entry.pk)
        return False
    return True
