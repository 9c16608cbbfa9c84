"""Two clients posting one ``Idempotency-Key`` at once to the entry form: the championship
lock serialises them, so the second reads the first's entry and is answered as a replay
only if it is the same sending; another client gets a 409 naming nothing of the team."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import ChampionshipFactory
from tournaments.entries import services
from tournaments.models import Championship, Team

URL = f"{V1}/championships/copa/entries/"
KEY = "5b1f0c9e-7d2a-4e8b-a6c3-19f04d7e2b80"


def _team(name: str) -> dict:
    return {"team_name": name, "players": [{"name": f"{name} 1"}, {"name": f"{name} 2"}]}


def _at_once(posts: list[tuple[dict, str]]) -> list:
    """Each (body, address) posted in its own thread, released together; the answers."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory(slug="copa", status=Championship.Status.REGISTRATION)
    services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=None,
        closes_at=None,
        asks=[],
        fee=None,
        fee_instructions="",
    )
    barrier = threading.Barrier(len(posts))
    answers: list = [None] * len(posts)

    def post(index: int, body: dict, address: str) -> None:
        try:
            client = client_for()
            barrier.wait()
            answers[index] = client.post(
                URL, body, format="json", HTTP_IDEMPOTENCY_KEY=KEY, REMOTE_ADDR=address
            )
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=post, args=(index, body, address))
        for index, (body, address) in enumerate(posts)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db(transaction=True)
def test_two_clients_with_one_key_at_once_enter_one_team_and_the_other_learns_nothing():
    answers = _at_once([(_team("Los Pardos"), "203.0.113.7"), (_team("Intrusos"), "198.51.100.9")])
    codes = sorted(a.status_code for a in answers)
    assert codes == [201, 409]
    won = next(a for a in answers if a.status_code == 201).json()
    lost = next(a for a in answers if a.status_code == 409)
    assert lost.json()["error"]["code"] == "entry_key_used"
    text = lost.content.decode()
    assert won["team"]["name"] not in text and won["link"] not in text and "/team/" not in text
    assert list(Team.objects.values_list("name", flat=True)) == [won["team"]["name"]]


@pytest.mark.django_db(transaction=True)
def test_one_client_sending_twice_at_once_gets_one_team_and_its_link_twice():
    body = _team("Los Pardos")
    answers = _at_once([(body, "203.0.113.7"), (body, "203.0.113.7")])
    assert sorted(a.status_code for a in answers) == [200, 201]
    first, again = sorted(answers, key=lambda a: -a.status_code)
    assert again["Idempotent-Replayed"] == "true"
    assert (again.json()["id"], again.json()["link"]) == (first.json()["id"], first.json()["link"])
    assert Team.objects.count() == 1
