"""A team's results on the page behind its personal link (docs/tournaments.md, "No referee
at the table"): the result it reports of a match of its own, the results waiting for its
answer and those it answered, each in words with who reported it.

A report is the shared result form (``web.shared.result_form.ResultForm``: each chico's
score by side, and who won) checked by the engine through ``entries.reports.link_report``
with the link it came through, so a link revoked meanwhile reports nothing and each
report is a ``TeamAct`` of the audit log. A refused report is the page again with the
engine's sentence and what was typed; nothing is stored.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments.entries import link_selectors, report_selectors
from tournaments.entries.link_selectors import Answered, Fixture
from tournaments.entries.reports import link_report
from tournaments.models import Match, MatchConfirmation, Team, TeamLink
from tournaments.results.services import result_text
from tournaments.web.shared.result_form import ResultForm

# Refusals of the team or its link rather than of the result typed.
LINK_REFUSALS = ("link_revoked", "not_team_match", "entry_refused", "entry_withdrawn")


def _form(match: Match, data: object = None) -> ResultForm:
    # One form per match on the page: its fields' names and ids carry the match.
    return ResultForm(data, match=match, with_winner=True, prefix=f"m{match.pk}")


def _names(teams: list[Team]) -> str:
    names = [team.name for team in teams]
    if len(names) < 2:
        return "".join(names)
    return _("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def _reporter(match: Match) -> str:
    """The name of the team that reported ``match``'s result; empty: the organiser's desk
    or a referee's hands."""
    if not match.reported_side:
        return ""
    team = match.teams_by_side().get(match.reported_side)
    return team.name if team is not None else ""


@dataclass(frozen=True)
class ToReport:
    """A match of the team whose result it may report: its form (as posted, when refused)."""

    fixture: Fixture
    form: ResultForm
    open: bool  # shown unfolded: the first one, or the one just refused


@dataclass(frozen=True)
class ToAnswer:
    """A result waiting for the team's confirmation or dispute, in words."""

    fixture: Fixture
    text: str
    reported_by: str  # the reporting team's name; empty: the desk or the hands
    answer_by: datetime.datetime | None
    by_hands: bool  # kept hand by hand: its hands are on the match's page


@dataclass(frozen=True)
class Done:
    """A result the team answered (or reported): in words, who reported it, and whether
    it waits for another side, for the organiser, or is final."""

    row: Answered
    text: str
    reported_by: str
    mine: bool  # the team reported it itself
    waiting_for: str  # the sides still to answer, by name (empty: none)
    disputed_by: str  # the sides that disputed it, by name (empty: none)
    by_hands: bool


def results(
    team: Team,
    matches: report_selectors.TeamMatches,
    posted: ResultForm | None = None,
    *,
    acts: bool = True,
) -> dict[str, list]:
    """What the team's page shows of its results (``matches``: its matches, read once):
    ``report`` (its matches to report), ``awaiting`` (results to confirm or dispute) and
    ``answered``. ``posted``: a refused report, shown again as typed; ``acts``: False for a
    team that acts no more (out), offered nothing to report or answer."""
    to_report: list[ToReport] = []
    awaiting: list[ToAnswer] = []
    for due in report_selectors.results_due(team=team, matches=matches) if acts else []:
        match = due.fixture.match
        if due.report:
            refused = posted is not None and posted.match.pk == match.pk
            to_report.append(
                ToReport(
                    fixture=due.fixture,
                    form=posted if refused and posted is not None else _form(match),
                    open=refused or (posted is None and not to_report),
                )
            )
        else:
            awaiting.append(
                ToAnswer(
                    fixture=due.fixture,
                    text=due.text,
                    reported_by=_reporter(match),
                    answer_by=due.answer_by,
                    by_hands=match.recorded == Match.Recorded.HANDS,
                )
            )
    return {"report": to_report, "awaiting": awaiting, "answered": _answered(matches)}


def _text(match: Match) -> str:
    played = match.status == Match.Status.FINISHED and match.outcome == Match.Outcome.PLAYED
    return result_text(match) if played else ""


def _answered(matches: report_selectors.TeamMatches) -> list[Done]:
    done = []
    for row in matches.answered:
        match = row.fixture.match
        said = matches.answers.get(match.pk, {})
        sides = [(side, other) for side, other in match.teams_by_side().items() if other]
        disputed = [other for side, other in sides if said.get(side) == "disputed"]
        waiting = [other for side, other in sides if side not in said]
        done.append(
            Done(
                row=row,
                text=_text(match),
                reported_by=_reporter(match),
                mine=bool(match.reported_side) and match.reported_side == row.fixture.side,
                waiting_for="" if disputed or row.settled else _names(waiting),
                disputed_by=_names(disputed),
                by_hands=match.recorded == Match.Recorded.HANDS,
            )
        )
    return done


def report(request: HttpRequest, team: Team, link: TeamLink) -> ResultForm | None:
    """The team's report of a match posted from its page: ``None`` once reported (the
    message says what happens next), else the form refused with its sentence (nothing
    stored). A match that is not the team's, or no longer to report, is said in a
    message."""
    match = link_selectors.team_match(team=team, match_id=request.POST.get("match", ""))
    if match is None:
        messages.error(request, _("This match is not one of %(team)s's.") % {"team": team.name})
        return None
    form = _form(match, request.POST)
    if not form.is_valid():
        if _offered(team, match):
            return form
        # A page opened before the match was reported, sent incomplete: no form to show
        # it again beside; its sentences, and the page shows the result to answer.
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return None
    try:
        answer = link_report(
            team=team,
            match=match,
            games=form.cleaned_data["games"],
            winner=form.cleaned_data["winner"],
            link=link,
        )
    except ValidationError as error:
        if error.code in LINK_REFUSALS or not _offered(team, match):
            # Not a matter of the scores typed: no form to show them again beside (the
            # match was reported meanwhile, is not the teams' to report, the link was
            # revoked...).
            messages.error(request, " ".join(error.messages))
            return None
        form.add_result_error(error)
        return form
    match.refresh_from_db()
    _say_reported(request, match, answer)
    return None


def _offered(team: Team, match: Match) -> bool:
    """Whether ``match`` is one the team's page offers to report now."""
    return match.pk in {f.match.pk for f in report_selectors.awaiting_report(team=team)}


def _say_reported(request: HttpRequest, match: Match, answer: MatchConfirmation) -> None:
    """What happened to the team's report: the result now, its own confirmation of the
    same result reported first, or its dispute of another one."""
    text = result_text(match)
    first = _reporter(match)
    if answer.status == MatchConfirmation.Status.DISPUTED:
        messages.warning(
            request,
            _(
                "%(team)s reported another result first: %(result)s. Yours is different, so "
                "it went to the organiser as a dispute: he will settle it."
            )
            % {"team": first, "result": text},
        )
    elif match.reported_side != answer.side:
        messages.success(
            request,
            _("%(team)s had reported the same result: %(result)s. Your report confirms it.")
            % {"team": first, "result": text},
        )
    else:
        others = [t for s, t in match.teams_by_side().items() if s != answer.side and t]
        messages.success(
            request,
            _("Result reported: %(result)s. Waiting for %(others)s to confirm it.")
            % {"result": text, "others": _names(others)},
        )
