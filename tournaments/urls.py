"""Public URLs of the tournaments app: the home page and the championship pages."""

from django.urls import path

from tournaments import views, views_public

app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views_public.championship, name="championship"),
    path(
        "c/<slug:slug>/stages/<int:stage_id>/standings/",
        views_public.standings,
        name="standings",
    ),
    path("c/<slug:slug>/stages/<int:stage_id>/bracket/", views_public.bracket, name="bracket"),
    path(
        "c/<slug:slug>/stages/<int:stage_id>/rounds/<int:number>/",
        views_public.round_matches,
        name="round",
    ),
    path("c/<slug:slug>/matches/<int:match_id>/", views_public.match, name="match"),
]
