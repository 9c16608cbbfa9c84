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

# The offline-first tablet (referees.tablet): its engine, worker, service worker, manifest.
urlpatterns += [
    path("engine/<str:digest>.zip", views.engine, name="engine"),
    path("worker.js", views.worker, name="worker"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
