"""The tournaments app: championships, and later their teams, stages, rounds and standings."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Championships")

    def ready(self) -> None:
        # What a write announces reaches the page cache and the live pages.
        from tournaments import signals
        from tournaments.web import live

        signals.changed.connect(live.on_changed, dispatch_uid="tournaments.web.live")
