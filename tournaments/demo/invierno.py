"""The demo's draft *Liga de Invierno*: a championship set up for three months from now,
nothing in it yet (what an organiser sees right after creating one)."""

from __future__ import annotations

import datetime

from tournaments.championships import services as championship_services
from tournaments.models import Championship

SLUG = "liga-de-invierno"
NAME = "Liga de Invierno"


def build(today: datetime.date) -> tuple[str, bool]:
    """Create the draft unless it exists: its name and whether this call created it."""
    if Championship.objects.filter(slug=SLUG).exists():
        return NAME, False
    championship_services.championship_create(
        name=NAME,
        slug=SLUG,
        start_date=today + datetime.timedelta(days=90),
        venue="Peña El Ancho de Espadas",
        preset="argentine_flor",
    )
    return NAME, True
