"""What each kind of notice says, in the active language (the caller activates the
team's): a subject on one line and a plain-text body, without the team's link or any
address (``delivery`` adds the link to the mail as it is sent). Names and typed text are
put in once the sentence is translated, so nothing typed is read as a format."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import dateformat, formats, timezone, translation
from django.utils.translation import gettext as _

from tournaments.models import Championship, Match, Notice, Team
from tournaments.text import one_line, paragraph


@dataclass(frozen=True)
class Told:
    """What a notice says: the mail's subject (one line) and its body."""

    subject: str
    text: str


@dataclass(frozen=True)
class About:
    """What a notice is about, beyond its kind and team: the words each kind needs."""

    match: Match | None = None
    result: str = ""
    reason: str = ""
    message: str = ""
    when: dt.datetime | None = None
    venue: str = ""
    # A circuit's final a team qualified for: its name, its circuit's, its public page.
    final: str = ""
    circuit: str = ""
    link: str = ""


def when_text(championship: Championship, moment: dt.datetime) -> str:
    """``moment`` in the championship's zone, as the pages write a match's day and hour
    ("Friday 6 March, 21:30", "divendres 6 de març, 21:30"): the project's format of the
    active language (config/formats), else English's."""
    local = timezone.localtime(moment, championship.zone)
    for language in (translation.get_language() or "en", "en"):
        for module in formats.iter_format_modules(language):
            if hasattr(module, "WEEKDAY_DATETIME_FORMAT"):
                return dateformat.format(local, module.WEEKDAY_DATETIME_FORMAT)
    return dateformat.format(local, "j F Y, H:i")


def tell(kind: str, *, team: Team, championship: Championship, about: About) -> Told:
    """The subject and body of a notice of ``kind`` to ``team``, in the active language."""
    words = {"team": one_line(team.name), "championship": one_line(championship.name)}
    match = about.match
    if match is not None:
        others = [one_line(str(other)) for other in match.others_of(team.pk)]
        words["other"] = ", ".join(others) or "—"
        words["result"] = about.result
        words["table"] = one_line(match.table)
        if kind == Notice.Kind.DRAWN:
            words["round"] = one_line(str(match.round_name))
    if about.when is not None:
        words["when"] = when_text(championship, about.when)
    if about.final:
        words.update(final=one_line(about.final), circuit=one_line(about.circuit))
    subject = _("%(team)s at %(championship)s") % words
    has_table = bool(match and match.table)
    lines = [_sentence(kind, words, has_table=has_table, bye=bool(match and match.is_bye)) % words]
    if kind == Notice.Kind.MESSAGE:
        subject = _("The organiser of %(championship)s") % words
        lines = [paragraph(about.message)]
    if kind == Notice.Kind.DRAWN and match is not None and not match.is_bye:
        # What is known yet: the organiser often gives the tables and times later.
        if has_table:
            lines.append(_("Table: %(table)s") % words)
        if "when" in words:
            lines.append(_("When: %(when)s") % words)
    if about.link:
        lines.append(_("The final's page: %(link)s") % {"link": about.link})
    if about.venue:
        lines.append(_("Where: %(venue)s") % {"venue": one_line(about.venue)})
    if about.reason:
        lines.append(_("The reason: %(reason)s") % {"reason": paragraph(about.reason)})
    return Told(subject=one_line(subject), text="\n".join(lines))


def _sentence(kind: str, words: dict[str, str], *, has_table: bool, bye: bool = False) -> str:
    """The kind's sentence, still with its ``%(name)s`` places."""
    if kind == Notice.Kind.ACCEPTED:
        return _("The organiser of %(championship)s accepted the entry of %(team)s: you play.")
    if kind == Notice.Kind.REFUSED:
        return _("The organiser of %(championship)s refused the entry of %(team)s.")
    if kind == Notice.Kind.PROMOTED:
        return _(
            "A place became free in %(championship)s: %(team)s moved up from the waiting "
            "list and is entered."
        )
    if kind == Notice.Kind.CHECK_IN:
        return _("Check %(team)s in through your team's page, until %(when)s.")
    if kind == Notice.Kind.REPORTED:
        return _(
            "%(other)s reported the result of your match: %(result)s.\n"
            "Open your team's page to confirm it, or to dispute it if it is not right."
        )
    if kind == Notice.Kind.SETTLED:
        return _("The organiser settled the result of your match against %(other)s: %(result)s.")
    if kind == Notice.Kind.READY:
        if has_table:
            return _("Your match against %(other)s is ready: table %(table)s.")
        return _("Your match against %(other)s is ready: go to your table.")
    if kind == Notice.Kind.MOVED:
        return _("Your match against %(other)s moved to %(when)s.")
    if kind == Notice.Kind.POSTPONED:
        if "when" in words:
            return _("Your match against %(other)s is postponed to %(when)s.")
        return _("Your match against %(other)s is postponed: its new date is to be fixed.")
    if kind == Notice.Kind.DRAWN:
        if bye:
            return _("%(round)s is drawn: %(team)s has a bye, it does not play this round.")
        return _("%(round)s is drawn: %(team)s plays %(other)s.")
    if kind == Notice.Kind.QUALIFIED:
        return _(
            "%(team)s qualified for %(final)s, the final of %(circuit)s: its organiser will "
            "confirm your entry."
        )
    if kind == Notice.Kind.MESSAGE:
        return ""
    raise ValueError(f"unknown notice kind {kind!r}")
