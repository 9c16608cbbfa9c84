"""Demo data for ``make demo``: championships partly played with real hand records, and
one taking entries.

- *Abierto de Truco de Gràcia* (``abierto.py``): Argentine truco, 16 pairs, four groups
  of four then a knockout of eight; the groups are played, two quarter-finals too.
- *Torneig de Truc del Casal* (``casal.py``): Catalan truc, 8 squads of three with their
  caps de colla, a Swiss of five rounds; two rounds played and half of the third. Three
  of its players also played the Abierto: the same people, whose pages show both
  championships.
- *Liga de Clubes de Truco* (``league.py``): six Buenos Aires clubs in a home-and-away
  league, a matchday a week at the clubs' venues; matchdays 1 and 2 played, matchday 3
  partly, one of its matches postponed.
- *Circuit Obert de Truc de Mallorca* (``circuit.py``): Catalan truc in pairs, three
  qualifiers (Inca and Manacor finished, Felanitx in play) and a final in Palma whose
  qualified pairs were entered by the circuit's automatic entry; some pairs played two
  qualifiers, so the ranking's best two results matter.
- *Open de Truco de Primavera* (``primavera.py``): entries open to the players (8 places,
  a fee of 10 €): eight teams entered (five accepted, some paid), two on the waiting list.
- *Gallo de los Jueves* (``gallo.py``): nine players at tables of three, gallo por turno.
- *Relámpago de Otoño* (``otono.py``) and *Torneig Llampec de Tardor* (``tardor.py``):
  finished weeks ago, one chico a match, a Swiss of three rounds each, by the Abierto's
  people and the Casal's (``past.py``): with them, those people have the five rated
  matches the leaderboards ask (``/ratings/argentine/``, ``/ratings/catalan/``).
- *Torneo Sin Árbitros de Sants* (``sin_arbitros.py``): sixteen pairs and no referee, the
  results typed at the desk, reported and confirmed by the teams, one disputed, one match
  kept on a player's phone.
- *Liga de Invierno* (``invierno.py``): a draft.

One module per championship, each with its ``build``; this module composes them
(:func:`load_demo`). Every hand is played by a seeded random walk over the engine's legal actions
(``table.py``), cards dealt and played one by one, and the matches are
recorded through the services, so the engine scores every record. Idempotent: a
championship whose slug exists is left alone.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Collection

from django.db import transaction
from django.utils import timezone

from tournaments import tasks
from tournaments.demo import (
    abierto,
    casal,
    circuit,
    gallo,
    invierno,
    league,
    otono,
    primavera,
    sin_arbitros,
    tardor,
)
from tournaments.demo.table import play_hand, play_match_hands, referees
from tournaments.models import Championship
from tournaments.notices.services import notices_muted
from tournaments.standings import services as standing_services

__all__ = ["load_demo", "play_hand", "play_match_hands"]


def load_demo(
    *, today: datetime.date | None = None, only: Collection[str] | None = None
) -> list[tuple[str, bool]]:
    """Create the demo championships that are missing (of ``only``, their slugs, where
    given: a test that reads one championship builds it alone, in a fraction of the time;
    a championship that enters another's people is built after it either way).

    Returns each demo championship's name and whether this call created it.
    """
    today = today or timezone.localdate()
    outcome = []
    builders = {
        abierto.SLUG: abierto.build,
        casal.SLUG: casal.build,
        primavera.SLUG: primavera.build,
        league.SLUG: functools.partial(league.build, play=play_match_hands),
        circuit.FINAL_SLUG: functools.partial(circuit.build, play=play_match_hands),
        gallo.SLUG: gallo.build,
        sin_arbitros.SLUG: sin_arbitros.build,
        # After the Abierto and the Casal, whose people they enter again.
        otono.SLUG: otono.build,
        tardor.SLUG: tardor.build,
    }
    # The demo's matches are rated once, at the end (tasks.ratings_deferred); its teams,
    # with made-up addresses, are told nothing.
    with tasks.ratings_deferred(), notices_muted():
        for slug, build in builders.items():
            if only is not None and slug not in only:
                continue
            # A demo of several championships (the circuit) is known by one of them, and
            # names each of them, one line each.
            existing = (
                circuit.championships()
                if slug == circuit.FINAL_SLUG
                else list(Championship.objects.filter(slug=slug))
            )
            if existing:
                outcome += [(championship.name, False) for championship in existing]
                continue
            with transaction.atomic():
                built = build(today, referees())
            for championship in built if isinstance(built, list) else [built]:
                for stage in championship.stages.select_related("championship"):
                    standing_services.standings_refresh(stage=stage)
                outcome.append((championship.name, True))
        if only is None or invierno.SLUG in only:
            outcome.append(invierno.build(today))
    return outcome
