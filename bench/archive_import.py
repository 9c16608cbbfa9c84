"""Benchmark: the peak memory and time of ``manage.py import_archive`` on a big valid
archive and on big hostile ones (docs/archive.md, "Limits").

    .venv/bin/python bench/archive_import.py                  # a temporary SQLite database
    .venv/bin/python bench/archive_import.py --megabytes 20   # the valid file's size
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/EMPTY_DB \
        .venv/bin/python bench/archive_import.py

Loads the demo championships into a new database and exports them; the valid file is the
demo archives side by side, copied until it reaches ``--megabytes`` (every copy under
new ids, names and player keys: one championship of many stages, each hand a real
one). The hostile files: 240,000 people nobody plays for (60 MB, a valid archive
otherwise), the same people cut to the size limit, and a venue of 50 MB. Each file is
imported by the command in a process of its own; its peak resident memory (the
kernel's ``ru_maxrss`` of that process), wall and CPU time, exit status and the length
of its message are printed.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def tile(archives: Iterable[dict[str, Any]], megabytes: float) -> dict[str, Any]:
    """The archives (of one rule set) side by side in one, repeated until its JSON
    reaches ``megabytes``."""
    sources = list(archives)
    merged = copy.deepcopy(sources[0])
    for key in ("people", "players", "teams", "substitutions", "stages", "matches"):
        merged[key] = []
    merged["championship"]["slug"] = "bench-archive"
    size, copies = 0, 0
    # An archive of an unknown size: its share of the whole is measured once.
    shares = [len(json.dumps(a)) for a in sources]
    while size < megabytes * 1_000_000:
        size += shares[copies % len(sources)]
        _append(merged, sources[copies % len(sources)], copies + 1)
        copies += 1
    return merged


def _append(merged: dict[str, Any], source: dict[str, Any], copy_number: int) -> None:
    """``source`` appended to ``merged`` under fresh ids (``copy_number`` names it)."""
    from scoring import rename_players
    from tournaments.io.archive import rename_lineup, rename_view, renumber_settings

    person = {p["id"]: len(merged["people"]) + i for i, p in enumerate(source["people"], 1)}
    key = {p["key"]: f"p{len(merged['players']) + i}" for i, p in enumerate(source["players"], 1)}
    team = {t["id"]: len(merged["teams"]) + i for i, t in enumerate(source["teams"], 1)}
    stage = {s["id"]: len(merged["stages"]) + i for i, s in enumerate(source["stages"], 1)}
    groups = [g for s in source["stages"] for g in s["groups"]]
    first_group = sum(len(s["groups"]) for s in merged["stages"])
    group = {g["id"]: first_group + i for i, g in enumerate(groups, 1)}
    first_match = len(merged["matches"])
    positions = [t["entry"]["position"] for t in merged["teams"] if t.get("entry")]
    top = max(positions, default=0)
    for p in source["people"]:
        merged["people"].append({**p, "id": person[p["id"]]})
    for p in source["players"]:
        merged["players"].append({**p, "key": key[p["key"]], "person": person[p["person"]]})
    for t in source["teams"]:
        entry = t.get("entry")
        merged["teams"].append(
            {
                **t,
                "id": team[t["id"]],
                "name": f"{t['name']} {copy_number}",
                "players": [{**m, "player": key[m["player"]]} for m in t["players"]],
                "entry": {**entry, "position": entry["position"] + top} if entry else entry,
            }
        )
    for s in source["substitutions"]:
        merged["substitutions"].append(
            {
                **s,
                "team": team[s["team"]],
                "out": key[s["out"]],
                "in": key[s["in"]],
                "stage": stage.get(s.get("stage")),
            }
        )
    for s in source["stages"]:
        merged["stages"].append(
            {
                **s,
                "id": stage[s["id"]],
                "name": f"{s.get('name') or s['format']} {copy_number}",
                "order": len(merged["stages"]) + 1,
                "settings": renumber_settings(s["settings"], team),
                "teams": [team[t] for t in s["teams"]],
                "groups": [
                    {**g, "id": group[g["id"]], "teams": [team[t] for t in g["teams"]]}
                    for g in s["groups"]
                ],
                "rounds": [{**r, "absent": [team[t] for t in r["absent"]]} for r in s["rounds"]],
            }
        )
    for index, m in enumerate(source["matches"], 1):
        merged["matches"].append(
            {
                **m,
                "id": first_match + index,
                "stage": stage[m["stage"]],
                "group": group.get(m.get("group")),
                "team_a": team[m["team_a"]],
                "team_b": team.get(m["team_b"]),
                **({"team_c": team[m["team_c"]]} if "team_c" in m else {}),
                "lineup": rename_lineup(m["lineup"], key),
                "seats": [key[k] for k in m["seats"]],
                "hands": [
                    {
                        **h,
                        "record": rename_players(h["record"], key),
                        "order": [key[k] for k in h["order"]],
                    }
                    for h in m["hands"]
                ],
                "revisions": [
                    {
                        **r,
                        "before": rename_view(r["before"], key),
                        "after": rename_view(r["after"], key),
                    }
                    for r in m["revisions"]
                ],
                "confirmations": [
                    {**c, "player": key.get(c.get("player"))} for c in m.get("confirmations", [])
                ],
            }
        )


def hostile_people(archive: dict[str, Any], count: int) -> dict[str, Any]:
    """``archive`` with ``count`` people nobody plays for (names of 200 characters)."""
    spoilt = copy.deepcopy(archive)
    first = len(spoilt["people"])
    spoilt["people"] += [
        {
            "id": first + n,
            "name": f"{f'Persona {n} ':x<200}"[:200],
            "club": "",
            "initial_only": False,
        }
        for n in range(1, count + 1)
    ]
    return spoilt


def hostile_venue(archive: dict[str, Any], megabytes: int) -> dict[str, Any]:
    spoilt = copy.deepcopy(archive)
    spoilt["championship"]["venue"] = "v" * (megabytes * 1_000_000)
    return spoilt


def run_measured(path: Path, slug: str, environment: dict[str, str]) -> dict[str, Any]:
    """One import in a process of its own, its peak RSS read from ``wait4``."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "manage.py", "import_archive", str(path), "--slug", slug],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    err = child.stderr.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return {
        "seconds": time.perf_counter() - start,
        "peak_mb": usage.ru_maxrss / 1024,  # kilobytes on Linux
        # The machine is shared: the CPU time is the figure that compares across runs.
        "cpu": usage.ru_utime + usage.ru_stime,
        "status": child.returncode,
        "message": err.decode("utf-8", "replace").strip(),
    }


def build(files: Path, megabytes: float) -> None:
    """The database (the demo championships) and the files, written to ``files``."""
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments.demo import load_demo
    from tournaments.io.archive import archive_export
    from tournaments.models import Championship

    call_command("migrate", verbosity=0)
    load_demo()
    exports = [
        json.loads(json.dumps(archive_export(c))) for c in Championship.objects.order_by("pk")
    ]
    argentine = [a for a in exports if a["championship"]["rules"] == {"preset": "argentine"}]
    valid = tile(argentine, megabytes)
    hands = sum(len(m["hands"]) for m in valid["matches"])
    print(f"database: {django.db.connection.vendor}; Python {sys.version.split()[0]}")
    print(
        f"valid: {len(valid['matches']):,} matches, {hands:,} hands, {len(valid['teams']):,} teams"
    )
    cases = {
        "valid": lambda: valid,
        "people-60mb": lambda: hostile_people(argentine[0], 240_000),
        "people-16mb": lambda: hostile_people(argentine[0], 60_000),
        "venue-50mb": lambda: hostile_venue(argentine[0], 50),
    }
    for name, make in cases.items():
        (files / f"{name}.json").write_text(json.dumps(make()), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=20.0, help="the valid file's size")
    parser.add_argument("--keep", help="a folder to keep the files in")
    parser.add_argument("--build", help=argparse.SUPPRESS)  # the child that writes them
    options = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    files = Path(options.build or options.keep or folder.name)
    files.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{files}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    if options.build:
        sys.path.insert(0, str(ROOT))
        build(files, options.megabytes)
        return
    # The files are written by a child: Linux counts the RSS a process had before its
    # exec in its peak, so this process stays small and each import's figure is its own.
    subprocess.run(
        [sys.executable, __file__, "--build", str(files), "--megabytes", str(options.megabytes)],
        env=environment,
        check=True,
    )
    columns = ("MB", 6), ("peak RSS MB", 11), ("wall s", 7), ("CPU s", 6), ("exit", 4)
    header = " ".join(f"{name:>{width}}" for name, width in columns)
    print(f"{'file':<16} {header} {'message':>8}")
    for number, path in enumerate(sorted(files.glob("*.json"), key=_order), 1):
        size = path.stat().st_size / 1_000_000
        found = run_measured(path, f"bench-{os.getpid()}-{number}", environment)
        print(
            f"{path.stem:<16} {size:>6.1f} {found['peak_mb']:>11.0f} {found['seconds']:>7.1f}"
            f" {found['cpu']:>6.1f} {found['status']:>4} {len(found['message']):>8,}"
        )
        if found["status"]:
            print(f"    {found['message'][:160]}")


def _order(path: Path) -> tuple[bool, str]:
    return (path.stem != "valid", path.stem)


if __name__ == "__main__":
    main()
