"""Organiser URLs (under ``/organiser/``): every page needs a login and its championship."""

from django.urls import path

from tournaments.web import organiser as views

app_name = "organiser"

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
]
