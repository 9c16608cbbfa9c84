"""Organiser URLs (under ``/organiser/``): every page needs a login and its championship."""

from django.urls import path

from tournaments.web import organiser as views
from tournaments.web import printing, results

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
    path("<slug:slug>/", views.championship_overview, name="championship"),
    path("<slug:slug>/details/", views.championship_details, name="championship_details"),
    path("<slug:slug>/status/", views.championship_status, name="championship_status"),
    path("<slug:slug>/teams/", views.teams, name="teams"),
    path("<slug:slug>/teams/import/", views.teams_import, name="teams_import"),
    path("<slug:slug>/teams/<int:team_id>/remove/", views.team_remove, name="team_remove"),
    path("<slug:slug>/stages/new/", views.stage_create, name="stage_create"),
    path("<slug:slug>/stages/<int:stage_id>/", views.stage_detail, name="stage"),
    path(
        "<slug:slug>/stages/<int:stage_id>/generate/",
        views.round_generate,
        name="round_generate",
    ),
    path(
        "<slug:slug>/stages/<int:stage_id>/rounds/<int:number>/assign/",
        views.round_assign,
        name="round_assign",
    ),
    path("<slug:slug>/matches/<int:match_id>/walkover/", views.match_walkover, name="walkover"),
    path("<slug:slug>/export/<str:kind>.csv", views.export_csv, name="export"),
    *results_urls,
]
