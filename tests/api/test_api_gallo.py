"""A championship of tables of three (gallo) through the API: the three-sided payloads,
a whole table posted hand by hand, the engine's refusals; two-sided payloads unchanged."""

from __future__ import annotations

import random

import scoring
from tests.api.conftest import V1, client_for
from tests.api.test_api_full_run import all_pages, ok
from tests.tournaments.factories import RefereeFactory
from tournaments.demo import play_hand
from tournaments.models import Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors


def test_a_gallo_table_through_the_api(organiser):
    api = client_for(organiser)
    referee = RefereeFactory(username="arbitro")
    rules = {"gallo": "por_turno", "falta_envido": "whole_chico", "target": 15}
    created = ok(
        api.post(
            f"{V1}/championships/",
            {
                "name": "Gallo API",
                "slug": "gallo-api",
                "start_date": "2026-06-01",
                "preset": "argentine",
                "options": rules,
                "team_size": 1,
            },
            format="json",
        ),
        201,
    )
    assert created["options"]["gallo"] == "por_turno"
    base = f"{V1}/championships/gallo-api"
    for n in range(1, 4):
        player = {"name": f"Jugador {n}", "seed": n, "players": [f"J{n}"]}
        ok(api.post(f"{base}/teams/", player, format="json"), 201)
    ok(api.post(f"{base}/referees/", {"username": "arbitro"}, format="json"), 201)
    ok(api.post(f"{base}/status/", {"status": "registration"}, format="json"))
    ok(api.post(f"{base}/status/", {"status": "running"}, format="json"))
    stage = ok(api.post(f"{base}/stages/", {"format": "tables_round_robin"}, format="json"), 201)
    stage_url = f"{base}/stages/{stage['id']}"
    ok(api.post(f"{stage_url}/rounds/", {"number": 1}, format="json"), 201)
    (summary,) = all_pages(api, f"{base}/matches/?stage={stage['id']}")
    assert summary["team_c"]["name"] == "Jugador 3"
    assert (summary["chicos_c"], summary["tantos_c"], summary["places"]) == (0, 0, {})

    match_url = f"{V1}/matches/{summary['id']}"
    ok(api.patch(f"{match_url}/", {"referee": "arbitro"}, format="json"))
    ref_api = client_for(referee)
    ok(ref_api.post(f"{match_url}/seats/", {}, format="json"))
    match = Match.objects.get(pk=summary["id"])
    base_record = records.match_record(result_selectors.match_detail(pk=match.pk), [])

    # Refused by the engine, translated: a gallo out of turn, a player not at the table.
    first = scoring.score_match_result(base_record).next.record
    wrong = next(p for p in first["order"] if p != first["gallo"])
    refused = ref_api.post(
        f"{match_url}/hands/", {"number": 1, "gallo": wrong, "events": []}, format="json"
    )
    assert refused.status_code == 400, refused.content
    assert refused.json()["error"]["code"] == "gallo_mismatch"
    assert refused.json()["error"]["message"] == "The gallo of this hand is J3, not J1."
    stranger = {"number": 1, "events": [{"by": "p999999", "call": "truco"}]}
    refused = ref_api.post(f"{match_url}/hands/", stranger, format="json")
    assert refused.json()["error"]["code"] == "unknown_player"

    rng = random.Random(7)
    entries: list[dict] = []
    while True:
        scored = scoring.score_match_result({**base_record, "hands": entries})
        if scored.next is None:
            break
        record = dict(scored.next.record)
        entry = {**play_hand(rng, record), "gallo": record["gallo"]}
        posted = ok(
            ref_api.post(
                f"{match_url}/hands/", {"number": len(entries) + 1, **entry}, format="json"
            ),
            201,
        )
        assert set(posted["score"]) == {"A", "B", "C"}
        assert set(posted["points"]) == {"A", "B", "C"}
        entries.append(entry)

    detail = ok(client_for().get(f"{match_url}/"))
    assert detail["status"] == "finished"
    final = scoring.score_match_result({**base_record, "hands": entries})
    place = {p.side: p.place for p in scoring.table_placement(final)}
    ids = {"A": detail["team_a"]["id"], "B": detail["team_b"]["id"], "C": detail["team_c"]["id"]}
    assert detail["places"] == {str(ids[side]): place[side] for side in "ABC"}
    assert detail["chicos_c"] == final.state.wins["C"]
    assert all("score_c" in game for game in detail["games"])
    hands = ok(client_for().get(f"{match_url}/hands/?page_size=200"))
    assert hands["count"] == len(entries)
    last = hands["results"][-1] if hands["next"] is None else None
    if last is not None:
        assert last["score"]["C"] == final.hands[-1].score.get("C", 0)

    standings = ok(client_for().get(f"{stage_url}/standings/"))
    assert [c["key"] for c in standings["tiebreaks"]] == ["points", "tantos", "opponents", "lots"]
    lines = standings["tables"][0]["lines"]
    winner = next(side for side, p in place.items() if p == 1)
    assert lines[0]["team"]["id"] == ids[winner] and lines[0]["points"] == 3


def test_two_sided_payloads_carry_no_third_side(organiser, championship_factory):
    from tests.tournaments.factories import TeamFactory
    from tournaments.stages import services as stage_services

    championship = championship_factory()
    TeamFactory(championship=championship, seed=1)
    TeamFactory(championship=championship, seed=2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    detail = ok(client_for(organiser).get(f"{V1}/matches/{match.pk}/"))
    assert not {"team_c", "chicos_c", "tantos_c", "places"} & set(detail)
