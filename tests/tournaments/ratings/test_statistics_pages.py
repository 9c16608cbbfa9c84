"""The statistics pages (a championship's, the sections of a person's and a team's), the
CSV and the API: read from what is kept, a fixed number of queries."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.api.conftest import V1, client_for
from tests.tournaments.factories import TeamFactory
from tests.tournaments.ratings.test_statistics import known_hands, match, player, record_all
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

__all__ = ["match"]  # the fixture


@pytest.fixture
def played(match):
    record_all(match, known_hands(match.seats))
    return match


def test_the_championship_page_shows_the_counts_and_the_chart(client, played):
    championship = played.stage.championship
    page = client.get(reverse("tournaments:statistics", args=[championship.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Biggest hand" in html and "27 points in hand 5" in html
    assert "Longest match" in html and "5 hands" in html
    assert html.count('class="bars__bar') >= 7  # envido, flor, truco's levels, mazo, penalties
    assert ">retruco<" in html  # the truco's levels named by the championship's ladder
    assert played.team_a.name in html and player(played.seats[0]).public_name in html
    assert "statistics.csv" in html


def test_no_hand_yet(client, match):
    page = client.get(reverse("tournaments:statistics", args=[match.stage.championship.slug]))
    assert page.status_code == 200
    assert "No hand has been played yet." in page.content.decode()


@pytest.mark.parametrize("more", [0, 2])
def test_the_pages_cost_a_fixed_number_of_queries(
    client, played, more, django_assert_max_num_queries
):
    championship = played.stage.championship
    for _ in range(more):
        TeamFactory(championship=championship)
    stage = stage_services.stage_create(
        championship=championship, format="round_robin", name="Second"
    )
    for extra in stage_services.round_generate(stage=stage)[:more]:
        extra = result_services.match_start(match=extra)
        record_all(extra, known_hands(extra.seats)[:2])
    with django_assert_max_num_queries(STATISTICS_QUERIES):
        assert (
            client.get(reverse("tournaments:statistics", args=[championship.slug])).status_code
            == 200
        )


# The championship (kept as a part, read when the cache is off), the sums, the teams'
# sums, their teams, the players' sums, the biggest hand, the longest match and its match.
STATISTICS_QUERIES = 8


def test_the_person_and_team_pages_have_their_section(client, played):
    championship = played.stage.championship
    person = player(played.seats[1]).person
    page = client.get(reverse("tournaments:person", args=[person.pk])).content.decode()
    assert "Statistics from the hands" in page
    assert "1 of 1 won" in page  # his side's chico won from the malas
    team = client.get(reverse("tournaments:team", args=[championship.slug, played.team_a_id]))
    assert "Statistics from the hands" in team.content.decode()
    assert "2 called, 0 accepted, 0 refused" in team.content.decode()


def test_the_csv_has_a_row_per_team_and_per_player(client, played):
    championship = played.stage.championship
    response = client.get(reverse("tournaments:statistics_csv", args=[championship.slug]))
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    teams = {r["team"]: r for r in rows if r["kind"] == "team"}
    assert teams[played.team_b.name]["comebacks"] == "1"
    assert teams[played.team_a.name]["flor_points"] == "3"
    assert teams[played.team_a.name]["truco_points_1"] == "2"
    people = [r for r in rows if r["kind"] == "player"]
    assert len(people) == 4
    a1 = next(r for r in people if r["player"] == player(played.seats[0]).public_name)
    assert (a1["hands"], a1["envido_called"], a1["flor_sung"], a1["points"]) == (
        "5",
        "2",
        "1",
        "21",
    )
    # Public: no contact data.
    assert "@" not in text and "licence" not in text


def test_the_api(played):
    championship = played.stage.championship
    api = client_for()
    found = api.get(f"{V1}/championships/{championship.slug}/statistics/").json()
    assert found["totals"]["hands"] == 5 and found["totals"]["comebacks"] == 1
    assert found["biggest_hand"] == {
        "match": played.pk,
        "hand": 5,
        "team": played.team_b_id,
        "points": 27,
    }
    assert found["longest_match"] == {"match": played.pk, "hands": 5}
    assert len(found["players"]) == 4
    team = api.get(f"{V1}/championships/{championship.slug}/teams/{played.team_a_id}/statistics/")
    assert team.json()["truco_points_by_level"] == [1, 2, 0, 0]
    person = player(played.seats[0]).person
    mine = api.get(f"{V1}/persons/{person.pk}/statistics/").json()
    assert (mine["hands"], mine["envido_called"], mine["points"]) == (5, 2, 21)
    assert api.get(f"{V1}/persons/999999/statistics/").status_code == 404


def test_a_draft_is_not_revealed(client, played):
    championship = played.stage.championship
    championship.status = championship.Status.DRAFT
    championship.save()
    assert (
        client.get(reverse("tournaments:statistics", args=[championship.slug])).status_code == 404
    )
    assert (
        client_for().get(f"{V1}/championships/{championship.slug}/statistics/").status_code == 404
    )
    person = player(played.seats[0]).person
    assert client_for().get(f"{V1}/persons/{person.pk}/statistics/").status_code == 404
