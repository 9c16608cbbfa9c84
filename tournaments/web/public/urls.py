"""The public's URLs: the home page, the championships' pages, people and teams, the
fixtures and their feeds, statistics, circuits and the ratings."""

from django.urls import path

from tournaments.web.public import (
    calendar_feeds,
    circuits,
    fixtures,
    matches,
    people,
    ratings,
    statistics,
)
from tournaments.web.public import championships as public

urlpatterns = [
    path("", public.home, name="home"),
    path("c/<slug:slug>/", public.championship, name="championship"),
    path("c/<slug:slug>/board/", public.board, name="board"),
    path(
        "c/<slug:slug>/stages/<int:stage_id>/standings/",
        public.standings,
        name="standings",
    ),
    path("c/<slug:slug>/stages/<int:stage_id>/bracket/", public.bracket, name="bracket"),
    path(
        "c/<slug:slug>/stages/<int:stage_id>/rounds/<int:number>/",
        public.round_matches,
        name="round",
    ),
    path("c/<slug:slug>/matches/<int:match_id>/", matches.match, name="match"),
    path("c/<slug:slug>/teams/<int:team_id>/", people.team, name="team"),
    path("c/<slug:slug>/schedule/", people.schedule, name="schedule"),
    path("c/<slug:slug>/fixtures/", fixtures.matchdays, name="fixtures"),
    path("c/<slug:slug>/fixtures/print/", fixtures.matchdays_print, name="fixtures_print"),
    path(
        "c/<slug:slug>/stages/<int:stage_id>/matchdays/<int:number>/",
        fixtures.matchday,
        name="matchday",
    ),
    path("c/<slug:slug>/fixtures.ics", calendar_feeds.championship_feed, name="fixtures_ics"),
    path(
        "c/<slug:slug>/teams/<int:team_id>/fixtures/", fixtures.team_fixtures, name="team_fixtures"
    ),
    path(
        "c/<slug:slug>/teams/<int:team_id>/fixtures/print/",
        fixtures.team_fixtures_print,
        name="team_fixtures_print",
    ),
    path(
        "c/<slug:slug>/teams/<int:team_id>/fixtures.ics",
        calendar_feeds.team_feed,
        name="team_fixtures_ics",
    ),
    path(
        "c/<slug:slug>/statistics/",
        statistics.championship_statistics,
        name="statistics",
    ),
    path("c/<slug:slug>/statistics.csv", statistics.statistics_csv, name="statistics_csv"),
    path("circuits/", circuits.circuit_list, name="circuits"),
    path("circuits/<slug:slug>/", circuits.circuit, name="circuit"),
    path("circuits/<slug:slug>/ranking.csv", circuits.ranking_csv, name="circuit_csv"),
    path("people/<int:person_id>/", people.person, name="person"),
    path("ratings/<slug:family>/", ratings.leaderboard, name="ratings"),
]
