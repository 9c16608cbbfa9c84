"""The demo's *Open de Truco de Primavera*: entries open to the players (8 places, a fee of
10 €): ten teams entered by their players (five accepted, some paid); one of them withdrew
after paying (its fee to refund), so the first team waiting took its place and one waits
still."""

from __future__ import annotations

import datetime
import random
from decimal import Decimal

from django.utils import timezone

from tournaments.championships import services as championship_services
from tournaments.demo import abierto
from tournaments.demo.names import SPANISH_FIRST, SPANISH_LAST, draw_names
from tournaments.demo.table import SEED
from tournaments.entries import fees
from tournaments.entries import services as entry_services
from tournaments.models import Championship, TeamAct
from tournaments.people.services import PersonDetails

SLUG = "open-de-primavera"

OPEN_PAIRS = [
    "Los del Fondo",
    "Ancho y Siete",
    "La Mano Buena",
    "Sin Flor",
    "Los Primos",
    "Tres de Oro",
    "Las Pardas",
    "Envido Real",
    "El Último Tren",
    "Los Callados",
]


def build(today: datetime.date, referees: list) -> Championship:
    """Entries open: ten teams entered by their players for eight places."""
    rng = random.Random(f"{SEED}-primavera")
    championship = championship_services.championship_create(
        name="Open de Truco de Primavera",
        slug=SLUG,
        start_date=today + datetime.timedelta(days=20),
        venue="Ateneu Popular de Nou Barris",
        preset="argentine",
        team_size=2,
    )
    championship_services.championship_set_status(championship=championship, status="registration")
    entry_services.entry_policy_set(
        championship=championship,
        by=None,
        is_open=True,
        capacity=8,
        closes_at=timezone.now() + datetime.timedelta(days=14),
        asks=["club", "email"],
        fee=Decimal("10.00"),
        currency="EUR",
        fee_instructions="Bizum al 600 000 000 o en la barra del Ateneu, con el nombre del equipo.",
    )
    names = draw_names(rng, SPANISH_FIRST, SPANISH_LAST, 2 * len(OPEN_PAIRS))
    details = [PersonDetails(name=name) for name in names]
    # One pair of the Abierto enters again: its players' pages show the new entry.
    regular = abierto.regulars()[0]
    details[0] = PersonDetails(name=regular.name, person=regular)
    for number, name in enumerate(OPEN_PAIRS, start=1):
        entry, _token = entry_services.entry_submit(
            championship=championship,
            team_name=name,
            players=details[2 * number - 2 : 2 * number],
            club=rng.choice(["Nou Barris", "Gràcia", "Sants", "Badalona"]),
            email=f"equipo{number}@example.org",
            form_key=f"demo-{number}",
        )
        if number <= 5:
            entry_services.entry_accept(entry=entry, by=None, via=TeamAct.Via.ORGANISER)
        if number in (1, 2, 3, 5, 7):
            fees.entry_set_paid(entry=entry, paid=True, by=None, via=TeamAct.Via.ORGANISER)
        if number == 3:
            paid_and_gone = entry
    # It withdraws through its link: its fee is to refund, its place the first waiting's.
    entry_services.entry_withdraw(
        team=paid_and_gone.team,
        via=TeamAct.Via.LINK,
        reason="Nos coincide con una boda, lo sentimos.",
    )
    return championship
