"""``manage.py load_demo``: demo championships partly played with real hand records.

An Argentine pairs championship (groups then knockout) and a Catalan squads one (Swiss),
plus a draft; see ``tournaments.demo``. Idempotent: running it again changes nothing.
"""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.demo import load_demo


class Command(BaseCommand):
    help = _("Create the demo championships; running it again changes nothing.")

    def handle(self, *args: object, **options: object) -> None:
        created = load_demo()
        self.stdout.write(
            ngettext(
                "%(count)d demo championship created.",
                "%(count)d demo championships created.",
                created,
            )
            % {"count": created}
        )
