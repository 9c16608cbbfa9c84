"""Organiser URLs (under ``/organiser/``): every page needs a login and its championship."""

from django.urls import path

from tournaments.web.organiser import championships as views
from tournaments.web.organiser import (
    circuits,
    day,
    desk,
    entries,
    league,
    links,
    notices,
    people,
    printing,
    ratings,
    results,
    scorekeeping,
    stages,
)

app_name = "organiser"

_match = "<slug:slug>/matches/<int:match_id>"
_round = "<slug:slug>/stages/<int:stage_id>/rounds/<int:number>"
results_urls = [
    path(f"{_match}/results/", results.match_results, name="match_results"),
    path(f"{_match}/hands/<int:number>/correct/", results.hand_correct, name="hand_correct"),
    path(f"{_match}/hands/<int:number>/remove/", results.hand_remove, name="hand_remove"),
    path(f"{_match}/confirm/", results.match_confirm, name="match_confirm"),
    path("<slug:slug>/disputes/", results.disputes, name="disputes"),
    path("<slug:slug>/audit/", results.audit, name="audit"),
    path("<slug:slug>/audit.csv", results.audit_csv, name="audit_csv"),
    path("<slug:slug>/audit-teams.csv", results.audit_teams_csv, name="audit_teams_csv"),
    path(f"{_round}/notices/", notices.round_notices, name="round_notices"),
    path("<slug:slug>/notices/", notices.championship_notices, name="notices"),
    path(f"{_round}/print/", printing.round_sheets, name="print_round"),
    path(f"{_round}/print.pdf", printing.round_sheets_pdf, name="print_round_pdf"),
    path(f"{_match}/scoresheet/", printing.scoresheet, name="print_scoresheet"),
    path(f"{_match}/scoresheet.pdf", printing.scoresheet_pdf, name="print_scoresheet_pdf"),
    path(
        "<slug:slug>/stages/<int:stage_id>/standings/print/",
        printing.standings,
        name="print_standings",
    ),
    path(
        "<slug:slug>/stages/<int:stage_id>/standings/print.pdf",
        printing.standings_pdf,
        name="print_standings_pdf",
    ),
]

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("new/", views.championship_create, name="championship_create"),
    # Before the <slug>/ pages: these two segments are not a championship's.
    path("invitation/<str:token>/", day.invitation_accept, name="invitation"),
    path("check-in/<str:token>/", day.check_in_scan, name="check_in_scan"),
    # The circuits he manages: championships grouped into one ranking (issue 23).
    path("circuits/", circuits.circuits, name="circuits"),
    path("circuits/new/", circuits.circuit_create, name="circuit_create"),
    path("circuits/<slug:circuit>/", circuits.circuit_detail, name="circuit"),
    path("circuits/<slug:circuit>/edit/", circuits.circuit_edit, name="circuit_edit"),
    path(
        "circuits/<slug:circuit>/events/<int:event_id>/",
        circuits.event_detail,
        name="circuit_event",
    ),
    path(
        "circuits/<slug:circuit>/events/<int:event_id>/remove/",
        circuits.event_remove,
        name="circuit_event_remove",
    ),
    path(
        "circuits/<slug:circuit>/events/<int:event_id>/teams/<int:team_id>/move/",
        circuits.team_move,
        name="circuit_team_move",
    ),
    # The people of every championship the user manages: one page across them.
    path("people/", people.people, name="people"),
    path("people/merge/", people.person_merge, name="person_merge"),
    path("people/merge/agree/", people.person_merge_agree, name="person_merge_agree"),
    path("people/merge/decline/", people.person_merge_decline, name="person_merge_decline"),
    path("people/<int:person_id>/", people.person_edit, name="person_edit"),
    path("<slug:slug>/", views.championship_overview, name="championship"),
    path("<slug:slug>/details/", views.championship_details, name="championship_details"),
    path("<slug:slug>/status/", views.championship_status, name="championship_status"),
    path("<slug:slug>/teams/", views.teams, name="teams"),
    path("<slug:slug>/teams/import/", views.teams_import, name="teams_import"),
    path(
        "<slug:slug>/teams/seed-by-rating/",
        ratings.teams_seed_by_rating,
        name="teams_seed_by_rating",
    ),
    path("<slug:slug>/teams/<int:team_id>/remove/", views.team_remove, name="team_remove"),
    path("<slug:slug>/teams/<int:team_id>/", day.team_edit, name="team_edit"),
    path(
        "<slug:slug>/teams/<int:team_id>/substitute/",
        day.team_substitute,
        name="team_substitute",
    ),
    path("<slug:slug>/teams/qr/", day.team_qr_codes, name="team_qr"),
    path(
        "<slug:slug>/teams/<int:team_id>/link/",
        links.team_link_shown,
        name="team_link",
    ),
    path(
        "<slug:slug>/teams/<int:team_id>/link/issue/",
        links.team_link_issue,
        name="team_link_issue",
    ),
    path(
        "<slug:slug>/teams/<int:team_id>/link/revoke/",
        links.team_link_revoke,
        name="team_link_revoke",
    ),
    path("<slug:slug>/self-check-in/", links.self_check_in, name="self_check_in"),
    path(
        "<slug:slug>/teams/template-<str:language>.csv",
        day.teams_template,
        name="teams_template",
    ),
    path("<slug:slug>/entries/", entries.entries, name="entries"),
    path("<slug:slug>/entries/poster/", entries.poster, name="entries_poster"),
    path("<slug:slug>/entries/poster.pdf", entries.poster_pdf, name="entries_poster_pdf"),
    path(
        "<slug:slug>/entries/<int:entry_id>/<str:act>/",
        entries.entry_act,
        name="entry_act",
    ),
    path("<slug:slug>/referees/", day.referees, name="referees"),
    path(
        "<slug:slug>/referees/<int:user_id>/remove/",
        day.referee_remove,
        name="referee_remove",
    ),
    path(
        "<slug:slug>/invitations/<int:invitation_id>/renew/",
        day.invitation_renew,
        name="invitation_renew",
    ),
    path(
        "<slug:slug>/invitations/<int:invitation_id>/revoke/",
        day.invitation_revoke,
        name="invitation_revoke",
    ),
    path("<slug:slug>/stages/new/", stages.stage_create, name="stage_create"),
    path("<slug:slug>/stages/<int:stage_id>/", stages.stage_detail, name="stage"),
    path(
        "<slug:slug>/stages/<int:stage_id>/generate/",
        stages.round_generate,
        name="round_generate",
    ),
    path("<slug:slug>/stages/<int:stage_id>/check-in/", day.check_in, name="check_in"),
    path(
        "<slug:slug>/stages/<int:stage_id>/rounds/<int:number>/remove/",
        day.round_remove,
        name="round_remove",
    ),
    path(
        "<slug:slug>/stages/<int:stage_id>/rounds/<int:number>/assign/",
        stages.round_assign,
        name="round_assign",
    ),
    path(
        "<slug:slug>/stages/<int:stage_id>/matchdays/",
        league.matchdays,
        name="league_matchdays",
    ),
    path(
        "<slug:slug>/stages/<int:stage_id>/matchdays/<int:number>/date/",
        league.matchday_date,
        name="league_matchday_date",
    ),
    path(
        "<slug:slug>/stages/<int:stage_id>/matchdays/<int:number>/matches/",
        league.matchday_matches,
        name="league_matchday_matches",
    ),
    path(f"{_match}/schedule/", league.match_schedule, name="league_match_schedule"),
    path(f"{_match}/postpone/", league.match_postpone, name="league_match_postpone"),
    path("<slug:slug>/matches/<int:match_id>/walkover/", stages.match_walkover, name="walkover"),
    path("<slug:slug>/scorekeeping/", scorekeeping.championship_scorekeeping, name="scorekeeping"),
    path(
        "<slug:slug>/stages/<int:stage_id>/scorekeeping/",
        scorekeeping.stage_scorekeeping,
        name="stage_scorekeeping",
    ),
    path(f"{_match}/result/", scorekeeping.match_result, name="match_result"),
    # The desk: a round's results typed as the paper sheets come back.
    path("<slug:slug>/desk/", desk.desk, name="desk"),
    path(f"{_round}/desk/", desk.round_desk, name="round_desk"),
    path(f"{_match}/desk-check/", desk.desk_check, name="desk_check"),
    path(f"{_match}/recording/", scorekeeping.match_recording, name="match_recording"),
    path("<slug:slug>/export/<str:kind>.csv", views.export_csv, name="export"),
    *results_urls,
]
