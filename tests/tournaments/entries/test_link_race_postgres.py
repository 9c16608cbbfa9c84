"""Two taps on a personal link at once (two phones of one team): the result is answered
once, and the audit log says so once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import acts
from tournaments.errors import TournamentError
from tournaments.models import MatchConfirmation, TeamAct
from tournaments.stages import services as stage_services


@pytest.mark.django_db(transaction=True)
def test_two_phones_answering_one_result_answer_it_once():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory()
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first = stage_services.round_generate(stage=stage)[0]
    match = play(first, first.team_a)
    team = match.team_b
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def phone(answer: str) -> None:
        try:
            barrier.wait()
            if answer == "confirm":
                acts.link_confirm(team=team, match=match)
            else:
                acts.link_dispute(team=team, match=match, comment="Hand 3 was ours")
            outcomes.append(answer)
        except TournamentError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(a,)) for a in ("confirm", "dispute")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert "already_answered" in outcomes and len(outcomes) == 2
    (answer,) = MatchConfirmation.objects.filter(match=match)
    won = next(o for o in outcomes if o != "already_answered")
    assert answer.status == {"confirm": "confirmed", "dispute": "disputed"}[won]
    assert TeamAct.objects.filter(via="link").count() == 1
