"""Matches recorded as their result in the open archive and the CSV exports
(docs/archive.md, "Matches recorded as their result"; docs/csv.md): exported as the
schema describes them, checked by the engine (``archive-check``), imported back the same;
who keeps the score travels with the championship and its stages."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from scoring import check_archive
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tests.tournaments.test_archive import matches, run_check, standings
from tournaments.entries import reports
from tournaments.io import exports
from tournaments.io.archive import archive_export
from tournaments.io.archive_checks import ArchiveError, schema_check
from tournaments.io.archive_import import archive_import
from tournaments.models import Championship, Match, Scorekeeping
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

WON_2_1 = [
    {"score": {"A": 30, "B": 25}},
    {"score": {"A": 18, "B": 30}},
    {"score": {"A": 30, "B": 12}},
]
B_WINS = [{"score": {"A": 20, "B": 30}}, {"score": {"A": 11, "B": 30}}]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def exported(championship: Championship, *, private: bool = True) -> dict:
    return json.loads(json.dumps(archive_export(championship, private=private)))


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="mesa")


@pytest.fixture
def played(organiser) -> Championship:
    """A round robin of four whose results the teams report: one reported and confirmed,
    one typed at the desk, one reported and disputed, then corrected; and a second stage
    where a player keeps the score hand by hand (nothing played there yet)."""
    championship = ChampionshipFactory(
        slug="sin-arbitro",
        scorekeeping=Scorekeeping.RESULTS,
        confirm_within=45,
        rules={"preset": "argentine"},
    )
    championship.organisers.add(organiser)
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    first, second = stage_services.round_generate(stage=stage)
    reports.link_report(team=first.team_a, match=first, games=WON_2_1)
    reports.link_answer(team=first.team_b, match=first)
    result_services.match_result_record(match=second, games=B_WINS, by=organiser)
    third = stage_services.round_generate(stage=stage)[0]
    reports.link_report(team=third.team_b, match=third, games=B_WINS)
    reports.link_answer(team=third.team_a, match=third, dispute="We won the first")
    result_services.match_result_correct(
        match=third, games=WON_2_1, reason="The sheet says so", by=organiser
    )
    later = stage_services.stage_create(championship=championship, format="swiss")
    championship_stage = type(later).objects.filter(pk=later.pk)
    championship_stage.update(scorekeeping=Scorekeeping.PLAYERS)
    return championship


def test_an_archive_of_results_is_as_the_schema_says_and_the_engine_agrees(played, tmp_path):
    archive = exported(played, private=False)
    schema_check(archive)
    assert archive["championship"]["scorekeeping"] == "results"
    assert archive["championship"]["confirm_within"] == 45
    assert [s.get("scorekeeping") for s in archive["stages"]] == [None, "players"]
    reported = [m for m in archive["matches"] if m.get("recorded") == "result"]
    assert len(reported) == 3
    for match in reported:
        assert match["hands"] == [] and match["seats"] == [] and "entry" not in match
        assert match["status"] == "finished" and match["outcome"] == "played"
        assert all(game["winner"] in ("A", "B") for game in match["games"])
        assert match["reported_at"] is not None
    assert [m["reported_side"] for m in reported] == ["A", "", "B"]
    first = reported[0]
    assert first["games"] == [
        {"number": 1, "score": {"A": 30, "B": 25}, "winner": "A"},
        {"number": 2, "score": {"A": 18, "B": 30}, "winner": "B"},
        {"number": 3, "score": {"A": 30, "B": 12}, "winner": "A"},
    ]
    assert (first["chicos"], first["tantos"]) == ({"A": 2, "B": 1}, {"A": 78, "B": 67})
    assert first["confirmed_at"] is not None
    actions = [r["action"] for r in reported[2]["revisions"]]
    assert actions[0] == "result" and "result_corrected" in actions
    # The engine alone agrees, in-process and as the command the archive's readers run.
    assert check_archive(archive)["disagreements"] == []
    path = tmp_path / "sin-arbitro.tanteo.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    status, output = run_check(path)
    assert (status, output["agree"]) == (0, True)
    assert output["matches"] >= 3


def test_an_archive_of_results_comes_back_the_same(played):
    archive = exported(played)
    done = archive_import(archive=copy.deepcopy(archive))
    copy_ = done.championship
    assert done.disagreements == []
    assert (copy_.scorekeeping, copy_.confirm_within) == ("results", 45)
    assert list(copy_.stages.order_by("order").values_list("scorekeeping", flat=True)) == [
        "",
        "players",
    ]
    assert standings(copy_) == standings(played)
    assert matches(copy_) == matches(played)
    again = exported(copy_)
    again["championship"]["slug"] = archive["championship"]["slug"]
    for match in archive["matches"]:
        for revision in match["revisions"]:
            revision["by"] = None  # an imported change has no author
    assert again == archive
    # The copy's results are stored as the engine gives them: the same report again is
    # that side's answer, not another result.
    imported = Match.objects.filter(stage__championship=copy_, reported_side="A").get()
    assert imported.recorded == Match.Recorded.RESULT and imported.state is not None
    Championship.objects.filter(pk=copy_.pk).update(status="running")
    imported = Match.objects.get(pk=imported.pk)
    answer = result_services.match_result_report(match=imported, side="A", games=WON_2_1)
    assert answer.status == "confirmed"


def test_an_archive_of_before_is_read_with_the_defaults(played):
    archive = exported(played)
    for field in ("scorekeeping", "confirm_within"):
        del archive["championship"][field]
    del archive["stages"][1]["scorekeeping"]
    copy_ = archive_import(archive=archive).championship
    assert (copy_.scorekeeping, copy_.confirm_within) == ("referees", 30)
    assert set(copy_.stages.values_list("scorekeeping", flat=True)) == {""}
    # A championship of referees exports as it always did: none of the new fields.
    plain = exported(copy_)
    assert "scorekeeping" not in plain["championship"]
    assert "confirm_within" not in plain["championship"]
    assert all("scorekeeping" not in stage for stage in plain["stages"])


def test_an_impossible_result_is_refused_even_when_disagreements_are_accepted(played):
    archive = exported(played)
    index = next(i for i, m in enumerate(archive["matches"]) if m.get("recorded") == "result")
    archive["matches"][index]["games"][0]["score"]["A"] = 31
    before = Championship.objects.count()
    with pytest.raises(ArchiveError) as refused:
        archive_import(archive=archive, accept_disagreements=True)
    assert refused.value.path == f"$.matches[{index}].games"
    assert "31 in chico 1" in refused.value.text
    assert Championship.objects.count() == before


def test_a_wrong_score_of_who_kept_it_is_refused_by_the_schema(played):
    archive = exported(played)
    archive["championship"]["scorekeeping"] = "nobody"
    with pytest.raises(ArchiveError) as refused:
        schema_check(archive)
    assert refused.value.path == "$.championship.scorekeeping"


def test_a_table_of_three_reported_comes_back_with_its_places(organiser):
    championship = ChampionshipFactory(
        scorekeeping=Scorekeeping.RESULTS,
        rules={"preset": "argentine", "gallo": "por_turno", "target": 15, "best_of": 1},
        team_size=1,
    )
    for seed in (1, 2, 3):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_result_report(
        match=match, side="C", games=[{"score": {"A": 15, "B": 9, "C": 3}}]
    )
    archive = exported(championship)
    schema_check(archive)
    assert check_archive(archive)["disagreements"] == []
    row = archive["matches"][0]
    assert (row["recorded"], row["reported_side"], row["places"]) == (
        "result",
        "C",
        {"A": 1, "B": 2, "C": 3},
    )
    copy_ = archive_import(archive=copy.deepcopy(archive)).championship
    assert matches(copy_) == matches(championship)
    again = exported(copy_)
    again["championship"]["slug"] = archive["championship"]["slug"]
    assert again == archive


def _rows(championship: Championship) -> list[dict[str, str]]:
    text = "".join(exports.export_matches(championship))
    return list(csv.DictReader(io.StringIO(text.removeprefix(exports.BOM))))


def test_the_matches_export_says_how_each_match_was_recorded(played):
    rows = _rows(played)
    recorded = {int(row["match"]): row["recorded"] for row in rows}
    stored = dict(Match.objects.filter(stage__championship=played).values_list("pk", "recorded"))
    assert recorded == stored
    assert sorted(recorded.values()).count("result") == 3
    header = next(csv.reader(io.StringIO("".join(exports.export_matches(played))[1:])))
    assert header[:21] == exports.MATCH_COLUMNS and header[-1] == "recorded"


def test_a_gallo_export_keeps_its_third_players_columns_where_they_were(db):
    championship = ChampionshipFactory(
        rules={"preset": "argentine", "gallo": "por_turno", "target": 15, "best_of": 1},
        team_size=1,
    )
    header = next(csv.reader(io.StringIO("".join(exports.export_matches(championship))[1:])))
    assert header[21:] == ["team_c", "chicos_c", "tantos_c", "recorded"]
