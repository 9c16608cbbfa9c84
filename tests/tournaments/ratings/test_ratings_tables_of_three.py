"""Ratings of tables of three (gallo): each of the three players a side of his own, ranked
by the table's places, a shared place a tie (docs/tournaments.md "Ratings"); a table of
two at a gallo championship is an ordinary two-sided match."""

import math
import random

import pytest
from django.urls import reverse

from tests.api.conftest import client_for
from tests.tournaments.ratings.test_rating_services import person_of, plackett_luce_two
from tests.tournaments.test_gallo_tables import FIJO, POR_TURNO, gallo_championship, play_table
from tournaments import tasks
from tournaments.models import Match, Rating, RatingChange, Stage
from tournaments.people import history as people_history
from tournaments.ratings import services as rating_services
from tournaments.ratings import skill
from tournaments.ratings.played import played
from tournaments.stages import services as stage_services

pytestmark = pytest.mark.django_db

NEWCOMER = (25, 25 / 3)


def plackett_luce(ratings, places):
    """Single players ranked by ``places`` (ties: equal places), written out from Weng and
    Lin's algorithm 4 with OpenSkill's tie rule (each rank's term divided by the number of
    sides sharing it) and this project's parameters: not OpenSkill's code."""
    beta, tau, kappa = 25 / 6, 25 / 300, 0.0001
    var = [sigma**2 + tau**2 for _mu, sigma in ratings]
    c = math.sqrt(sum(v + beta**2 for v in var))
    strength = [math.exp(mu / c) for mu, _sigma in ratings]
    sides = range(len(ratings))
    # For each side q: the strengths of those not placed above it, and how many share it.
    below = [sum(strength[s] for s in sides if places[s] >= places[q]) for q in sides]
    shared = [sum(1 for s in sides if places[s] == places[q]) for q in sides]
    after = []
    for i in sides:
        omega = delta = 0.0
        for q in sides:
            if places[q] > places[i]:
                continue
            p = strength[i] / below[q]
            omega += ((1 if q == i else 0) - p) / shared[q]
            delta += p * (1 - p) / shared[q]
        mu = ratings[i][0] + var[i] / c * omega
        delta *= math.sqrt(var[i]) / c * var[i] / c**2
        after.append((mu, math.sqrt(var[i]) * math.sqrt(max(1 - delta, kappa))))
    return after


def test_the_written_out_model_is_the_two_sided_one_for_two():
    assert plackett_luce([NEWCOMER, NEWCOMER], [1, 2]) == pytest.approx(
        list(plackett_luce_two(NEWCOMER, NEWCOMER)), abs=1e-12
    )


def table(rules=POR_TURNO, *, placement=None):
    """A table of three players, not played yet. ``placement``: the stage's chain of the
    engine's placement (docs/rules.md "A table's placement"; empty: the two behind the
    winner share second)."""
    championship, _teams = gallo_championship(3, rules)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    if placement is not None:
        Stage.objects.filter(pk=stage.pk).update(
            settings={**stage.settings, "placement": placement}
        )
    (match,) = stage_services.round_generate(stage=stage)
    return match


def table_played(capture, referee, rules=POR_TURNO, *, seed=1, placement=None):
    """A table of three played to its end, its rating task run on commit."""
    with capture(execute=True):
        match, _entries = play_table(
            table(rules, placement=placement), random.Random(seed), referee=referee
        )
    return match


def seated(match):
    """The table's three teams, A, B, C."""
    return [match.team_a, match.team_b, match.team_c]


def places_of(match):
    return [match.places[str(team.pk)] for team in seated(match)]


def ratings_of(match):
    return [Rating.objects.get(person=person_of(team)) for team in seated(match)]


def changes_of(match):
    """Each of the table's players' rating change for it: (place, won), A, B, C."""
    return [
        RatingChange.objects.filter(match=match, person=person_of(team))
        .values_list("place", "won")
        .get()
        for team in seated(match)
    ]


def test_a_table_of_three_rates_its_three_players_by_their_places(
    django_capture_on_commit_callbacks, referee
):
    match = table_played(django_capture_on_commit_callbacks, referee)
    places = places_of(match)
    assert sorted(places) == [1, 2, 3]  # this table's places: none shared
    ratings = ratings_of(match)
    for rating, wanted in zip(ratings, plackett_luce([NEWCOMER] * 3, places), strict=True):
        assert (rating.mu, rating.sigma) == pytest.approx(wanted, abs=1e-9)
        assert (rating.matches, rating.last_match_id) == (1, match.pk)
        assert rating.family == "argentine"
    first, second, third = (r for _place, r in sorted(zip(places, ratings, strict=True)))
    assert first.person_id == person_of(match.winner).pk
    # The first rises most; the third falls; the second is in between.
    assert first.mu - skill.MU > abs(second.mu - skill.MU)
    assert first.mu > second.mu > third.mu
    assert third.mu < skill.MU < first.mu
    assert changes_of(match) == [(place, place == 1) for place in places]
    # Rated once, however often its task runs; the rebuild gives the same numbers.
    assert tasks.rate_match(match.pk) == 0
    before = sorted(Rating.objects.values_list("person_id", "mu", "sigma"))
    assert rating_services.ratings_rebuild() == {"argentine": 1, "catalan": 0}
    assert sorted(Rating.objects.values_list("person_id", "mu", "sigma")) == before
    assert changes_of(match) == [(place, place == 1) for place in places]


def test_a_shared_place_gives_the_tied_players_equal_changes(
    django_capture_on_commit_callbacks, referee
):
    # An empty placement chain ranks the winner alone: the two others share second.
    match = table_played(django_capture_on_commit_callbacks, referee, placement=[])
    places = places_of(match)
    assert sorted(places) == [1, 2, 2]
    ratings = ratings_of(match)
    tied = [r for place, r in zip(places, ratings, strict=True) if place == 2]
    assert (tied[0].mu, tied[0].sigma) == (tied[1].mu, tied[1].sigma)
    assert tied[0].mu < skill.MU
    for rating, wanted in zip(ratings, plackett_luce([NEWCOMER] * 3, places), strict=True):
        assert (rating.mu, rating.sigma) == pytest.approx(wanted, abs=1e-9)
    assert changes_of(match) == [(place, place == 1) for place in places]


def test_a_change_of_places_behind_the_winner_rates_the_table_again(
    django_capture_on_commit_callbacks, referee
):
    """The winner stays, the second and third swap (a corrected sheet): not what it was
    rated with, so it is rated again."""
    match = table_played(django_capture_on_commit_callbacks, referee)
    places = places_of(match)
    swapped = [{1: 1, 2: 3, 3: 2}[place] for place in places]
    Match.objects.filter(pk=match.pk).update(
        places={str(t.pk): p for t, p in zip(seated(match), swapped, strict=True)}
    )
    assert tasks.rate_match(match.pk) == 1
    for rating, wanted in zip(
        ratings_of(match), plackett_luce([NEWCOMER] * 3, swapped), strict=True
    ):
        assert (rating.mu, rating.sigma) == pytest.approx(wanted, abs=1e-9)
    assert changes_of(match) == [(place, place == 1) for place in swapped]
    assert tasks.rate_match(match.pk) == 0


def test_a_table_without_its_places_is_not_rated(django_capture_on_commit_callbacks, referee):
    match = table_played(django_capture_on_commit_callbacks, referee)
    assert played(Match.objects.filter(pk=match.pk))
    Match.objects.filter(pk=match.pk).update(places={})
    assert played(Match.objects.filter(pk=match.pk)) == []
    tasks.rate_match(match.pk)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_fixed_gallo_table_rates_each_player_with_his_own_place(
    django_capture_on_commit_callbacks, referee
):
    match = table_played(django_capture_on_commit_callbacks, referee, FIJO)
    places = places_of(match)
    # The pair (B and C) shares its place: each of its players is rated as a side of his
    # own at that place, the gallo (A) at his.
    assert places[1] == places[2] != places[0]
    gallo, partner, other = ratings_of(match)
    assert (partner.mu, partner.sigma) == (other.mu, other.sigma)
    for rating, wanted in zip(
        (gallo, partner, other), plackett_luce([NEWCOMER] * 3, places), strict=True
    ):
        assert (rating.mu, rating.sigma) == pytest.approx(wanted, abs=1e-9)
        assert rating.matches == 1
    pair_won = places[1] == 1
    assert (partner.mu > skill.MU) == pair_won and (gallo.mu > skill.MU) != pair_won
    assert changes_of(match) == [(place, place == 1) for place in places]


def test_a_table_of_two_at_a_gallo_championship_is_rated_as_two_sides(
    django_capture_on_commit_callbacks, referee
):
    championship, _teams = gallo_championship(5)
    stage = stage_services.stage_create(
        championship=championship,
        format="tables_swiss",
        settings={"rounds": 1, "remainder": "table_of_two"},
    )
    rng = random.Random(4)
    matches = stage_services.round_generate(stage=stage)
    with django_capture_on_commit_callbacks(execute=True):
        for match in matches:
            play_table(match, rng, referee=referee)
    (two,) = [m for m in matches if not m.is_table_of_three]
    two.refresh_from_db()
    loser = two.team_b if two.winner_id == two.team_a_id else two.team_a
    won, lost = plackett_luce_two(NEWCOMER, NEWCOMER)
    winner_rating = Rating.objects.get(person=person_of(two.winner))
    loser_rating = Rating.objects.get(person=person_of(loser))
    assert (winner_rating.mu, winner_rating.sigma) == pytest.approx(won, abs=1e-9)
    assert (loser_rating.mu, loser_rating.sigma) == pytest.approx(lost, abs=1e-9)
    assert sorted(RatingChange.objects.filter(match=two).values_list("place", "won")) == [
        (1, True),
        (2, False),
    ]
    assert RatingChange.objects.count() == 5  # the table of three's three and these two


def test_tables_and_matches_rebuilt_give_the_numbers_of_the_updates(
    django_capture_on_commit_callbacks, referee
):
    championship, _teams = gallo_championship(7, FIJO)
    stage = stage_services.stage_create(
        championship=championship,
        format="tables_swiss",
        settings={"rounds": 2, "remainder": "table_of_two"},
    )
    rng = random.Random(7)
    for _round in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            for match in stage_services.round_generate(stage=stage):
                play_table(match, rng, referee=referee)
    columns = ("person_id", "match_id", "number", "place", "won", "mu_after", "sigma_after")
    incremental = sorted(RatingChange.objects.values_list(*columns))
    # Seven players: each round a table of three and two tables of two, 2 × (3 + 2 + 2).
    assert len(incremental) == 14
    assert {row[3] for row in incremental} >= {1, 2}
    ratings = sorted(Rating.objects.values_list("person_id", "mu", "sigma", "matches"))
    assert rating_services.ratings_rebuild() == {"argentine": 6, "catalan": 0}
    assert sorted(RatingChange.objects.values_list(*columns)) == incremental
    assert sorted(Rating.objects.values_list("person_id", "mu", "sigma", "matches")) == ratings


def test_the_person_page_and_the_api_show_a_rating_after_a_table(
    client, django_capture_on_commit_callbacks, referee
):
    match = table_played(django_capture_on_commit_callbacks, referee)
    place = match.places[str(match.team_c_id)]
    person = person_of(match.team_c)
    rating = Rating.objects.get(person=person)
    # A change to the table renews the pages of all three players.
    _teams, persons = people_history.match_people(match_id=match.pk)
    assert set(persons) == {person_of(team).pk for team in seated(match)}

    page = client.get(reverse("tournaments:person", args=[person.pk])).content.decode()
    assert "Rating in Argentine truco" in page
    assert f">{skill.shown(rating.mu, rating.sigma)}<" in page
    assert "After 1 rated match" in page

    body = client_for().get(f"/api/v1/persons/{person.pk}/ratings/").json()
    (argentine,) = body["ratings"]
    assert argentine["rating"] == skill.shown(rating.mu, rating.sigma)
    (point,) = argentine["history"]
    assert (point["match"], point["place"], point["sides"]) == (match.pk, place, 3)
    assert point["won"] is (place == 1)
    assert point["mu"] == rating.mu
