"""The open archive (docs/archive.md): every demo championship exported, validated by the
schema, checked by the engine and imported back as a new one with the same standings,
matches and hands; bad files refused with their JSON path and nothing created."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from scoring import check_archive
from tournaments.io.archive import archive_export
from tournaments.io.archive_checks import ArchiveError, schema_check
from tournaments.io.archive_import import archive_import
from tournaments.models import (
    Championship,
    Hand,
    HandRevision,
    Match,
    Person,
    Player,
    RatingChange,
)
from tournaments.ratings import statistics_selectors
from tournaments.standings.selectors import stage_standings

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ["abierto-de-truco", "torneig-truc-casal", "open-de-primavera", "gallo-de-los-jueves"]


@pytest.fixture(autouse=True)
def _english():
    # The commands' sentences and the reasons Tanteo writes, read in English here (the
    # site's default language is Spanish).
    with translation.override("en"):
        yield


def exported(slug: str) -> dict:
    """The archive as a file holds it (through JSON, as any reader gets it)."""
    return json.loads(json.dumps(archive_export(Championship.objects.get(slug=slug))))


def standings(championship: Championship) -> list:
    """Every stage's (and group's) standings, teams by name: comparable across copies."""
    tables = []
    for stage in championship.stages.select_related("championship").order_by("order"):
        for group in list(stage.groups.order_by("name")) or [None]:
            rows = []
            for line in stage_standings(stage=stage, group=group, use_snapshot=False):
                row = line.to_row()
                row["team"] = line.team.name
                rows.append(row)
            tables.append((group.name if group else None, rows))
    return tables


def matches(championship: Championship) -> list:
    """Each match's result and its hands (records with players named by line-up place); a
    table of three's third side and places (by team name) too."""
    found = []
    for match in (
        Match.objects.filter(stage__championship=championship)
        .select_related("team_a", "team_b", "team_c", "winner", "round")
        .order_by("stage__order", "round__number", "pk")
    ):
        names = {}
        for key in match.seats:
            names[key] = f"seat{len(names)}"
        hands = [
            (
                json.loads(_renamed(json.dumps(h.record), names)),
                (h.points_a, h.points_b, h.points_c, h.score_a, h.score_b, h.score_c, h.status),
            )
            for h in match.hands.order_by("number")
        ]
        found.append(
            (
                match.round.number,
                match.team_a.name,
                match.team_b.name if match.team_b else None,
                match.team_c.name if match.team_c else None,
                match.winner.name if match.winner else None,
                match.status,
                match.outcome,
                (match.chicos_a, match.chicos_b, match.chicos_c),
                (match.tantos_a, match.tantos_b, match.tantos_c),
                list(match.games.order_by("number").values_list("score_a", "score_b", "score_c")),
                _places(match),
                hands,
            )
        )
    return found


def _places(match: Match) -> dict[str, int]:
    teams = {str(t.pk): t.name for t in (match.team_a, match.team_b, match.team_c) if t}
    return {teams[team]: place for team, place in match.places.items()}


def _renamed(text: str, names: dict[str, str]) -> str:
    # Longest keys first: p12 before p1.
    for key in sorted(names, key=len, reverse=True):
        text = text.replace(f'"{key}"', f'"{names[key]}"')
    return text


@pytest.mark.parametrize("slug", DEMOS)
def test_every_demo_championship_comes_back_the_same(
    demo, slug, django_capture_on_commit_callbacks
):
    archive = exported(slug)
    schema_check(archive)  # every export validates against the schema shipped
    with django_capture_on_commit_callbacks(execute=True):
        done = archive_import(archive=archive)
    original = Championship.objects.get(slug=slug)
    copy_ = done.championship
    assert copy_.slug == f"{slug}-2"  # the archive's slug was taken
    assert done.disagreements == []
    assert standings(copy_) == standings(original)
    assert matches(copy_) == matches(original)
    # The hands re-score identically under their new players' keys: the engine stored
    # them (points, scores) and a second export is the first one, ids aside.
    again = exported(copy_.slug)
    again["championship"]["slug"] = slug
    for match in archive["matches"]:
        for revision in match["revisions"]:
            revision["by"] = None  # an imported change has no author
    assert again == archive
    new_keys = {p.record_key for p in Player.objects.filter(teams__championship=copy_)}
    old_keys = {p.record_key for p in Player.objects.filter(teams__championship=original)}
    assert new_keys and not new_keys & old_keys
    # What the hands tell is kept for the copy as for the original, and its decided
    # matches are rated as the original's were.
    assert statistics_selectors.championship_totals(
        championship=copy_
    ) == statistics_selectors.championship_totals(championship=original)
    # (Tables of three too: three-way results, docs/tournaments.md "Ratings".)
    played = Match.objects.filter(
        stage__championship=copy_, outcome=Match.Outcome.PLAYED, winner__isnull=False
    )
    rated = RatingChange.objects.filter(match__stage__championship=copy_)
    assert set(rated.values_list("match_id", flat=True)) == set(played.values_list("pk", flat=True))


def test_a_played_demo_archive_has_hands_revisions_and_people(demo):
    archive = exported("abierto-de-truco")
    hands = [h for m in archive["matches"] for h in m["hands"]]
    assert len(hands) > 100
    assert all(h["record"]["events"] for h in hands)
    assert {r["action"] for m in archive["matches"] for r in m["revisions"]} == {"recorded"}
    assert {r["by"] for m in archive["matches"] for r in m["revisions"]} == {"referee"}
    assert len(archive["people"]) == 32
    keys = {p["key"] for p in archive["players"]}
    assert keys == {f"p{n}" for n in range(1, 33)}
    # Every player key in a record is one of the archive's, never a database id.
    for hand in hands:
        assert set(hand["order"]) <= keys


def test_no_personal_data_in_the_archive(demo):
    person = Person.objects.filter(players__teams__championship__slug="abierto-de-truco").first()
    person.email = "ana.secreta@example.org"
    person.phone = "+34 600 123 456"
    person.licence = "LIC-998877"
    person.initial_only = True
    person.save()
    surname = person.name.split()[-1]
    text = json.dumps(exported("abierto-de-truco"), ensure_ascii=False)
    for secret in ("ana.secreta@example.org", "600 123 456", "LIC-998877", "arbitro.demo"):
        assert secret not in text
    archive = json.loads(text)
    shown = person.public_name
    assert {"name": shown, "club": person.club, "initial_only": True}.items() <= next(
        p for p in archive["people"] if p["name"] == shown
    ).items()
    named = [p["name"] for p in archive["players"] if p["name"].startswith(shown.split()[0])]
    assert shown in named and f"{person.name.split()[0]} {surname}" not in named
    open_ = json.dumps(exported("open-de-primavera"), ensure_ascii=False)
    assert "@example.org" not in open_  # the entries' addresses stay home


def run_check(path: Path) -> tuple[int, dict]:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "archive-check", str(path)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert b"Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout)


def test_archive_check_agrees_with_an_honest_export_and_catches_a_tampered_hand(demo, tmp_path):
    path = tmp_path / "casal.json"
    call_command("export_archive", "torneig-truc-casal", "-o", str(path))
    code, report = run_check(path)
    assert (code, report["agree"], report["disagreements"]) == (0, True, [])
    assert (
        report["hands"]
        == Hand.objects.filter(match__stage__championship__slug="torneig-truc-casal").count()
    )

    archive = json.loads(path.read_text(encoding="utf-8"))
    match = next(m for m in archive["matches"] if len(m["hands"]) > 3)
    hand = match["hands"][2]
    side = "A" if hand["points"]["A"] else "B"
    hand["points"][side] += 1
    path.write_text(json.dumps(archive), encoding="utf-8")
    code, report = run_check(path)
    assert code == 1 and report["agree"] is False
    assert report["disagreements"] == [
        {
            "match": match["id"],
            "hand": 3,
            "field": "points",
            "stored": hand["points"],
            "engine": {**hand["points"], side: hand["points"][side] - 1},
        }
    ]


def test_a_tampered_winner_is_a_disagreement_of_the_match(demo):
    archive = exported("abierto-de-truco")
    match = next(m for m in archive["matches"] if m["winner"] == "A")
    match["winner"] = "B"
    report = check_archive(archive)
    assert [(d["match"], d["hand"], d["field"]) for d in report["disagreements"]] == [
        (match["id"], None, "winner")
    ]


def _counts() -> tuple[int, ...]:
    return (
        Championship.objects.count(),
        Person.objects.count(),
        Player.objects.count(),
        Match.objects.count(),
        Hand.objects.count(),
    )


SPOILS = [
    (lambda a: a.update(version=2), "$.version"),
    (lambda a: a["matches"][3]["hands"][0].update(record=[]), "$.matches[3].hands[0].record"),
    (
        lambda a: a["matches"][3]["hands"][1]["points"].update(A=-1),
        "$.matches[3].hands[1].points.A",
    ),
    (lambda a: a["people"][0].update(email="x@example.org"), "$.people[0]"),
    (lambda a: a["matches"][5].update(team_a=999), "$.matches[5].team_a"),
    (lambda a: a["matches"][2]["lineup"]["A"].append("p999"), "$.matches[2].lineup.A[2]"),
    (lambda a: a["championship"].update(time_zone="Mars/Olympus"), "$.championship.time_zone"),
    (
        lambda a: a["matches"][1]["hands"][0]["record"]["events"].insert(0, {"trick": "C"}),
        "$.matches[1].hands[0].record",
    ),
]


def test_an_invalid_archive_is_refused_with_its_path_and_nothing_created(demo):
    archive = exported("abierto-de-truco")
    before = _counts()
    for spoil, path in SPOILS:
        spoilt = copy.deepcopy(archive)
        spoil(spoilt)
        with pytest.raises(ArchiveError) as refused:
            archive_import(archive=spoilt)
        assert refused.value.path == path
        assert path in refused.value.text
        assert _counts() == before


def test_the_command_refuses_an_invalid_file_naming_the_path(demo, tmp_path):
    path = tmp_path / "bad.json"
    archive = exported("abierto-de-truco")
    archive["matches"][3]["hands"][0]["record"] = "nothing"
    path.write_text(json.dumps(archive), encoding="utf-8")
    with pytest.raises(CommandError, match=r"\$\.matches\[3\]\.hands\[0\]\.record"):
        call_command("import_archive", str(path))
    path.write_bytes(b"{not json")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_archive", str(path))
    assert not Championship.objects.filter(slug="abierto-de-truco-2").exists()


def test_a_disagreement_needs_the_flag_and_is_marked(demo, tmp_path):
    archive = exported("abierto-de-truco")
    index, match = next((i, m) for i, m in enumerate(archive["matches"]) if len(m["hands"]) > 4)
    hand = match["hands"][4]
    engine_points = dict(hand["points"])
    hand["points"] = {"A": engine_points["A"] + 3, "B": engine_points["B"]}
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    before = _counts()
    with pytest.raises(CommandError, match=rf"\$\.matches\[{index}\]\.hands\[4\]\.points"):
        call_command("import_archive", str(path), "--slug", "copia")
    assert _counts() == before

    call_command("import_archive", str(path), "--slug", "copia", "--accept-disagreements")
    copy_ = Championship.objects.get(slug="copia")
    imported = Match.objects.filter(stage__championship=copy_).order_by(
        "stage__order", "round__number", "pk"
    )[index]
    stored = imported.hands.get(number=5)
    # The engine's result is kept...
    assert {"A": stored.points_a, "B": stored.points_b} == engine_points
    # ...and the archive's is in the match's history, as a correction without author.
    mark = imported.revisions.get(action=HandRevision.Action.CORRECTED)
    assert (mark.number, mark.by, mark.before["points"]) == (5, None, hand["points"])
    assert mark.after["points"] == engine_points
    assert "archive" in mark.reason


def test_the_slug_chosen_must_be_free(demo):
    archive = exported("open-de-primavera")
    with pytest.raises(ArchiveError) as refused:
        archive_import(archive=archive, slug="abierto-de-truco")
    assert refused.value.path == "$.championship.slug"
    done = archive_import(archive=copy.deepcopy(archive), slug="primavera-copia")
    assert done.championship.slug == "primavera-copia"
    assert done.championship.teams.count() == 10
    # Five accepted, one of them withdrawn since (its fee to refund: tournaments/demo).
    assert done.championship.entries.filter(status="accepted").count() == 4
    assert done.championship.entries.filter(status="withdrawn").count() == 1


def test_export_command_writes_json_to_stdout(demo, capsys):
    call_command("export_archive", "torneig-truc-casal")
    archive = json.loads(capsys.readouterr().out)
    assert (archive["format"], archive["version"]) == ("tanteo-archive", 1)
    played = [m for m in archive["matches"] if m["hands"]]
    assert played and all(set(m["lineup"]["captains"]) == {"A", "B"} for m in played)
