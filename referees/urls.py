"""Referee URLs (under ``/referee/``): my matches, the match sheet and hand entry, undo."""

from django.urls import path

from referees import views

app_name = "referees"

urlpatterns = [
    path("", views.my_matches, name="matches"),
    path("organised/", views.organised_matches, name="organised"),
    path("matches/<int:match_id>/", views.sheet, name="sheet"),
    path("matches/<int:match_id>/seats/", views.seats, name="seats"),
    path("matches/<int:match_id>/undo/", views.undo, name="undo"),
    path("matches/<int:match_id>/confirm/", views.confirm, name="confirm"),
    path(
        "matches/<int:match_id>/hands/<int:number>/correct/",
        views.hand_editor,
        name="hand_editor",
    ),
]

# The same sheet kept on a player's phone, through his team's personal link (views.team):
# under /referee/, the service worker's scope, so it reloads offline like the tablet's.
TEAM = "c/<slug:slug>/team/<str:token>/matches/<int:match_id>/"
urlpatterns += [
    path(TEAM, views.team_sheet, name="team_sheet"),
    path(TEAM + "seats/", views.team_seats, name="team_seats"),
    path(TEAM + "undo/", views.team_undo, name="team_undo"),
]

# The offline-first tablet (referees.tablet): its engine, worker, service worker, manifest.
urlpatterns += [
    path("engine/<str:digest>.zip", views.engine, name="engine"),
    path("worker.js", views.worker, name="worker"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
