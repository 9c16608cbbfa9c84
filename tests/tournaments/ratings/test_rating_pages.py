"""The ratings on the pages: a person's rating and its chart, the public leaderboards,
the organiser's "Seed teams by rating", and the API (current, history, leaderboard)."""

import re

import pytest
from django.urls import reverse

from tests.api.conftest import client_for
from tests.tournaments.factories import ChampionshipFactory, TeamFactory, UserFactory
from tests.tournaments.ratings.test_rating_services import round_robin_played
from tournaments.models import Championship, Membership, Person, Rating
from tournaments.ratings import skill

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(django_capture_on_commit_callbacks):
    """Six teams of two, a round robin of five rounds played: everyone has 5 rated matches."""
    championship, teams, matches = round_robin_played(django_capture_on_commit_callbacks, teams=6)
    return championship, teams, matches


def test_a_person_page_shows_his_rating_and_its_history(client, rated):
    rating = Rating.objects.order_by("-ordinal").first()
    person = rating.person
    person.email = "secret@example.org"
    person.save()
    page = client.get(reverse("tournaments:person", args=[person.pk])).content.decode()
    assert "Rating in Argentine truco" in page
    assert f">{skill.shown(rating.mu, rating.sigma)}<" in page
    assert f"± {skill.shown_sigma(rating.sigma)}" in page
    assert "After 5 rated matches" in page
    # The chart: 6 points (the newcomer's start and one after each match), plain numbers.
    points = re.search(r'<polyline[^>]*points="([^"]+)"', page).group(1).split()
    assert len(points) == 6
    assert all(re.fullmatch(r"[0-9.]+,[0-9.]+", p) for p in points)
    assert "secret@example.org" not in page


def test_a_person_page_in_spanish_keeps_the_chart_numbers_unlocalized(client, rated):
    person = Rating.objects.first().person
    page = client.get(
        reverse("tournaments:person", args=[person.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    points = re.search(r'<polyline[^>]*points="([^"]+)"', page).group(1)
    assert "," in points and not re.search(r"\d,\d+,", points)
    assert re.search(r'viewBox="0 0 320 180"', page)


def test_a_person_without_rating_shows_none(client, db):
    team = TeamFactory()
    person = Membership.objects.filter(team=team).first().player.person
    page = client.get(reverse("tournaments:person", args=[person.pk])).content.decode()
    assert "Rating in" not in page


def test_the_leaderboard_lists_those_with_enough_matches_best_first(
    client, rated, django_assert_max_num_queries
):
    url = reverse("tournaments:ratings", args=["argentine"])
    with django_assert_max_num_queries(3):
        page = client.get(url).content.decode()
    ratings = list(Rating.objects.order_by("-ordinal", "-matches", "person_id"))
    assert len(ratings) == 12
    shown = [int(v) for v in re.findall(r"<strong>(\d+)</strong>", page)]
    assert shown == [skill.shown(r.mu, r.sigma) for r in ratings]
    assert shown == sorted(shown, reverse=True)
    first = ratings[0].person
    assert reverse("tournaments:person", args=[first.pk]) in page


def test_the_leaderboard_leaves_out_those_with_few_matches(client, rated):
    Rating.objects.filter(pk=Rating.objects.order_by("-ordinal").first().pk).update(matches=4)
    page = client.get(reverse("tournaments:ratings", args=["argentine"])).content.decode()
    assert len(re.findall(r"<strong>(\d+)</strong>", page)) == 11
    empty = client.get(reverse("tournaments:ratings", args=["catalan"])).content.decode()
    assert "Nobody has played enough rated matches yet." in empty
    assert client.get("/ratings/gallo/").status_code == 404


def test_the_leaderboard_shows_only_public_names(client, rated):
    rating = Rating.objects.order_by("-ordinal").first()
    Person.objects.filter(pk=rating.person_id).update(
        name="Ana Rodríguez", initial_only=True, phone="+34 600 000 000"
    )
    page = client.get(reverse("tournaments:ratings", args=["argentine"])).content.decode()
    assert "Ana R." in page
    assert "Rodríguez" not in page and "600 000" not in page


def test_the_organiser_seeds_his_teams_by_rating(client, rated):
    best = Rating.objects.order_by("-ordinal").first().person
    organiser = UserFactory()
    cup = ChampionshipFactory(status=Championship.Status.REGISTRATION)
    cup.organisers.add(organiser)
    first = TeamFactory(championship=cup, name="Primero", seed=1)
    second = TeamFactory(championship=cup, name="Segundo", seed=2)
    Membership.objects.filter(team=second).first().player.__class__.objects.filter(
        pk=Membership.objects.filter(team=second).first().player_id
    ).update(person=best)
    client.force_login(organiser)
    url = reverse("organiser:teams_seed_by_rating", args=[cup.slug])
    response = client.post(url)
    assert response.status_code == 302
    second.refresh_from_db()
    first.refresh_from_db()
    assert (second.seed, first.seed) == (1, 2)
    # Someone else may not.
    client.force_login(UserFactory())
    assert client.post(url).status_code in (403, 404)


def test_the_api_gives_a_persons_ratings_and_the_leaderboard(rated):
    rating = Rating.objects.order_by("-ordinal").first()
    body = client_for().get(f"/api/v1/persons/{rating.person_id}/ratings/").json()
    (argentine,) = body["ratings"]
    assert argentine["family"] == "argentine"
    assert argentine["rating"] == skill.shown(rating.mu, rating.sigma)
    assert argentine["mu"] == rating.mu and argentine["matches"] == 5
    assert [p["number"] for p in argentine["history"]] == [1, 2, 3, 4, 5]
    assert argentine["history"][-1]["mu"] == rating.mu
    board = client_for().get("/api/v1/ratings/argentine/").json()
    assert board["count"] == 12
    assert board["results"][0]["person"] == rating.person_id
    assert board["results"][0]["rank"] == 1
    assert "email" not in str(board) and "licence" not in str(board)
    assert client_for().get("/api/v1/ratings/gallo/").status_code == 404
    assert client_for().get("/api/v1/persons/999999/ratings/").status_code == 404


def test_the_rating_chart_has_its_axes_values_and_names_in_the_readers_language(client, rated):
    person = Rating.objects.order_by("-ordinal").first().person
    page = client.get(
        reverse("tournaments:person", args=[person.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    svg = page[page.index('<svg class="chart chart--rating"') : page.index("</svg>")]

    def marked(anchor):
        pattern = rf'<text class="chart__value"[^>]*text-anchor="{anchor}"[^>]*>(\d+)</text>'
        return [int(v) for v in re.findall(pattern, svg)]

    # The matches' numbers below: 0 (the start) to the fifth, the last.
    assert marked("middle") == [0, 1, 2, 3, 4, 5]
    # Round ratings on the left, around every rating he had.
    ratings = marked("end")
    assert len(ratings) >= 2 and all(v % 10 == 0 for v in ratings)
    history = [1000] + [
        skill.shown(mu, sigma)
        for mu, sigma in person.rating_changes.order_by("number").values_list(
            "mu_after", "sigma_after"
        )
    ]
    step = ratings[1] - ratings[0]
    assert ratings[0] - step < min(history) and max(history) < ratings[-1] + step
    assert ">Partidos puntuados<" in svg and ">Rating<" in svg
    # Text is never stretched: the chart keeps its proportions.
    assert 'preserveAspectRatio="none"' not in svg
