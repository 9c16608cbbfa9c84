"""A gallo championship of 30 players from entry to final table, with the tools a pairs
championship uses: entries from the public API and the organiser's answers, check-in, a
Swiss system of tables over four rounds (a player absent for one: a remainder seated by
the championship's rule), the tables recorded and placed by the engine, the standings,
the final table of the best three and the championship's page."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from django.urls import reverse

from tests.api.conftest import V1, client_for
from tests.api.test_api_full_run import all_pages, ok
from tests.tournaments.factories import UserFactory
from tests.tournaments.test_gallo_tables import play_table
from tournaments.entries import services as entry_services
from tournaments.models import Championship, Match, Stage, Team
from tournaments.stages import services as stage_services
from tournaments.standings.tables import PlacementPoints

PLAYERS = 30


def _seated(match: Match) -> list[int | None]:
    return [match.team_a_id, match.team_b_id, match.team_c_id]


def test_thirty_players_from_entry_to_the_final_table(referee, client):
    organiser = UserFactory(username="organiser")
    api = client_for(organiser)
    rules = {"gallo": "por_turno", "falta_envido": "whole_chico", "target": 15}
    created = {
        "name": "Gallo de Otoño",
        "slug": "gallo-otono",
        "start_date": "2026-11-28",
        "preset": "argentine",
        "options": rules,
        "team_size": 1,
    }
    ok(api.post(f"{V1}/championships/", created, format="json"), 201)
    base = f"{V1}/championships/gallo-otono"
    ok(api.post(f"{base}/status/", {"status": "registration"}, format="json"))
    championship = Championship.objects.get(slug="gallo-otono")
    entry_services.entry_policy_set(
        championship=championship,
        by=organiser,
        is_open=True,
        capacity=PLAYERS,
        closes_at=None,
        asks=["email"],
        fee=None,
        fee_instructions="",
    )

    # Thirty players enter alone (a team of one, named after him), a 31st waits.
    anon = client_for()
    entries = []
    for n in range(1, PLAYERS + 2):
        body = {
            "team_name": f"Jugador {n:02d}",
            "players": [{"name": f"Jugador {n:02d}"}],
            "email": f"j{n}@example.com",
        }
        # Each from his own phone (the entry form is throttled by address).
        sent = anon.post(f"{base}/entries/", body, format="json", REMOTE_ADDR=f"10.0.0.{n}")
        entries.append(ok(sent, 201))
    assert entries[-1]["waiting_number"] == 1
    for entry in entries[:PLAYERS]:
        ok(api.post(f"{V1}/entries/{entry['id']}/accept/"))
    ok(api.post(f"{base}/referees/", {"username": referee.username}, format="json"), 201)
    ok(api.post(f"{base}/status/", {"status": "running"}, format="json"))

    settings = {"rounds": 4, "remainder": "table_of_two"}
    swiss = ok(
        api.post(
            f"{base}/stages/", {"format": "tables_swiss", "settings": settings}, format="json"
        ),
        201,
    )
    stage = Stage.objects.get(pk=swiss["id"])
    players = set(stage.teams.values_list("pk", flat=True))
    assert len(players) == PLAYERS
    rng = random.Random(30)
    met: Counter = Counter()
    absent = Team.objects.get(championship=championship, name="Jugador 07")
    for number in range(1, 5):
        stage_services.check_in_all(stage=stage, by=organiser)
        if number == 3:  # one player misses round 3: 29 present, a table of two
            stage_services.check_in_set(stage=stage, team=absent, present=False, by=organiser)
        ok(api.post(f"{base}/stages/{stage.pk}/rounds/", {"number": number}, format="json"), 201)
        matches = list(stage.matches.filter(round__number=number))
        seated = Counter(t for m in matches for t in _seated(m) if t is not None)
        assert set(seated.values()) == {1}  # every present player at one table
        expected = players - ({absent.pk} if number == 3 else set())
        assert set(seated) == expected
        sizes = Counter(len([t for t in _seated(m) if t]) for m in matches)
        assert sizes == (Counter({3: 9, 2: 1}) if number == 3 else Counter({3: 10}))
        for match in matches:
            ok(api.patch(f"{V1}/matches/{match.pk}/", {"referee": referee.username}, format="json"))
            played, _entries = play_table(match, rng, referee=referee)
            assert played.status == Match.Status.FINISHED
            ids = [t for t in _seated(played) if t]
            met.update(frozenset(p) for p in combinations(ids, 2))
    # Thirty players over four rounds: nobody met anybody twice.
    assert max(met.values()) == 1

    standings = ok(api.get(f"{base}/stages/{stage.pk}/standings/"))
    lines = standings["tables"][0]["lines"]
    assert len(lines) == PLAYERS
    # The points are the placement points of each player's tables (3, 1, 0; at the table
    # of two the winner a first place's, the loser a third's), nothing else.
    scheme = PlacementPoints()
    expected_points: Counter = Counter()
    for match in stage.matches.exclude(team_b=None):
        places = {int(k): v for k, v in match.places.items()}
        if not places:  # the table of two: its winner first
            loser = match.team_b_id if match.winner_id == match.team_a_id else match.team_a_id
            places = {match.winner_id: 1, loser: 2}
        expected_points.update(scheme.for_places(places))
    assert {line["team"]["id"]: line["points"] for line in lines} == dict(expected_points)
    assert [line["points"] for line in lines] == sorted(
        (line["points"] for line in lines), reverse=True
    )
    best = [line["team"]["id"] for line in lines[:3]]

    final = ok(api.post(f"{base}/stages/", {"format": "final_table"}, format="json"), 201)
    ok(api.post(f"{base}/stages/{final['id']}/rounds/", {"number": 1}, format="json"), 201)
    (table,) = all_pages(api, f"{base}/matches/?stage={final['id']}")
    assert [table["team_a"]["id"], table["team_b"]["id"], table["team_c"]["id"]] == best
    match = Match.objects.get(pk=table["id"])
    played, _entries = play_table(match, rng, one_by_one=True, referee=referee)
    detail = ok(client_for().get(f"{V1}/matches/{match.pk}/"))
    assert detail["status"] == "finished"
    champion = min(detail["places"], key=lambda team: detail["places"][team])
    final_lines = ok(api.get(f"{base}/stages/{final['id']}/standings/"))["tables"][0]["lines"]
    assert str(final_lines[0]["team"]["id"]) == champion == str(played.winner_id)
    ok(api.post(f"{base}/status/", {"status": "finished"}, format="json"))

    # The championship's page names the final table's winner first, and the final match
    # page shows the three places.
    page = client.get(
        reverse("tournaments:standings", args=[championship.slug, final["id"]]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert Team.objects.get(pk=int(champion)).name in page
    match_page = client.get(
        reverse("tournaments:match", args=[championship.slug, match.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "Places at the table:" in match_page
