"""What a team's results wait for from it, for the page behind its personal link: the
matches whose result it is to report (no referee keeps their score), and the results it
is to answer (docs/tournaments.md, "No referee at the table"). Reads only."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from tournaments.entries.link_selectors import Fixture, _fixture, awaiting_answer
from tournaments.models import Championship, Hand, Match, Scorekeeping, Team
from tournaments.results.services import result_text


@dataclass(frozen=True)
class ResultDue:
    """One match of the team that waits for it.

    ``report``: its result is the team's to report (nobody reported it yet); else a
    result is there and waits for the team's answer: ``text`` is it in words ("2–1
    (30–25, 18–30, 30–12)"), ``reported_side`` the side that reported it (empty: the
    organiser's desk, or a referee's hands), ``answer_by`` when the time to answer a
    team's report runs out (then it goes to the organiser's results to settle; ``None``
    for a result no team reported)."""

    fixture: Fixture
    report: bool
    text: str = ""
    reported_side: str = ""
    answer_by: datetime.datetime | None = None


# Where the teams may report a result (``results.services.match_result_report`` refuses
# it only where the referees keep the score): results only, or a player of the table
# keeping it, whose team may still report the result of a match nobody kept hand by hand.
TEAMS_REPORT = (Scorekeeping.PLAYERS, Scorekeeping.RESULTS)


def _results_kept() -> Q:
    """Matches whose result a team may report rather than a referee keep it hand by hand:
    recorded as their result, or in a stage where no referee keeps the score (its own
    choice, else its championship's) and nobody has begun keeping it hand by hand."""
    by_stage = Q(stage__scorekeeping__in=TEAMS_REPORT) | Q(
        stage__scorekeeping="", stage__championship__scorekeeping__in=TEAMS_REPORT
    )
    hands = Hand.objects.filter(match=OuterRef("pk"))
    return Q(recorded=Match.Recorded.RESULT) | (by_stage & ~Exists(hands))


def awaiting_report(*, team: Team) -> list[Fixture]:
    """The team's matches whose result it may report now and nobody has: scheduled (not
    decided, not begun hand by hand), with an opponent, results kept by the teams, while
    the championship is running; in stage and round order. One query."""
    matches = (
        Match.objects.filter(Q(team_a=team) | Q(team_b=team) | Q(team_c=team))
        .filter(
            _results_kept(),
            status=Match.Status.SCHEDULED,
            team_b__isnull=False,
            stage__championship__status=Championship.Status.RUNNING,
        )
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .order_by("stage__order", "round__number", "pk")
    )
    return [_fixture(match, team) for match in matches]


def results_due(*, team: Team) -> list[ResultDue]:
    """Everything the team's results wait for from it: first the results to answer
    (oldest first: ``link_selectors.awaiting_answer``), then the results to report."""
    confirm_within = datetime.timedelta(minutes=team.championship.confirm_within)
    due = []
    for fixture in awaiting_answer(team=team):
        match = fixture.match
        reported = match.recorded == Match.Recorded.RESULT and bool(match.reported_side)
        due.append(
            ResultDue(
                fixture=fixture,
                report=False,
                text=result_text(match),
                reported_side=match.reported_side,
                answer_by=match.reported_at + confirm_within
                if reported and match.reported_at
                else None,
            )
        )
    due += [ResultDue(fixture=fixture, report=True) for fixture in awaiting_report(team=team)]
    return due
