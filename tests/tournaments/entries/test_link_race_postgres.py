"""Two taps on a personal link at once (two phones of one team): the result is answered
once, and the audit log says so once. The organiser refusing while the team withdraws:
one of them, whole."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries import acts, services
from tournaments.errors import TournamentError
from tournaments.models import Entry, MatchConfirmation, TeamAct
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


@pytest.mark.django_db(transaction=True)
def test_a_refusal_and_a_withdrawal_at_once_end_as_one_of_them_whole():
    """The organiser refuses while the team withdraws through its link: one wins, the other
    gets a sentence; the entry's status and reason are the winner's, and the audit log
    holds its act alone. Several trials: either may win each time."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    for trial in range(6):
        championship = ChampionshipFactory(status="registration")
        team = TeamFactory(championship=championship)
        entry = Entry.objects.create(
            championship=championship, team=team, status="pending", position=1
        )
        barrier = threading.Barrier(2)
        outcomes: dict[str, str] = {}

        def act(name: str, entry=entry, team=team, barrier=barrier, outcomes=outcomes) -> None:
            try:
                barrier.wait()
                if name == "refuse":
                    services.entry_refuse(
                        entry=entry, by=None, via="organiser", reason="Not a federated club"
                    )
                else:
                    acts.link_withdraw(team=team, reason="We cannot come")
                outcomes[name] = "done"
            except TournamentError as error:
                outcomes[name] = error.code
            finally:
                connections.close_all()

        threads = [threading.Thread(target=act, args=(n,)) for n in ("refuse", "withdraw")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        entry.refresh_from_db()
        logged = list(TeamAct.objects.filter(team=team).values_list("action", flat=True))
        if entry.status == "refused":
            assert outcomes == {"refuse": "done", "withdraw": "entry_refused"}, trial
            assert entry.reason == "Not a federated club"
            assert logged == ["refused"]
        else:
            assert outcomes == {"refuse": "entry_out", "withdraw": "done"}, trial
            assert (entry.status, entry.reason) == ("withdrawn", "We cannot come")
            assert logged == ["withdrawn"]
