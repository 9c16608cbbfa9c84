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

ROOT = Path(__file__).resolve().parent.parent.parent
SLUG = "jornada-de-carga"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="matches (and referees)")
    parser.add_argument("--out", type=Path, required=True, help="JSON file for the locustfile")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connection
    from django.utils import timezone

    from tournaments.championships import services as championship_services
    from tournaments.models import Championship
    from tournaments.results import services as result_services
    from tournaments.stages import services as stage_services

    if connection.vendor != "postgresql":
        sys.exit("setup.py: DATABASE_URL must name a PostgreSQL database.")
    if Championship.objects.exists():
        sys.exit("setup.py: the database must be empty (a freshly migrated one).")

    rng = random.Random(args.seed)
    today = timezone.localdate()
    championship = championship_services.championship_create(
        name="Jornada de carga",
        slug=SLUG,
        start_date=today,
        end_date=today + datetime.timedelta(days=1),
        venue="Pabellón del banco de pruebas",
        preset="argentine",
        team_size=2,
    )
    teams = [
        championship_services.NewTeam(
            name=f"Pareja {n:03d}",
            seed=n,
            club=rng.choice(["Gràcia", "Sants", "Rosario", "Córdoba"]),
            players=[f"Jugador {n:03d}-1", f"Jugador {n:03d}-2"],
        )
        for n in range(1, 2 * args.tables + 1)
    ]
    championship_services.teams_create_many(championship=championship, teams=teams)
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(
        championship=championship, format="swiss", name="Suizo", settings={"rounds": 5}
    )
    matches = sorted(stage_services.round_generate(stage=stage), key=lambda m: m.pk)
    playable = [m for m in matches if not m.is_bye]
    if len(playable) != args.tables:
        sys.exit(f"setup.py: expected {args.tables} matches, the round has {len(playable)}.")

    users = get_user_model()
    start = timezone.now().replace(second=0, microsecond=0)
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
        # What django.contrib.auth.login stores, without a login request.
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.set_expiry(24 * 3600)
        session.create()
        referees.append(
            {"username": user.username, "match": match.pk, "sessionid": session.session_key}
        )

    data = {
        "slug": SLUG,
        "stage": stage.pk,
        "round": 1,
        "matches": [m.pk for m in playable],
        "bracket": None,  # a Swiss stage has none
        "referees": referees,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1))
    print(f"setup: {len(teams)} teams, {len(playable)} matches started, {len(referees)} referees")


if __name__ == "__main__":
    main()
