"""The players' URLs: the entry form and a team's own page behind its personal link."""

from django.urls import path

from tournaments.web.players import entry, mails, team_link

urlpatterns = [
    path("c/<slug:slug>/enter/", entry.enter, name="enter"),
    path("c/<slug:slug>/team/<str:token>/", team_link.team_link, name="team_link"),
    path("mails/stop/<str:token>/", mails.stop, name="mails_stop"),
]
