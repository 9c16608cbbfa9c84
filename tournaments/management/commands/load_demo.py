"""``manage.py load_demo``: demo championships partly played with real hand records.

An Argentine pairs championship (groups then knockout) and a Catalan squads one (Swiss),
plus a draft; see ``tournaments.demo``. Idempotent: running it again changes nothing.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.demo import load_demo
from tournaments.management.commands._common import TanteoCommand


class Command(TanteoCommand):
    help = gettext_lazy("Create the demo championships; running it again changes nothing.")

    def handle(self, *args: object, **options: object) -> None:
        # One line per championship, whatever the verbosity of the tasks it queues.
        for name, created in load_demo():
            line = _("Created: %(name)s") if created else _("Already there: %(name)s")
            self.stdout.write(line % {"name": name})
