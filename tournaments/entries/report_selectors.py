"""What a team's results wait for from it, for the page behind its personal link: the
matches whose result it is to report (no referee keeps their score), and the results it
is to answer (docs/tournaments.md, "No referee at the table"). Reads only."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import (
    BooleanField,
    Exists,
    ExpressionWrapper,
    OuterRef,
    Prefetch,
    Q,
    prefetch_related_objects,
)

from tournaments.championships.selectors import MEMBERS_IN_ORDER
from tournaments.entries.link_selectors import Answered, Fixture, _fixture
from tournaments.models import (
    Championship,
    Hand,
    Match,
    MatchConfirmation,
    Scorekeeping,
    Team,
)
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


@dataclass(frozen=True)
class TeamMatches:
    """The team's matches as its page shows them, from one read (:func:`team_matches`)."""

    # The next match to play (the first one not decided, in stage and round order), its
    # teams' players read; None while none is scheduled.
    next: Fixture | None
    # Results played to their end that the team's side has not answered yet, oldest first.
    to_answer: list[Fixture]
    # Matches whose result the team may report now and nobody has: scheduled (not decided,
    # not begun hand by hand), with an opponent, results kept by the teams, while the
    # championship is running; in stage and round order.
    to_report: list[Fixture]
    # The results the team answered (an answer the organiser gave for it counts: it
    # settles a dispute), most recent first.
    answered: list[Answered]
    # Every side's answer to each of the team's matches: {match id: {side: status}}.
    answers: dict[int, dict[str, str]]


def _finish(match: Match) -> tuple[bool, object, int]:
    # As PostgreSQL orders them: a match not finished after every finished one.
    return (match.finished_at is None, match.finished_at or 0, match.pk)


def team_matches(*, team: Team) -> TeamMatches:
    """Everything the team's page shows of its matches: four queries at most (its
    matches, each marked whether its result is the teams' to report now; every answer
    given to them; the chicos of those finished; the players of its next match's teams),
    whatever the number of its matches."""
    reportable = _results_kept() & Q(
        status=Match.Status.SCHEDULED,
        team_b__isnull=False,
        stage__championship__status=Championship.Status.RUNNING,
    )
    matches = list(
        Match.objects.of_team(team)
        .select_related("stage", "round", "team_a", "team_b", "team_c")
        .annotate(reportable=ExpressionWrapper(reportable, output_field=BooleanField()))
        .order_by("stage__order", "round__number", "pk")
    )
    answers: dict[int, dict[str, str]] = {}
    for match_id, side, status in MatchConfirmation.objects.filter(
        match__in=[match.pk for match in matches]
    ).values_list("match_id", "side", "status"):
        answers.setdefault(match_id, {})[side] = status
    fixtures = {match.pk: _fixture(match, team) for match in matches}
    mine = {match.pk: answers.get(match.pk, {}).get(fixtures[match.pk].side) for match in matches}
    # The results shown in words ("2–1 (30–25, 18–30, 30–12)"): their chicos in one query.
    prefetch_related_objects([m for m in matches if m.status == Match.Status.FINISHED], "games")
    upcoming = next((m for m in matches if m.status not in Match.DECIDED), None)
    if upcoming is not None:
        teams = [t for t in upcoming.teams_by_side().values() if t is not None]
        prefetch_related_objects(teams, Prefetch("memberships", queryset=MEMBERS_IN_ORDER))
    finished = sorted(matches, key=_finish)
    return TeamMatches(
        next=fixtures[upcoming.pk] if upcoming is not None else None,
        to_answer=[
            fixtures[m.pk]
            for m in finished
            if m.status == Match.Status.FINISHED and m.team_b_id is not None and not mine[m.pk]
        ],
        to_report=[fixtures[m.pk] for m in matches if m.reportable],
        answered=[
            Answered(
                fixture=fixtures[m.pk],
                status=mine[m.pk],
                settled=m.confirmed_at is not None,
            )
            for m in reversed(finished)
            if mine[m.pk]
        ],
        answers=answers,
    )


def awaiting_report(*, team: Team) -> list[Fixture]:
    """The team's matches whose result it may report now and nobody has
    (:attr:`TeamMatches.to_report`)."""
    return team_matches(team=team).to_report


def results_due(*, team: Team, matches: TeamMatches | None = None) -> list[ResultDue]:
    """Everything the team's results wait for from it: first the results to answer
    (oldest first), then the results to report. ``matches``: :func:`team_matches`, when
    read already."""
    matches = team_matches(team=team) if matches is None else matches
    confirm_within = datetime.timedelta(minutes=team.championship.confirm_within)
    due = []
    for fixture in matches.to_answer:
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
    due += [ResultDue(fixture=fixture, report=True) for fixture in matches.to_report]
    return due
