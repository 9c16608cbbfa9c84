"""Demo data for ``make demo``: championships partly played with real hand records, and
one taking entries.

- *Abierto de Truco de Gràcia*: Argentine truco, 16 pairs, four groups of four then a
  knockout of eight; the groups are played, two quarter-finals too.
- *Torneig de Truc del Casal*: Catalan truc, 8 squads of three with their caps de colla,
  a Swiss of five rounds; two rounds played and half of the third. Three of its players
  also played the Abierto: the same people, whose pages show both championships.
- *Liga de Clubes de Truco* (``league.py``): six Buenos Aires clubs in a home-and-away
  league, a matchday a week at the clubs' venues; matchdays 1 and 2 played, matchday 3
  partly, one of its matches postponed.
- *Circuit Obert de Truc de Mallorca* (``circuit.py``): Catalan truc in pairs, three
  qualifiers (Inca and Manacor finished, Felanitx in play) and a final in Palma whose
  qualified pairs were entered by the circuit's automatic entry; some pairs played two
  qualifiers, so the ranking's best two results matter.
- *Open de Truco de Primavera*: entries open to the players (8 places, a fee of 10 €):
  eight teams entered (five accepted, some paid), two on the waiting list.

Every hand is played by a seeded random walk over the engine's legal actions
(``scoring.hand.legal_actions``), cards dealt and played one by one, and the matches are
recorded through the services, so the engine scores every record. Idempotent: a
championship whose slug exists is left alone.
"""

from __future__ import annotations

import datetime
import functools
import random
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import scoring
from scoring import Mazo, RuleSet, Trick, apply, is_finished, legal_actions, start_hand
from tournaments.championships import services as championship_services
from tournaments.demo import circuit, league
from tournaments.entries import services as entry_services
from tournaments.models import Championship, Match, Person, TeamAct
from tournaments.people.services import PersonDetails
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import services as standing_services

SEED = 2026
MAX_HANDS = 400

PAIRS = [
    "Los Anchos",
    "Las Sotas",
    "Siete Bravo",
    "Flor de Ceibo",
    "La Falta Envido",
    "Los Matungos",
    "Vale Cuatro",
    "Mate Amargo",
    "La Parda",
    "Retruco",
    "Las Bravas",
    "Los Tanteros",
    "El Mazo",
    "Quiero Vale",
    "La Ñata",
    "Caballo de Copas",
]
SQUADS = [
    "Colla del Casal",
    "Els Tres Reis",
    "La Manilla d'Oros",
    "Colla de Sant Andreu",
    "Els Trucaires",
    "Penya del Truc",
    "Colla de Gràcia",
    "Els de la Plaça",
]
SPANISH_FIRST = [
    "María",
    "José",
    "Ramón",
    "Begoña",
    "Lucía",
    "Javier",
    "Pilar",
    "Andrés",
    "Rocío",
    "Ignacio",
    "Mercedes",
    "Tomás",
    "Inés",
    "Rubén",
    "Nuria",
    "Gonzalo",
    "Amparo",
    "Julián",
    "Soledad",
    "Matías",
    "Graciela",
    "Facundo",
    "Agustina",
    "Néstor",
    "Mónica",
    "Sebastián",
    "Lorena",
    "Héctor",
    "Valeria",
    "Óscar",
    "Celia",
    "Ezequiel",
]
SPANISH_LAST = [
    "García",
    "Fernández",
    "López",
    "Martínez",
    "Núñez",
    "Peña",
    "Ibáñez",
    "Muñoz",
    "Castaño",
    "Gutiérrez",
    "Sánchez",
    "Rodríguez",
    "Pérez",
    "Gómez",
    "Díaz",
    "Álvarez",
    "Romero",
    "Suárez",
    "Domínguez",
    "Cabañas",
    "Aguirre",
    "Benítez",
]
CATALAN_FIRST = [
    "Jordi",
    "Montserrat",
    "Pere",
    "Núria",
    "Joan",
    "Mercè",
    "Xavier",
    "Roser",
    "Oriol",
    "Laia",
    "Arnau",
    "Queralt",
    "Pau",
    "Marta",
    "Biel",
    "Anna",
    "Enric",
    "Sílvia",
    "Martí",
    "Gemma",
    "Ferran",
    "Aina",
    "Jaume",
    "Carme",
]
CATALAN_LAST = [
    "Puig",
    "Vila",
    "Soler",
    "Ferrer",
    "Riera",
    "Casals",
    "Pujol",
    "Serra",
    "Bosch",
    "Camps",
    "Font",
    "Sala",
    "Roig",
    "Prat",
    "Torrent",
    "Vidal",
    "Mas",
    "Costa",
    "Planas",
    "Solà",
]


def _names(rng: random.Random, first: Sequence[str], last: Sequence[str], count: int) -> list:
    chosen: list[str] = []
    while len(chosen) < count:
        name = f"{rng.choice(first)} {rng.choice(last)}"
        if name not in chosen:
            chosen.append(name)
    return chosen


def _playable(action: Any) -> bool:
    # Referees at the demo tables enter every card: detailed records, no quick tricks.
    return not isinstance(action, Trick)


def play_hand(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """Deal and play one hand by random legal actions; ``record`` gives its context.

    Returns the hand entry (``cards`` and ``events``) of the match record.
    """
    rules = RuleSet.from_spec(record["rules"])
    deck = sorted(rules.deck, key=lambda c: (c.suit, c.rank))
    rng.shuffle(deck)
    order = record["order"]
    cards = {p: [str(c) for c in deck[3 * i : 3 * i + 3]] for i, p in enumerate(order)}
    hand = {**record, "cards": cards, "events": []}
    state = start_hand(hand, card_by_card=True)  # its record will have card plays
    for _ in range(120):
        if is_finished(state):
            break
        actions = [a for a in legal_actions(state) if _playable(a)]
        if not actions:
            break
        weights = [0.15 if isinstance(a, Mazo) else 1.0 for a in actions]
        action = rng.choices(actions, weights)[0]
        state = apply(state, action)
        hand["events"].append(action.to_event())
    return {"cards": cards, "events": hand["events"]}


def play_match_hands(rng: random.Random, match: Match, winner: str | None = None) -> list[dict]:
    """Every hand of a whole match, played at random until a side wins it.

    The engine says what each next hand is (its mano, order and score: the match's
    ``MatchResult.next``); the demo only deals and picks among the legal actions. With
    ``winner`` ("A" or "B"), the walk is replayed until that side wins, so the demo
    favourites mostly go through (the organiser's seeds mean something).
    """
    base = records.match_record(match, [])
    entries: list[dict] = []
    for _ in range(50):
        entries = []
        scored = scoring.score_match_result(base)
        while scored.next is not None and len(entries) < MAX_HANDS:
            # The demo's tables are redondo only (pairs, and Catalan squads of three).
            entries.append(play_hand(rng, dict(scored.next.record or {})))
            scored = scoring.score_match_result({**base, "hands": entries})
        if winner is None or scored.winner == winner:
            return entries
    return entries


def _referees() -> list:
    users = get_user_model()
    result = []
    for username in ("arbitro.demo", "arbitra.demo"):
        user, created = users.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
        result.append(user)
    return result


def _list_referees(championship: Championship, referees: list) -> None:
    """Put the demo referees on the championship's list: only there may they referee."""
    for user in referees:
        championship_services.referee_add(championship=championship, user=user, added_by=None)


def _assign(matches: Sequence[Match], referees: list, start: datetime.datetime) -> None:
    """Give each match its table, time and one of the demo referees: a demo referee given
    a password finds matches to record (those not played here)."""
    for table, match in enumerate(matches, start=1):
        if not match.is_bye:
            result_services.match_assign(
                match=match,
                table=str(table),
                scheduled_at=start + datetime.timedelta(minutes=30 * (table // 5)),
                referee=referees[table % len(referees)],
            )


def _play(rng: random.Random, matches: Sequence[Match], referees: list, start: datetime.datetime):
    _assign(matches, referees, start)
    for match in matches:
        if match.is_bye:
            continue
        match.refresh_from_db()
        referee = match.referee
        match = result_services.match_start(match=match)
        a, b = match.team_a.seed or 99, match.team_b.seed or 99
        # The better seed wins two times in three: upsets happen.
        favourite = "A" if a < b else "B"
        wanted = favourite if rng.random() < 0.67 else ("B" if favourite == "A" else "A")
        match = result_selectors.match_detail(pk=match.pk)
        hands = play_match_hands(rng, match, wanted)
        result_services.match_hands_import(match=match, records=hands, recorded_by=referee)


def _argentine(today: datetime.date, referees: list) -> Championship:
    rng = random.Random(f"{SEED}-abierto")
    championship = championship_services.championship_create(
        name="Abierto de Truco de Gràcia",
        slug="abierto-de-truco",
        start_date=today - datetime.timedelta(days=2),
        end_date=today + datetime.timedelta(days=3),
        venue="Club Social de Gràcia",
        preset="argentine",
        team_size=2,
    )
    _list_referees(championship, referees)
    players = _names(rng, SPANISH_FIRST, SPANISH_LAST, 32)
    for seed, name in enumerate(PAIRS, start=1):
        championship_services.team_create(
            championship=championship,
            name=name,
            seed=seed,
            club=rng.choice(["Gràcia", "Sants", "Rosario", "Córdoba", "Buenos Aires"]),
            players=players[2 * seed - 2 : 2 * seed],
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    # Named by its format, as most stages are: each reader sees that name in his language.
    stage = stage_services.stage_create(
        championship=championship,
        format="groups_knockout",
        settings={"group_count": 4, "advance": 2},
    )
    start = timezone.make_aware(
        datetime.datetime.combine(championship.start_date, datetime.time(17))
    )
    for number in range(3):
        created = stage_services.round_generate(stage=stage)
        _play(rng, created, referees, start + datetime.timedelta(hours=2 * number))
    quarters = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.bracket_id)
    _assign(quarters, referees, start + datetime.timedelta(days=1))
    _play(rng, quarters[:2], referees, start + datetime.timedelta(days=1))
    # The semi-final the two played quarter-finals made: a table and a referee too.
    waiting = stage.matches.filter(referee__isnull=True, team_b__isnull=False).exclude(
        status__in=Match.DECIDED
    )
    _assign(list(waiting.order_by("pk")), referees, start + datetime.timedelta(days=1, hours=2))
    return championship


def _catalan(today: datetime.date, referees: list) -> Championship:
    rng = random.Random(f"{SEED}-casal")
    championship = championship_services.championship_create(
        name="Torneig de Truc del Casal",
        slug="torneig-truc-casal",
        start_date=today - datetime.timedelta(days=1),
        end_date=today + datetime.timedelta(days=1),
        venue="Casal de Sant Andreu",
        preset="catalan",
        team_size=3,
        tiebreaks=["points", "buchholz", "median_buchholz", "chico_diff", "lots"],
    )
    _list_referees(championship, referees)
    players = _names(rng, CATALAN_FIRST, CATALAN_LAST, 24)
    details = [PersonDetails(name=name) for name in players]
    # Three people of the Abierto sit in three squads: one person, two championships.
    for index, person in zip((1, 5, 9), _regulars(), strict=False):
        players[index] = person.name
        details[index] = PersonDetails(name=person.name, person=person)
    for seed, name in enumerate(SQUADS, start=1):
        squad = players[3 * seed - 3 : 3 * seed]
        championship_services.team_create(
            championship=championship,
            name=name,
            seed=seed,
            club=rng.choice(["Sant Andreu", "Gràcia", "Sabadell", "Vic", "Manresa"]),
            players=details[3 * seed - 3 : 3 * seed],
            captain=rng.choice(squad),
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(
        championship=championship,
        format="swiss",
        settings={"rounds": 5},
    )
    start = timezone.make_aware(
        datetime.datetime.combine(championship.start_date, datetime.time(10))
    )
    for number in range(2):
        created = stage_services.round_generate(stage=stage)
        _play(rng, created, referees, start + datetime.timedelta(hours=2 * number))
    third = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.pk)
    _assign(third, referees, start + datetime.timedelta(hours=4))
    _play(rng, third[:2], referees, start + datetime.timedelta(hours=4))
    return championship


def _regulars() -> list[Person]:
    """Three people who played the Abierto, the first of its first three teams."""
    return [
        team.memberships.order_by("order").first().player.person
        for team in Championship.objects.get(slug="abierto-de-truco").teams.order_by("seed")[:3]
    ]


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


def _open_entries(today: datetime.date, referees: list) -> Championship:
    """Entries open: ten teams entered by their players for eight places."""
    rng = random.Random(f"{SEED}-primavera")
    championship = championship_services.championship_create(
        name="Open de Truco de Primavera",
        slug="open-de-primavera",
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
        fee_instructions="Bizum al 600 000 000 o en la barra del Ateneu, con el nombre del equipo.",
    )
    names = _names(rng, SPANISH_FIRST, SPANISH_LAST, 2 * len(OPEN_PAIRS))
    details = [PersonDetails(name=name) for name in names]
    # One pair of the Abierto enters again: its players' pages show the new entry.
    regular = _regulars()[0]
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
            entry_services.entry_set_paid(
                entry=entry, paid=True, by=None, via=TeamAct.Via.ORGANISER
            )
    return championship


DRAFT = {"slug": "liga-de-invierno", "name": "Liga de Invierno", "days": 90}


from tournaments.demo import gallo  # noqa: E402 (it uses the helpers above)


def load_demo(*, today: datetime.date | None = None) -> list[tuple[str, bool]]:
    """Create the demo championships that are missing.

    Returns each demo championship's name and whether this call created it.
    """
    today = today or timezone.localdate()
    outcome = []
    builders = {
        "abierto-de-truco": _argentine,
        "torneig-truc-casal": _catalan,
        "open-de-primavera": _open_entries,
        league.SLUG: functools.partial(league.build, play=play_match_hands),
        circuit.FINAL_SLUG: functools.partial(circuit.build, play=play_match_hands),
        gallo.SLUG: gallo.build,
    }
    for slug, build in builders.items():
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
            built = build(today, _referees())
        for championship in built if isinstance(built, list) else [built]:
            for stage in championship.stages.select_related("championship"):
                standing_services.standings_refresh(stage=stage)
            outcome.append((championship.name, True))
    existing = Championship.objects.filter(slug=DRAFT["slug"]).first()
    if existing is None:
        championship_services.championship_create(
            name=DRAFT["name"],
            slug=DRAFT["slug"],
            start_date=today + datetime.timedelta(days=DRAFT["days"]),
            venue="Peña El Ancho de Espadas",
            preset="argentine_flor",
        )
    outcome.append((DRAFT["name"], existing is None))
    return outcome
