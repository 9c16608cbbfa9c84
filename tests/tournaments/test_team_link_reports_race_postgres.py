"""Two teams sending their report forms from their link pages at the same moment
(PostgreSQL, threads behind a barrier): one result, the other report its answer (a
confirmation if the same, else a dispute), each page answered with what happened to it."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.entries.services import link_issue
from tournaments.models import Championship, HandRevision, MatchConfirmation, Scorekeeping
from tournaments.stages import services as stage_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _post(match, team, scores, winner) -> tuple[str, dict]:
    url = reverse(
        "tournaments:team_link",
        args=[match.stage.championship.slug, link_issue(team=team, via="organiser")],
    )
    data = {"action": "report", "match": match.pk, f"m{match.pk}-winner": winner}
    for number, (a, b) in enumerate(scores, start=1):
        data[f"m{match.pk}-c{number}_A"] = a
        data[f"m{match.pk}-c{number}_B"] = b
    return url, data


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", [True, False])
def test_two_teams_sending_their_forms_at_once_give_one_result(same):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory(
        scorekeeping=Scorekeeping.RESULTS, status=Championship.Status.RUNNING
    )
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    match = stage_services.round_generate(stage=stage)[0]
    a_wins = [(30, 25), (30, 12)]
    posts = [
        _post(match, match.team_a, a_wins, "A"),
        _post(match, match.team_b, a_wins if same else [(20, 30), (11, 30)], "A" if same else "B"),
    ]
    barrier = threading.Barrier(2)
    answers: list[str] = ["", ""]

    def send(index: int) -> None:
        try:
            client = Client()
            url, data = posts[index]
            barrier.wait()
            response = client.post(url, data, follow=True, **EN)
            answers[index] = response.content.decode()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    match.refresh_from_db()
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1
    reporter = match.reported_side
    first, second = (0, 1) if reporter == "A" else (1, 0)
    assert "Result reported:" in answers[first]
    statuses = dict(match.confirmations.values_list("side", "status"))
    other = "B" if reporter == "A" else "A"
    if same:
        assert statuses == {reporter: "confirmed", other: "confirmed"}
        assert "had reported the same result" in answers[second]
    else:
        assert statuses[other] == MatchConfirmation.Status.DISPUTED
        assert "Yours is different, so it went to the organiser as a dispute" in answers[second]
