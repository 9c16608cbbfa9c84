"""API routes, mounted at ``/api/``: the schema, its docs and version 1 (docs/api.md)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api import pages
from api.views import (
    archive,
    auth,
    championships,
    circuits,
    drafts,
    entries,
    fixtures,
    hands,
    matches,
    notices,
    persons,
    ratings,
    referees,
    results,
    root,
    stages,
    statistics,
    teams,
)

app_name = "api"

CHAMPIONSHIP = "championships/<slug:slug>/"
STAGE = CHAMPIONSHIP + "stages/<int:stage_id>/"
MATCH = "matches/<int:match_id>/"
ENTRY = "entries/<int:entry_id>/"

v1 = [
    path("", root.Root.as_view(), name="root"),
    path("auth/token/", auth.TokenView.as_view(), name="token"),
    path("championships/", championships.ChampionshipList.as_view(), name="championships"),
    path(CHAMPIONSHIP, championships.ChampionshipDetail.as_view(), name="championship"),
    path(CHAMPIONSHIP + "archive/", archive.Archive.as_view(), name="archive"),
    path(CHAMPIONSHIP + "status/", championships.ChampionshipStatus.as_view(), name="status"),
    path(
        CHAMPIONSHIP + "scorekeeping/",
        championships.ChampionshipScorekeeping.as_view(),
        name="scorekeeping",
    ),
    path(CHAMPIONSHIP + "teams/", teams.TeamList.as_view(), name="teams"),
    path(CHAMPIONSHIP + "teams/import/", teams.TeamImport.as_view(), name="teams-import"),
    path(CHAMPIONSHIP + "teams/<int:team_id>/", teams.TeamDetail.as_view(), name="team"),
    path(
        CHAMPIONSHIP + "teams/<int:team_id>/statistics/",
        statistics.TeamStatistics.as_view(),
        name="team-statistics",
    ),
    path(
        CHAMPIONSHIP + "statistics/",
        statistics.ChampionshipStatistics.as_view(),
        name="statistics",
    ),
    path(CHAMPIONSHIP + "entries/", entries.EntryList.as_view(), name="entries"),
    path(ENTRY + "accept/", entries.EntryAccept.as_view(), name="entry-accept"),
    path(ENTRY + "refuse/", entries.EntryRefuse.as_view(), name="entry-refuse"),
    path(ENTRY + "withdraw/", entries.EntryWithdraw.as_view(), name="entry-withdraw"),
    path(ENTRY + "paid/", entries.EntryPaid.as_view(), name="entry-paid"),
    path(ENTRY + "refunded/", entries.EntryRefunded.as_view(), name="entry-refunded"),
    path(CHAMPIONSHIP + "referees/", referees.RefereeList.as_view(), name="referees"),
    path(
        CHAMPIONSHIP + "referees/<str:username>/",
        referees.RefereeDetail.as_view(),
        name="referee",
    ),
    path(CHAMPIONSHIP + "stages/", stages.StageList.as_view(), name="stages"),
    path(STAGE, stages.StageDetail.as_view(), name="stage"),
    path(STAGE + "scorekeeping/", stages.StageScorekeeping.as_view(), name="stage-scorekeeping"),
    path(STAGE + "rounds/", stages.RoundList.as_view(), name="rounds"),
    path(STAGE + "rounds/<int:number>/call/", notices.RoundCall.as_view(), name="round-call"),
    path(STAGE + "standings/", stages.Standings.as_view(), name="standings"),
    path(STAGE + "bracket/", stages.Bracket.as_view(), name="bracket"),
    path(CHAMPIONSHIP + "notices/", notices.NoticeList.as_view(), name="notices"),
    path(CHAMPIONSHIP + "messages/", notices.Messages.as_view(), name="messages"),
    path(CHAMPIONSHIP + "matches/", matches.MatchList.as_view(), name="matches"),
    path(CHAMPIONSHIP + "fixtures/", fixtures.FixtureList.as_view(), name="fixtures"),
    path(MATCH + "postpone/", fixtures.MatchPostpone.as_view(), name="postpone"),
    path(MATCH, matches.MatchDetail.as_view(), name="match"),
    path(MATCH + "seats/", matches.MatchSeats.as_view(), name="seats"),
    path(MATCH + "walkover/", matches.MatchWalkover.as_view(), name="walkover"),
    path(MATCH + "result/", results.MatchResult.as_view(), name="result"),
    path(MATCH + "confirm/", results.MatchConfirm.as_view(), name="confirm"),
    path(MATCH + "dispute/", results.MatchDispute.as_view(), name="dispute"),
    path(MATCH + "recording/", results.MatchRecording.as_view(), name="recording"),
    path(MATCH + "hands/", hands.HandList.as_view(), name="hands"),
    path(MATCH + "hands/last/", hands.HandLast.as_view(), name="hand-last"),
    path(MATCH + "draft/", drafts.Draft.as_view(), name="draft"),
    path("players/<int:player_id>/", teams.PlayerDetail.as_view(), name="player"),
    path("persons/", persons.PersonList.as_view(), name="persons"),
    path("persons/<int:person_id>/", persons.PersonDetail.as_view(), name="person"),
    path("persons/merge/", persons.PersonMerge.as_view(), name="person-merge"),
    path("persons/merge/agree/", persons.PersonMergeAgree.as_view(), name="person-merge-agree"),
    path(
        "persons/<int:person_id>/statistics/",
        statistics.PersonStatistics.as_view(),
        name="person-statistics",
    ),
    path(
        "persons/<int:person_id>/ratings/",
        ratings.PersonRatings.as_view(),
        name="person-ratings",
    ),
    path("circuits/", circuits.CircuitList.as_view(), name="circuits"),
    path("circuits/<slug:slug>/", circuits.CircuitDetail.as_view(), name="circuit"),
    path(
        "circuits/<slug:slug>/ranking/",
        circuits.CircuitRanking.as_view(),
        name="circuit-ranking",
    ),
    path("ratings/<str:family>/", ratings.Leaderboard.as_view(), name="ratings"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its settings as a script file, and the page's style is a static
    # file (templates/api/swagger_ui.html): nothing inline for the CSP to block.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api:schema", template_name="api/swagger_ui.html"
        ),
        name="docs",
    ),
    path("token/", pages.token_page, name="token-page"),
]
