"""The tournaments app: championships, and later their teams, stages, rounds and standings."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Championships")

    def ready(self) -> None:
        # What a write announces reaches the page cache and the live pages.
        from django.core.signals import request_finished, request_started
        from django.db import close_old_connections

        from tournaments import signals
        from tournaments.live import announce

        signals.changed.connect(announce.on_changed, dispatch_uid="tournaments.live")
        # A circuit event's results reach its placements, the ranking and the final's
        # qualified teams (after the pages' receiver: the task announces again when done).
        from tournaments.circuits import tasks as circuit_tasks

        signals.changed.connect(circuit_tasks.on_changed, dispatch_uid="tournaments.circuits")
        # The players' notices' tasks, registered for the worker (not autodiscovered).
        from tournaments.notices import tasks as notice_tasks  # noqa: F401

        request_started.connect(announce.request_started, dispatch_uid="tournaments.live")
        # Before Django's own receiver, which closes the request's database connection:
        # the pages rendered again after the answer use it rather than open another.
        request_finished.disconnect(close_old_connections)
        request_finished.connect(announce.request_finished, dispatch_uid="tournaments.live")
        request_finished.connect(close_old_connections)
        # A page's championship, as its view reads it, gives the page its time zone.
        from django.db.models.signals import post_init

        from tournaments.championships import zones
        from tournaments.models import Championship

        post_init.connect(zones.settle, sender=Championship, dispatch_uid="tournaments.zones")
