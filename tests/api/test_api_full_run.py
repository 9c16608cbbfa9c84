"""A whole championship run through the API alone, and the rule book's console hand."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import RefereeFactory


def ok(response, status: int = 200) -> dict:
    assert response.status_code == status, response.content
    return response.json() if response.content else {}


def all_pages(client: APIClient, url: str) -> list[dict]:
    results = []
    while url:
        page = ok(client.get(url))
        results += page["results"]
        url = page["next"]
    return results


def chico_events(match: dict, number: int, winner_side: str) -> list[dict]:
    """A hand that ends a chico: falta envido (worth the chico here), accepted, given away."""
    seats = [seat["key"] for seat in match["seats"]]
    mano = seats[(number - 1) % len(seats)]
    other = seats[(number) % len(seats)]
    return [
        {"by": mano, "call": "falta_envido"},
        {"by": other, "answer": "quiero"},
        {"envido_winner": winner_side},
    ]


def test_a_whole_championship_through_the_api(organiser):
    api = client_for(organiser)
    referee = RefereeFactory(username="arbitro")
    ok(
        api.post(
            f"{V1}/championships/",
            {
                "name": "Copa API",
                "slug": "copa-api",
                "start_date": "2026-06-01",
                "preset": "argentine",
                "options": {"falta_envido": "whole_chico"},
                "team_size": 2,
            },
            format="json",
        ),
        201,
    )
    base = f"{V1}/championships/copa-api"
    for n in range(1, 5):
        ok(
            api.post(
                f"{base}/teams/",
                {"name": f"Pareja {n}", "seed": n, "players": [f"J{n}a", f"J{n}b"]},
                format="json",
            ),
            201,
        )
    # Its referee, on its list: only its referees are assigned its matches.
    listed = ok(api.post(f"{base}/referees/", {"username": "arbitro"}, format="json"), 201)
    assert (listed["username"], listed["open_matches"]) == ("arbitro", 0)
    ok(api.post(f"{base}/status/", {"status": "registration"}, format="json"))
    ok(api.post(f"{base}/status/", {"status": "running"}, format="json"))
    stage = ok(api.post(f"{base}/stages/", {"format": "single_elimination"}, format="json"), 201)
    stage_url = f"{base}/stages/{stage['id']}"
    generated = ok(api.post(f"{stage_url}/rounds/", {"number": 1}, format="json"), 201)
    assert len(generated["matches"]) == 2
    # The same form sent twice generates one round.
    assert api.post(f"{stage_url}/rounds/", {"number": 1}, format="json").status_code == 409

    played = set()
    while True:
        pending = [
            m
            for m in all_pages(api, f"{base}/matches/?stage={stage['id']}")
            if m["status"] != "finished" and m["id"] not in played
        ]
        if not pending:
            break
        for summary in pending:
            ok(api.patch(f"{V1}/matches/{summary['id']}/", {"referee": "arbitro"}, format="json"))
            ref_api = client_for(referee)
            ok(ref_api.post(f"{V1}/matches/{summary['id']}/seats/", {}, format="json"))
            number = 1
            favourite = "A" if summary["team_a"]["name"] < summary["team_b"]["name"] else "B"
            while True:
                match = ok(ref_api.get(f"{V1}/matches/{summary['id']}/"))
                if match["status"] == "finished":
                    break
                assert match["next_hand"] == number
                hand = {"number": number, "events": chico_events(match, number, favourite)}
                ok(ref_api.post(f"{V1}/matches/{summary['id']}/hands/", hand, format="json"), 201)
                number += 1
            played.add(summary["id"])

    bracket = ok(api.get(f"{stage_url}/bracket/"))
    names = {team["id"]: team["name"] for team in bracket["teams"]}
    assert bracket["finished"] is True
    assert names[bracket["champion"]] == "Pareja 1"
    standings = ok(client_for().get(f"{stage_url}/standings/"))
    lines = standings["tables"][0]["lines"]
    assert lines[0]["team"]["name"] == "Pareja 1"
    assert lines[0]["wins"] == 2
    assert set(lines[0]["metrics"]) == {column["key"] for column in standings["tiebreaks"]}
    hands = ok(client_for().get(f"{V1}/matches/{bracket['slots'][0]['match']}/hands/"))
    assert hands["count"] == 2
    assert hands["results"][0]["status"] == "game_over"
