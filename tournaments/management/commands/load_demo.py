"""Load a few demo championships so a fresh instance has something to show.

Idempotent: each championship is found by its slug and created only when missing.
A fuller demo (teams, matches, hands) will replace this command.
"""

import datetime

from django.core.management.base import BaseCommand
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.models import Championship

Status = Championship.Status

# (slug, name, venue, status, start offset in days, length in days): dates follow today.
DEMO_CHAMPIONSHIPS = [
    ("abierto-de-truco", "Abierto de Truco de Gràcia", "Club Social de Gràcia",
     Status.RUNNING, -2, 5),
    ("torneig-truc-casal", "Torneig de Truc del Casal", "Casal de Sant Andreu",
     Status.REGISTRATION, 20, 1),
    ("copa-trucardo", "Copa Trucardo", "Peña El Ancho de Espadas",
     Status.FINISHED, -40, 2),
    ("liga-de-invierno", "Liga de Invierno (borrador)", "",
     Status.DRAFT, 90, None),
]  # fmt: skip


class Command(BaseCommand):
    help = _("Create the demo championships; running it again changes nothing.")

    def handle(self, *args: object, **options: object) -> None:
        today = timezone.localdate()
        created = 0
        for slug, name, venue, status, start, length in DEMO_CHAMPIONSHIPS:
            start_date = today + datetime.timedelta(days=start)
            end_date = None if length is None else start_date + datetime.timedelta(days=length)
            _championship, was_created = Championship.objects.get_or_create(
                slug=slug,
                defaults={
                    "name": name,
                    "venue": venue,
                    "status": status,
                    "start_date": start_date,
                    "end_date": end_date,
                },
            )
            created += was_created
        self.stdout.write(
            ngettext(
                "%(count)d demo championship created.",
                "%(count)d demo championships created.",
                created,
            )
            % {"count": created}
        )
