"""What the organiser shares of a round or a match from his phone (the *Share* button of
the round's and the match's pages: the phone's share sheet, or a WhatsApp link): the
tables, the teams, the time and the public page, in the active language. Public words
only: no contact, no personal link, nothing a stranger may not read on the public pages.
"""

from __future__ import annotations

from urllib.parse import quote

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Match, Round
from tournaments.notices.texts import when_text
from tournaments.stages.selectors import round_matches, table_key
from tournaments.text import one_line


def _site(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _sides(match: Match) -> str:
    return " – ".join(one_line(side.team.name) for side in match.sides)


def _line(match: Match) -> str:
    """One match of a round's list: "table 1: A – B · 21:30", a bye "C: bye"."""
    if match.is_bye:
        alone = _("%(team)s: absent") if match.is_absence else _("%(team)s: bye")
        return alone % {"team": one_line(match.team_a.name)}
    line = _sides(match)
    if match.table:
        line = _("table %(table)s: %(sides)s") % {"table": one_line(match.table), "sides": line}
    if match.scheduled_at is not None:
        local = timezone.localtime(match.scheduled_at, match.stage.championship.zone)
        line += f" · {local:%H:%M}"
    return line


def round_share_text(*, round_: Round) -> str:
    """The round's tables as a message: "Copa — Round 2", a line per table in the hall's
    order (byes last), then the round's public page."""
    stage = round_.stage
    championship = stage.championship
    matches = sorted(
        round_matches(round=round_),
        key=lambda m: (m.is_bye, table_key(m.table), m.pk),
    )
    head = f"{one_line(championship.name)} — {round_.name_in(stage)}"
    page = reverse("tournaments:round", args=[championship.slug, stage.pk, round_.number])
    return "\n".join([head, *(_line(m) for m in matches), _site(page)])


def match_share_text(*, match: Match) -> str:
    """The match as a message: its round, its teams, its table and time where known, and
    its public page."""
    championship = match.stage.championship
    lines = [f"{one_line(championship.name)} — {match.round_name}", _sides(match)]
    if match.table:
        lines.append(_("Table: %(table)s") % {"table": one_line(match.table)})
    if match.scheduled_at is not None:
        lines.append(_("When: %(when)s") % {"when": when_text(championship, match.scheduled_at)})
    lines.append(_site(reverse("tournaments:match", args=[championship.slug, match.pk])))
    return "\n".join(lines)


def whatsapp_link(text: str) -> str:
    """The link that opens WhatsApp with ``text`` typed (where the phone has no share
    sheet, or without JavaScript)."""
    return "https://wa.me/?text=" + quote(text, safe="")


def shared(text: str) -> dict[str, str]:
    """What the *Share* button needs (``organiser/_share.html``): the text and the link."""
    return {"text": text, "link": whatsapp_link(text)}
