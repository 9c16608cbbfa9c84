"""Build a championship day for the load benchmark and write what the locustfile needs.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/EMPTY_DB SECRET_KEY=... \\
        .venv/bin/python bench/load/setup.py --tables 200 --out bench/load/out/data.json

On a migrated, empty database: a running championship of ``2 x tables`` pairs (Argentine
truco), a Swiss stage and its first round (``tables`` matches), one referee user per match
(on the championship's list of referees), each match assigned to its table and referee and
started (players seated, the first hand ready to enter). Everything goes through the services,
as the demo does. Then one session per referee is created directly in the session store,
so the load users never log in (django-axes is not involved) and their cookies are
written to ``--out`` beside the ids of the public pages.

For the players (``locustfile.Player``): ``2 x report-tables`` pairs more play a Swiss stage
of their own where nobody keeps the score (``Stage.scorekeeping`` ``results``: one team
reports the result from its personal link, the other confirms it), its first round drawn
and seated at the tables after the referees'; an afternoon Swiss stage of every team, not
drawn yet, takes the check-in, whose window through the links is open for the whole day
(``championship_self_check_in``; the morning stages' round being played takes none until
it is over); every team has its personal link (``link_issue``: the tokens are written to
``--out`` for the locustfile, never printed), its players have names to search (each a
person with a public page), and the championship is an event of a circuit (its page).

The session's auth hash is signed with ``SECRET_KEY``: the web server must run with the
same key (``bench/load/run.py`` passes one to both).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
SLUG = "jornada-de-carga"
CIRCUIT = "circuito-de-carga"
# Names to search on the schedule: common ones, so that a search finds several tables.
# fmt: off
FIRST = (
    "Ana", "Carlos", "Elena", "Jordi", "Lucía", "Marta", "Miguel", "Núria", "Pablo", "Pere",
    "Rosa", "Sergio", "Laura", "Joan", "Martín", "Sofía", "Diego", "Montse", "Raúl", "Clara",
    "Andreu", "Julia", "Hugo", "Irene", "Xavier", "Valeria",
)
LAST = (
    "García", "Puig", "Fernández", "Vidal", "López", "Serra", "Martínez", "Soler", "Romero",
    "Font", "Pérez", "Ferrer", "Gómez", "Costa", "Díaz", "Roca", "Ruiz", "Pujol", "Sánchez",
    "Riera", "Álvarez", "Camps", "Torres", "Sala",
)
# fmt: on


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="matches (and referees)")
    parser.add_argument(
        "--report-tables",
        type=int,
        default=0,
        help="matches more where the teams report the result from their links",
    )
    parser.add_argument("--out", type=Path, required=True, help="JSON file for the locustfile")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from tournaments.championships import services as championship_services
    from tournaments.entries import acts as entry_acts
    from tournaments.models import Championship
    from tournaments.stages import services as stage_services

    if connection.vendor != "postgresql":
        sys.exit("setup.py: DATABASE_URL must name a PostgreSQL database.")
    if Championship.objects.exists():
        sys.exit("setup.py: the database must be empty (a freshly migrated one).")

    rng = random.Random(args.seed)
    today = timezone.localdate()
    organiser = get_user_model().objects.create(username="organizador")
    organiser.set_unusable_password()
    organiser.save(update_fields=["password"])
    championship = championship_services.championship_create(
        name="Jornada de carga",
        slug=SLUG,
        start_date=today,
        end_date=today + datetime.timedelta(days=1),
        venue="Pabellón del banco de pruebas",
        preset="argentine",
        team_size=2,
        organisers=[organiser],
    )
    count = 2 * (args.tables + args.report_tables)
    teams = [
        championship_services.NewTeam(
            name=f"Pareja {n:03d}",
            seed=n,
            club=rng.choice(["Gràcia", "Sants", "Rosario", "Córdoba"]),
            players=[f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _player in range(2)],
        )
        for n in range(1, count + 1)
    ]
    created = championship_services.teams_create_many(championship=championship, teams=teams)
    refereed, reporting = created[: 2 * args.tables], created[2 * args.tables :]
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(
        championship=championship,
        format="swiss",
        name="Suizo",
        settings={"rounds": 5},
        teams=refereed,
    )
    matches = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.pk)
    playable = [m for m in matches if not m.is_bye]
    if len(playable) != args.tables:
        sys.exit(f"setup.py: expected {args.tables} matches, the round has {len(playable)}.")
    start = timezone.now().replace(second=0, microsecond=0)
    referees = _referees(championship, playable, start)
    reported = _reporting_stage(championship, reporting, args.tables, start, rng)
    # The afternoon's stage, not drawn yet: the check-in through the links is for its round.
    stage_services.stage_create(
        championship=championship, format="swiss", name="Suizo de la tarde", settings={"rounds": 3}
    )
    links = _links(championship, reported, playable, organiser)
    _circuit(championship, organiser, today)
    # The window the teams check in through their links, open all day (from the start of
    # the measured window on: the players open their links as it begins).
    entry_acts.championship_self_check_in(
        championship=championship, until=timezone.now() + datetime.timedelta(hours=12)
    )

    data = {
        "slug": SLUG,
        "stage": stage.pk,
        "round": 1,
        "matches": [m.pk for m in playable],
        "bracket": None,  # a Swiss stage has none
        "referees": referees,
        "circuit": CIRCUIT,
        "report_matches": [m.pk for m, _result in reported],
        "teams": links,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1))
    print(
        f"setup: {len(teams)} teams with their links, {len(playable)} matches started, "
        f"{len(referees)} referees, {len(reported)} matches the teams report"
    )


def _referees(championship: Any, playable: list, start: datetime.datetime) -> list[dict]:
    """A referee user per match, on the championship's list, the match assigned to him and
    started; his session created in the session store (what ``login`` stores)."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from tournaments.championships import services as championship_services
    from tournaments.results import services as result_services

    users = get_user_model()
    referees = []
    for table, match in enumerate(playable, start=1):
        user = users.objects.create(username=f"arbitro.{table:03d}")
        user.set_unusable_password()
        user.save(update_fields=["password"])
        championship_services.referee_add(championship=championship, user=user, added_by=None)
        match = result_services.match_assign(
            match=match, table=str(table), scheduled_at=start, referee=user
        )
        result_services.match_start(match=match, by=user)
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.set_expiry(24 * 3600)
        session.create()
        referees.append(
            {"username": user.username, "match": match.pk, "sessionid": session.session_key}
        )
    return referees


def _reporting_stage(
    championship: Any, teams: list, first_table: int, start: datetime.datetime, rng: random.Random
) -> list[tuple[Any, dict[str, Any]]]:
    """The stage where the teams report their results (nobody keeps the score), its first
    round drawn and seated after the referees' tables: each match with the result its
    reporting team will send (the report form's fields), checked by the engine now."""
    from scoring.rules import RuleSet
    from tournaments.championships import services as championship_services
    from tournaments.championships.selectors import rules_spec
    from tournaments.results import services as result_services
    from tournaments.results.services.reported import result_check
    from tournaments.stages import services as stage_services

    if not teams:
        return []
    stage = stage_services.stage_create(
        championship=championship,
        format="swiss",
        name="Suizo sin árbitro",
        settings={"rounds": 5},
        teams=teams,
    )
    championship_services.stage_scorekeeping_set(stage=stage, scorekeeping="results")
    drawn = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.pk)
    reported = []
    for table, match in enumerate((m for m in drawn if not m.is_bye), start=first_table + 1):
        match = result_services.match_assign(match=match, table=str(table), scheduled_at=start)
        target = RuleSet.from_spec(rules_spec(championship, best_of=match.best_of)).target
        winner, loser = rng.choice([("A", "B"), ("B", "A")])
        games = [
            {"score": {winner: target, loser: rng.randrange(target)}}
            for _chico in range(match.best_of // 2 + 1)
        ]
        result_check(match=match, games=games, winner=winner)  # refused: the run stops here
        fields = {
            f"m{match.pk}-c{number}_{side}": str(points)
            for number, game in enumerate(games, start=1)
            for side, points in game["score"].items()
        }
        reported.append((match, {**fields, f"m{match.pk}-winner": winner}))
    return reported


def _circuit(championship: Any, organiser: Any, today: datetime.date) -> None:
    """The season's circuit, with the championship as one of its qualifiers."""
    from tournaments.circuits import services as circuit_services
    from tournaments.models import CircuitEvent

    circuit = circuit_services.circuit_create(
        name="Circuito de carga",
        slug=CIRCUIT,
        family="argentine",
        start_date=today - datetime.timedelta(days=200),
        end_date=today + datetime.timedelta(days=60),
        points=[100, 70, 50, 40, 30, 20, 10],
        best_of=None,
        qualify_per_event=0,
        qualify_by_points=0,
        description="Las jornadas de la temporada: el banco de pruebas.",
        by=organiser,
    )
    circuit_services.circuit_event_add(
        circuit=circuit,
        championship=championship,
        kind=CircuitEvent.Kind.QUALIFIER,
        place="Gràcia",
        by=organiser,
    )


def _links(championship: Any, reported: list, playable: list, organiser: Any) -> list[dict]:
    """Every team's personal link and what its phone needs: its match and side, whether it
    reports the result (side A where the teams report) and the form it sends, its players'
    names and people. The teams that report come first, then the referees' tables', each
    match's two teams side by side: fewer players than teams still play whole matches."""
    from tournaments.entries.services import link_issue
    from tournaments.models import Membership, TeamAct

    people: dict[int, list[tuple[str, int]]] = {}
    for team_id, name, person in (
        Membership.objects.filter(team__championship=championship)
        .order_by("team_id", "order")
        .values_list("team_id", "player__name", "player__person_id")
    ):
        people.setdefault(team_id, []).append((name, person))
    rows = []
    plan = [(m, result) for m, result in reported] + [(m, None) for m in playable]
    for match, result in plan:
        for side, team in (("A", match.team_a), ("B", match.team_b)):
            token = link_issue(team=team, via=TeamAct.Via.ORGANISER, by=organiser)
            rows.append(
                {
                    "team": team.pk,
                    "name": team.name,
                    "token": token,
                    "match": match.pk,
                    "side": side,
                    "reports": result is not None and side == "A",
                    "result": result if result is not None and side == "A" else None,
                    "opponent": (match.team_b if side == "A" else match.team_a).pk,
                    "names": [name for name, _person in people[team.pk]],
                    "people": [person for _name, person in people[team.pk]],
                }
            )
    return rows


if __name__ == "__main__":
    main()
