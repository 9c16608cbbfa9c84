"""Reports through the teams' personal links at the same moment (PostgreSQL, threads behind
a barrier): two teams reporting one match give one result, the other report an answer to
it; a link the organiser revokes while its team reports either reported before the
revocation or reports nothing, never after it."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import reports
from tournaments.entries import services as entry_services
from tournaments.errors import TournamentError
from tournaments.models import (
    HandRevision,
    Match,
    MatchConfirmation,
    Scorekeeping,
    TeamAct,
    TeamLink,
)
from tournaments.stages import services as stage_services

A_WINS = [{"score": {"A": 30, "B": 25}}, {"score": {"A": 30, "B": 12}}]
B_WINS = [{"score": {"A": 20, "B": 30}}, {"score": {"A": 11, "B": 30}}]


def _match() -> Match:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory(scorekeeping=Scorekeeping.RESULTS)
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    return stage_services.round_generate(stage=stage)[0]


def _link(team) -> TeamLink:
    entry_services.link_issue(team=team, via=TeamAct.Via.ORGANISER)
    return team.links.get(revoked_at__isnull=True)


def _race(*writes: Callable[[], object]) -> list[str]:
    """Run ``writes`` at once; each one's outcome, in their order: ``stored`` or the code
    of its refusal."""
    barrier = threading.Barrier(len(writes))
    outcomes: list[str] = [""] * len(writes)

    def run(index: int, write: Callable[[], object]) -> None:
        try:
            barrier.wait()
            write()
            outcomes[index] = "stored"
        except TournamentError as error:
            outcomes[index] = error.code
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(index, write)) for index, write in enumerate(writes)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", [True, False])
def test_two_teams_reporting_through_their_links_at_once_give_one_result(same):
    match = _match()
    link_a, link_b = _link(match.team_a), _link(match.team_b)
    outcomes = _race(
        lambda: reports.link_report(team=match.team_a, match=match, games=A_WINS, link=link_a),
        lambda: reports.link_report(
            team=match.team_b, match=match, games=A_WINS if same else B_WINS, link=link_b
        ),
    )
    assert outcomes == ["stored", "stored"]  # the second is an answer to the first
    match.refresh_from_db()
    assert match.games.count() == 2
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    answers = dict(match.confirmations.values_list("side", "status"))
    reporter = match.reported_side
    other = "B" if reporter == "A" else "A"
    assert answers == {
        reporter: MatchConfirmation.Status.CONFIRMED,
        other: MatchConfirmation.Status.CONFIRMED if same else MatchConfirmation.Status.DISPUTED,
    }
    # The first report stored is the result: B_WINS only if B reported first.
    assert match.winner_id == (match.team_b_id if reporter == "B" and not same else match.team_a_id)
    assert (match.confirmed_at is not None) is same
    # Each team's report is in the log once.
    assert TeamAct.objects.filter(action="reported").count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_link_revoked_while_its_team_reports_reports_before_or_not_at_all():
    match = _match()
    team = match.team_a
    link = _link(team)
    outcomes = _race(
        lambda: reports.link_report(team=team, match=match, games=A_WINS, link=link),
        lambda: entry_services.link_revoke(team=team),
    )
    link.refresh_from_db()
    assert link.revoked_at is not None
    match.refresh_from_db()
    acts = list(TeamAct.objects.filter(team=team).order_by("pk").values_list("action", flat=True))
    if outcomes[0] == "stored":
        # Reported first: the revocation waited for it and came after.
        assert match.status == Match.Status.FINISHED and match.reported_side == "A"
        assert acts == ["link_issued", "reported", "link_revoked"]
    else:
        # Revoked first: the report read the revocation and stored nothing.
        assert outcomes[0] == "link_revoked"
        assert match.status == Match.Status.SCHEDULED and not match.revisions.exists()
        assert acts == ["link_issued", "link_revoked"]


@pytest.mark.django_db(transaction=True)
def test_a_revoked_link_racing_the_other_teams_report_gives_one_result_its_own():
    match = _match()
    revoked, live = _link(match.team_a), _link(match.team_b)
    entry_services.link_revoke(team=match.team_a)
    outcomes = _race(
        lambda: reports.link_report(team=match.team_a, match=match, games=A_WINS, link=revoked),
        lambda: reports.link_report(team=match.team_b, match=match, games=B_WINS, link=live),
    )
    assert outcomes == ["link_revoked", "stored"]
    match.refresh_from_db()
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    assert match.winner_id == match.team_b_id and match.reported_side == "B"
    assert dict(match.confirmations.values_list("side", "status")) == {"B": "confirmed"}
