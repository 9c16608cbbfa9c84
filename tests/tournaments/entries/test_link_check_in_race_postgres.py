"""A team checking in through its link while the organiser draws the next round
(PostgreSQL, threads behind a barrier): the check-in is for the round being drawn, or
refused because that round is now being played; never for the round after it."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from tests.tournaments.conftest import play
from tests.tournaments.entries.test_link_reports_race_postgres import _race
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import acts
from tournaments.models import Championship, CheckIn
from tournaments.stages import services as stage_services


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("trial", range(3))
def test_a_check_in_racing_the_next_round_is_never_for_the_round_after_it(trial):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory(status=Championship.Status.RUNNING)
    teams = [TeamFactory(championship=championship, seed=n) for n in range(1, 5)]
    stage = stage_services.stage_create(championship=championship, format="swiss")
    for match in stage_services.round_generate(stage=stage):
        play(match, match.team_a)
    acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=1)
    )
    # Two teams already in: whichever comes first, the round can be drawn.
    for team in teams[1:3]:
        acts.link_check_in(team=team)
    outcomes = _race(
        lambda: acts.link_check_in(team=teams[0]),
        lambda: stage_services.round_generate(stage=stage),
    )
    assert outcomes[1] == "stored"
    assert outcomes[0] in ("stored", "round_in_play")
    mine = set(CheckIn.objects.filter(team=teams[0]).values_list("round_number", flat=True))
    second = stage.rounds.get(number=2)
    plays = second.matches.filter(Q(team_a=teams[0]) | Q(team_b=teams[0])).exists()
    if outcomes[0] == "stored":
        # Checked in before the draw: for round 2, and drawn in it.
        assert mine == {2} and plays and teams[0].pk not in second.absent
    else:
        # The draw came first: the team is absent from round 2 and nothing is kept for 3.
        assert mine == set() and teams[0].pk in second.absent
    assert not CheckIn.objects.filter(stage=stage, round_number=3).exists()
