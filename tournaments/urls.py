"""Public URLs of the tournaments app."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
]
