"""The circuit demo: *Circuit Obert de Truc de Mallorca*, truc as the Catalan preset plays
it, pairs, three qualifiers in three towns and a final in Palma.

Inca and Manacor are finished (a knockout of eight pairs each, every hand played by the
package's random walk over the engine's legal actions: ``play``, given by
``tournaments.demo``, which imports this module: no import back); their first two pairs
are entered in the final by the circuit's automatic entry (one accepted by the
organiser, the others pending). Felanitx is in play: its quarter-finals half played.
Three pairs of Inca played Manacor too and one of them plays Felanitx: each player's best
two results count (``best_of`` 2), and a pair that wins twice qualifies once.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable, Sequence
from decimal import Decimal

from tournaments.championships import services as championship_services
from tournaments.circuits import qualification
from tournaments.entries import services as entry_services
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    Entry,
    Match,
    Person,
    RatingFamily,
    TeamAct,
)
from tournaments.people.services import PersonDetails
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import services as standing_services

SLUG = "circuit-obert-truc-mallorca"
FINAL_SLUG = "obert-truc-mallorca-final"
FIRST = [
    "Tomeu",
    "Xisca",
    "Biel",
    "Catalina",
    "Miquel",
    "Aina",
    "Llorenç",
    "Margalida",
    "Pep",
    "Antònia",
    "Jaume",
    "Francina",
    "Guillem",
    "Bàrbara",
    "Rafel",
    "Coloma",
    "Toni",
    "Magdalena",
]
LAST = [
    "Mas",
    "Vidal",
    "Ferrer",
    "Pons",
    "Oliver",
    "Bauzà",
    "Amengual",
    "Sastre",
    "Riera",
    "Florit",
    "Salvà",
    "Garau",
    "Cerdà",
    "Fiol",
    "Munar",
    "Rosselló",
    "Bestard",
    "Caldentey",
]
PAIRS = [
    "Es Trucadors",
    "Sa Manilla",
    "Ses Dues Sotes",
    "Es Cavall d'Oros",
    "Sa Tramuntana",
    "Es Pa amb Oli",
    "Ses Ensaïmades",
    "Es Gerrers",
    "Es Siurells",
    "Sa Calobra",
    "Es Dimonis",
    "Ses Sobrassades",
    "Es Fideus",
    "Es Llonguet",
    "Sa Gerreria",
    "Es Vermells",
    "Ses Salines",
    "Es Pla",
    "Sa Serra",
    "Es Raiguer",
]
# The pairs of each qualifier, by their index in PAIRS, in seed order: three of Inca's
# play Manacor, one of them Felanitx too (three results, the best two count), and one
# more of Inca's and one of Manacor's play Felanitx.
DRAW = {
    "Inca": [0, 1, 2, 3, 4, 5, 6, 7],
    "Manacor": [0, 8, 2, 9, 4, 10, 11, 12],
    "Felanitx": [0, 13, 8, 14, 1, 16, 17, 18],
}


def _people(rng: random.Random, count: int) -> list[str]:
    names: list[str] = []
    while len(names) < count:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in names:
            names.append(name)
    return names


def _play_one(rng: random.Random, match: Match, referee, play: Callable) -> None:
    result_services.match_assign(match=match, referee=referee)
    match = result_services.match_start(match=match)
    a, b = match.team_a.seed or 99, match.team_b.seed or 99
    favourite = "A" if a < b else "B"
    # The better seed wins two times in three.
    wanted = favourite if rng.random() < 0.67 else ("B" if favourite == "A" else "A")
    match = result_selectors.match_detail(pk=match.pk)
    hands = play(rng, match, wanted)
    result_services.match_hands_import(match=match, records=hands, recorded_by=referee)


def _qualifier(
    *,
    rng: random.Random,
    town: str,
    day: datetime.date,
    pairs: Sequence[tuple[str, list[PersonDetails]]],
    referees: list,
    play: Callable,
    matches: int | None,
) -> Championship:
    """A qualifier: a knockout of eight pairs, played through (or ``matches`` of it)."""
    championship = championship_services.championship_create(
        name=f"Obert de Truc de Mallorca — {town}",
        slug=f"obert-truc-mallorca-{town.lower()}",
        start_date=day,
        end_date=day,
        venue=town,
        preset="catalan",
        team_size=2,
    )
    for user in referees:
        championship_services.referee_add(championship=championship, user=user, added_by=None)
    for seed, (name, players) in enumerate(pairs, start=1):
        championship_services.team_create(
            championship=championship,
            name=name,
            seed=seed,
            club=town,
            players=players,
            captain=players[0].name,
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    stage_services.round_generate(stage=stage)
    played = 0
    while matches is None or played < matches:
        ready = [
            m
            for m in stage.matches.filter(status=Match.Status.SCHEDULED).order_by("pk")
            if not m.is_bye and m.team_b_id is not None
        ]
        if not ready:
            break
        for match in ready[: None if matches is None else matches - played]:
            _play_one(rng, match, referees[match.pk % len(referees)], play)
            played += 1
    # The matches still to play have a referee: a demo referee finds them on his list.
    for match in stage.matches.filter(status=Match.Status.SCHEDULED, referee__isnull=True):
        if match.team_b_id is not None and not match.is_bye:
            result_services.match_assign(match=match, referee=referees[match.pk % len(referees)])
    standing_services.standings_refresh(stage=stage)
    if matches is None:
        championship_services.championship_set_status(championship=championship, status="finished")
    return championship


def build(today: datetime.date, referees: list, *, play: Callable) -> Championship:
    """Create the circuit, its qualifiers (two finished, one in play) and its final;
    returns the final."""
    rng = random.Random(f"2026-{SLUG}")
    names = _people(rng, 2 * len(PAIRS))
    people: dict[int, list[PersonDetails]] = {}
    circuit = Circuit.objects.create(
        name="Circuit Obert de Truc de Mallorca",
        slug=SLUG,
        family=RatingFamily.CATALAN,
        start_date=today - datetime.timedelta(days=30),
        end_date=today + datetime.timedelta(days=25),
        description=(
            "Setze fases locals, una a cada poble; el guanyador de cada fase va directe "
            "a la final de Palma, i les millors parelles per punts també."
        ),
        best_of=2,
        qualify_per_event=2,
        qualify_by_points=2,
    )
    towns = [("Inca", 28, None), ("Manacor", 14, None), ("Felanitx", 0, 2)]
    events = []
    for town, days_ago, matches in towns:
        pairs = []
        for index in DRAW[town]:
            if index not in people:
                people[index] = [PersonDetails(name=n) for n in names[2 * index : 2 * index + 2]]
            pairs.append((PAIRS[index], people[index]))
        championship = _qualifier(
            rng=rng,
            town=town,
            day=today - datetime.timedelta(days=days_ago),
            pairs=pairs,
            referees=referees,
            play=play,
            matches=matches,
        )
        # The same people play every qualifier they enter: the next one finds them.
        for index in DRAW[town]:
            team = championship.teams.get(name=PAIRS[index])
            people[index] = [
                PersonDetails(name=m.player.name, person=m.player.person)
                for m in team.memberships.select_related("player__person").order_by("order")
            ]
        events.append(
            CircuitEvent.objects.create(
                circuit=circuit,
                championship=championship,
                kind=CircuitEvent.Kind.QUALIFIER,
                place=town,
                towns=[],
            )
        )
    final = championship_services.championship_create(
        name="Obert de Truc de Mallorca — Final",
        slug=FINAL_SLUG,
        start_date=today + datetime.timedelta(days=20),
        end_date=today + datetime.timedelta(days=20),
        venue="Palma",
        preset="catalan",
        team_size=2,
    )
    championship_services.championship_set_status(championship=final, status="registration")
    events.append(
        CircuitEvent.objects.create(
            circuit=circuit,
            championship=final,
            kind=CircuitEvent.Kind.FINAL,
            place="Palma",
            weight=Decimal(2),
        )
    )
    # What the announcements would queue after commit, done here so the demo is whole
    # at once (and running it again changes nothing).
    for event in events:
        qualification.circuit_event_refresh(event=event)
    first = Entry.objects.filter(championship=final).order_by("position").first()
    if first is not None:
        entry_services.entry_accept(entry=first, by=None, via=TeamAct.Via.ORGANISER)
    return final


def regulars(circuit: Circuit) -> list[Person]:
    """The people who played more than one of the circuit's events (for the tests)."""
    seen: dict[int, int] = {}
    for event in circuit.events.select_related("championship"):
        for pk in set(event.championship.teams.values_list("players__person_id", flat=True)):
            seen[pk] = seen.get(pk, 0) + 1
    return list(Person.objects.filter(pk__in=[pk for pk, n in seen.items() if n > 1]))
