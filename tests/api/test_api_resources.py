"""Teams, CSV import, stages with groups, standings, matches filters, players, pagination."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.api.conftest import V1, client_for
from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import Championship, Match, Team


def managed(organiser, **kwargs) -> Championship:
    championship = ChampionshipFactory(**kwargs)
    championship.organisers.add(organiser)
    return championship


def test_teams_are_entered_changed_and_removed_through_the_services(organiser):
    championship = managed(organiser, status=Championship.Status.REGISTRATION, slug="copa")
    api = client_for(organiser)
    base = f"{V1}/championships/copa/teams/"
    team = api.post(
        base, {"name": "Los Anchos", "players": ["Ana", "Bea"], "seed": 3}, format="json"
    ).json()
    assert [p["name"] for p in team["players"]] == ["Ana", "Bea"]
    too_big = api.post(base, {"name": "Trío", "players": ["A", "B", "C"]}, format="json")
    assert too_big.json()["error"]["code"] == "team_too_big"
    taken = api.post(base, {"name": "Los Anchos"}, format="json")
    assert (taken.status_code, taken.json()["error"]["code"]) == (409, "team_name_taken")

    renamed = api.patch(f"{base}{team['id']}/", {"name": "Los Sietes", "club": "Gràcia"})
    assert (renamed.json()["name"], renamed.json()["club"]) == ("Los Sietes", "Gràcia")
    assert api.delete(f"{base}{team['id']}/").status_code == 204
    assert not championship.teams.exists()


def test_the_csv_import_is_all_or_nothing_with_a_report_per_row(organiser):
    championship = managed(organiser, status=Championship.Status.REGISTRATION, slug="copa")
    api = client_for(organiser, "es")
    url = f"{V1}/championships/copa/teams/import/"
    bad = b"team,player,seed\nUno,Ana,1\nUno,Bea,1\nDos,,x\n"
    response = api.post(url, {"file": SimpleUploadedFile("t.csv", bad)}, format="multipart")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "import_rows"
    assert [(r["row"], r["column"]) for r in error["rows"]] == [(4, "player"), (4, "seed")]
    assert error["rows"][1]["message"] == "La cabeza de serie es un número entero a partir de 1."
    assert not championship.teams.exists()

    good = b"team,player\nUno,Ana\nUno,Bea\nDos,Carla\nDos,Dani\n"
    response = api.post(url, {"file": SimpleUploadedFile("t.csv", good)}, format="multipart")
    assert response.status_code == 201
    assert response.json()["count"] == 2
    assert sorted(championship.teams.values_list("name", flat=True)) == ["Dos", "Uno"]


def test_standings_per_group_with_every_tiebreak_value(organiser):
    championship = managed(organiser, slug="copa")
    for seed in range(1, 9):
        TeamFactory(championship=championship, seed=seed)
    api = client_for(organiser)
    base = f"{V1}/championships/copa/stages/"
    stage = api.post(
        base, {"format": "groups_knockout", "settings": {"group_count": 2}}, format="json"
    ).json()
    assert [g["name"] for g in stage["groups"]] == []  # made with the first round
    api.post(f"{base}{stage['id']}/rounds/", {}, format="json")
    stage = api.get(f"{base}{stage['id']}/").json()
    assert [len(g["teams"]) for g in stage["groups"]] == [4, 4]
    assert stage["settings"]["group_count"] == 2

    matches = api.get(f"{V1}/championships/copa/matches/?stage={stage['id']}&round=1").json()
    assert matches["count"] == 4
    first = Team.objects.get(pk=matches["results"][0]["team_a"]["id"])
    play(Match.objects.get(pk=matches["results"][0]["id"]), first)
    standings = client_for().get(f"{base}{stage['id']}/standings/").json()
    assert [table["group"] for table in standings["tables"]] == ["A", "B"]
    keys = [column["key"] for column in standings["tiebreaks"]]
    assert keys == list(championship.tiebreaks)
    lines = [line for table in standings["tables"] for line in table["lines"]]
    assert all(set(line["metrics"]) == set(keys) for line in lines)
    leader = next(line for line in lines if line["team"]["id"] == first.pk)
    assert (leader["rank"], leader["wins"], leader["chicos_for"]) == (1, 1, 2)

    finished = api.get(f"{V1}/championships/copa/matches/?status=finished").json()
    assert [m["winner"] for m in finished["results"]] == [first.pk]
    by_team = api.get(f"{V1}/championships/copa/matches/?team={first.pk}").json()
    assert by_team["count"] == 1
    bracket = api.get(f"{base}{stage['id']}/bracket/").json()
    assert bracket == {"finished": False, "champion": None, "teams": [], "slots": []}


def test_a_player_with_his_public_teams_only(organiser):
    public = ChampionshipFactory(slug="publico")
    draft = managed(organiser, slug="borrador", status=Championship.Status.DRAFT)
    team = TeamFactory(championship=public)
    player = team.memberships.first().player
    other = TeamFactory(championship=draft, members=False)
    other.memberships.create(player=player, order=1)
    body = client_for().get(f"{V1}/players/{player.pk}/").json()
    assert body["teams"] == [{"id": team.pk, "name": team.name, "championship": "publico"}]
    assert body["championships"] == [{"slug": "publico", "name": public.name}]
    mine = client_for(organiser).get(f"{V1}/players/{player.pk}/").json()
    assert {c["slug"] for c in mine["championships"]} == {"publico", "borrador"}
    lonely = TeamFactory(championship=draft).memberships.first().player
    assert client_for().get(f"{V1}/players/{lonely.pk}/").status_code == 404


def test_lists_are_paginated(organiser):
    championship = managed(organiser, slug="copa")
    for seed in range(1, 8):
        TeamFactory(championship=championship, seed=seed)
    page = client_for().get(f"{V1}/championships/copa/teams/?page_size=5").json()
    assert (page["count"], len(page["results"])) == (7, 5)
    second = client_for().get(page["next"]).json()
    assert len(second["results"]) == 2
    missing = client_for().get(f"{V1}/championships/copa/teams/?page=9")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_a_seed_changes_only_while_the_team_has_no_match(organiser):
    championship = managed(organiser, slug="copa")
    first, _second = (TeamFactory(championship=championship, seed=n) for n in (1, 2))
    api = client_for(organiser)
    url = f"{V1}/championships/copa/teams/{first.pk}/"
    assert api.patch(url, {"seed": 5}, format="json").json()["seed"] == 5
    stage = api.post(f"{V1}/championships/copa/stages/", {"format": "round_robin"}).json()
    api.post(f"{V1}/championships/copa/stages/{stage['id']}/rounds/", {}, format="json")
    locked = api.patch(url, {"seed": 1}, format="json")
    assert (locked.status_code, locked.json()["error"]["code"]) == (409, "seed_locked")
    assert api.patch(url, {"name": "Renombrado"}, format="json").status_code == 200
    first.refresh_from_db()
    assert (first.seed, first.name) == (5, "Renombrado")


def test_hot_reads_cost_a_fixed_number_of_queries(organiser, django_assert_max_num_queries):
    championship = managed(organiser, slug="copa")
    for seed in range(1, 13):
        TeamFactory(championship=championship, seed=seed)
    api = client_for(organiser)
    stage = api.post(f"{V1}/championships/copa/stages/", {"format": "round_robin"}).json()
    api.post(f"{V1}/championships/copa/stages/{stage['id']}/rounds/", {}, format="json")
    anonymous = client_for()
    with django_assert_max_num_queries(8):  # championship, stage, groups, snapshot or results
        anonymous.get(f"{V1}/championships/copa/stages/{stage['id']}/standings/")
    with django_assert_max_num_queries(3):  # championship, count, page
        assert anonymous.get(f"{V1}/championships/copa/matches/").json()["count"] == 6
    with django_assert_max_num_queries(4):  # championship, count, teams, their players
        assert anonymous.get(f"{V1}/championships/copa/teams/").json()["count"] == 12
