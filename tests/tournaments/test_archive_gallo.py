"""The open archive carries tables of three (docs/archive.md, "Tables of three"): a gallo
championship, por turno and fijo, exported, valid by the schema, checked by the engine
alone (the third side's figures and the places) and imported back the same; a tampered
third side or place is a disagreement the import refuses."""

from __future__ import annotations

import copy
import json
import random

import pytest
from django.utils import translation

from scoring import check_archive
from tests.tournaments.test_archive import exported, matches, run_check, standings
from tests.tournaments.test_gallo_tables import FIJO, POR_TURNO, gallo_championship, play_table
from tournaments.demo import play_match_hands
from tournaments.io.archive_checks import ArchiveError, schema_check
from tournaments.io.archive_import import archive_import
from tournaments.models import Championship, Hand, Match
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services

# Six players in a round robin of tables (two tables a round); eight in a Swiss of two
# tables of three and a table of two a round: two-sided matches in between.
CASES = {
    "por_turno": (POR_TURNO, 6, "tables_round_robin", {}),
    "fijo": (FIJO, 8, "tables_swiss", {"rounds": 2, "remainder": "table_of_two"}),
}


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def gallo_archive(case: str, referee) -> tuple[Championship, dict]:
    """A gallo championship of two rounds: the first played, the second's first table
    played and confirmed by its three sides, its last table under way (a few hands)."""
    rules, count, format_, settings = CASES[case]
    championship, _teams = gallo_championship(count, rules)
    stage = stage_services.stage_create(
        championship=championship, format=format_, settings=settings
    )
    rng = random.Random(f"archive-{case}")
    for number in (1, 2):
        created = stage_services.round_generate(stage=stage)
        tables = [m for m in created if m.is_table_of_three]
        for match in created:
            if match.is_bye:
                continue
            if number == 2 and match == tables[-1]:
                match = result_selectors.match_detail(pk=match.pk)
                entries = play_match_hands(rng, match)
                result_services.match_hands_import(
                    match=match, records=entries[:3], recorded_by=referee
                )
                continue
            played, _entries = play_table(match, rng, referee=referee)
            if number == 2 and match == tables[0]:
                for side, team in played.teams_by_side().items():
                    player = team.memberships.get().player
                    result_services.match_confirm(match=played, side=side, by=None, player=player)
    return championship, exported(championship.slug)


def _tables(archive: dict) -> list[tuple[int, dict]]:
    return [(i, m) for i, m in enumerate(archive["matches"]) if "team_c" in m]


@pytest.mark.parametrize("case", CASES)
def test_a_gallo_championship_comes_back_the_same(case, referee, tmp_path):
    original, archive = gallo_archive(case, referee)
    schema_check(archive)
    tables = [m for _i, m in _tables(archive)]
    two_sided = [m for m in archive["matches"] if "team_c" not in m]
    assert len(tables) == 4 and {m["status"] for m in tables} == {"finished", "in_progress"}
    if case == "fijo":
        assert any(m["hands"] for m in two_sided)  # a table of two, played
    for match in tables:
        assert set(match["lineup"]) == {"A", "B", "C"}
        assert set(match["places"]) == {"A", "B", "C"}
        for figures in (
            match["chicos"],
            match["tantos"],
            *(g["score"] for g in match["games"]),
            *(h[f] for h in match["hands"] for f in ("score_before", "points", "score")),
        ):
            assert set(figures) == {"A", "B", "C"}
            if case == "fijo":  # the pair's figures, twice
                assert figures["C"] == figures["B"]
        if case == "fijo":
            assert match["places"]["C"] == match["places"]["B"]
            assert match["winner"] in ("A", "B", None)
    assert case == "fijo" or any(m["winner"] == "C" or m["places"]["C"] == 1 for m in tables)
    confirmed = next(m for m in tables if m["confirmations"])
    assert [c["side"] for c in confirmed["confirmations"]] == ["A", "B", "C"]
    assert confirmed["confirmed_at"] is not None
    # A two-sided match is exported as before: nothing of a third side.
    for match in two_sided:
        assert not {"team_c", "places"} & set(match)
        assert set(match["chicos"]) == set(match["lineup"]) - {"captains"} == {"A", "B"}
        assert all(set(h["points"]) == {"A", "B"} for h in match["hands"])

    path = tmp_path / "gallo.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    code, report = run_check(path)
    assert (code, report["agree"], report["disagreements"]) == (0, True, [])
    assert report["hands"] == Hand.objects.filter(match__stage__championship=original).count()

    done = archive_import(archive=copy.deepcopy(archive))
    copy_ = done.championship
    assert done.disagreements == []
    assert copy_.rules == original.rules
    assert matches(copy_) == matches(original)
    assert standings(copy_) == standings(original)
    imported = Match.objects.filter(stage__championship=copy_, team_c__isnull=False)
    assert imported.count() == 4 and all(m.places for m in imported)
    again = exported(copy_.slug)
    again["championship"]["slug"] = archive["championship"]["slug"]
    for match in archive["matches"]:
        for revision in match["revisions"]:
            revision["by"] = None  # an imported change has no author
    assert again == archive


def _first_table_with_hands(archive: dict) -> tuple[int, dict]:
    return next((i, m) for i, m in _tables(archive) if m["status"] == "finished")


@pytest.mark.parametrize("case", CASES)
def test_a_tampered_third_side_is_a_disagreement_the_import_refuses(case, referee):
    _original, archive = gallo_archive(case, referee)
    index, table = _first_table_with_hands(archive)
    spoilt = copy.deepcopy(archive)
    hand = spoilt["matches"][index]["hands"][1]
    hand["points"]["C"] += 1
    report = check_archive(spoilt)
    assert report["agree"] is False
    assert [(d["match"], d["hand"], d["field"]) for d in report["disagreements"]] == [
        (table["id"], 2, "points")
    ]
    (found,) = report["disagreements"]
    assert found["engine"] == table["hands"][1]["points"]
    assert found["stored"]["C"] == found["engine"]["C"] + 1
    before = Championship.objects.count()
    with pytest.raises(ArchiveError) as refused:
        archive_import(archive=spoilt)
    assert refused.value.code == "archive_disagrees"
    assert refused.value.path == f"$.matches[{index}].hands[1].points"
    assert "the engine" in refused.value.text and "--accept-disagreements" in refused.value.text
    assert Championship.objects.count() == before


@pytest.mark.parametrize("case", CASES)
def test_a_tampered_place_is_a_disagreement_the_import_refuses(case, referee):
    original, archive = gallo_archive(case, referee)
    index, table = _first_table_with_hands(archive)
    places = table["places"]
    last = max(places, key=places.get)
    spoilt = copy.deepcopy(archive)
    spoilt["matches"][index]["places"] = {**places, last: 1}
    report = check_archive(spoilt)
    assert report["disagreements"] == [
        {
            "match": table["id"],
            "hand": None,
            "field": "places",
            "stored": {**places, last: 1},
            "engine": places,
        }
    ]
    with pytest.raises(ArchiveError) as refused:
        archive_import(archive=spoilt)
    assert refused.value.path == f"$.matches[{index}].places"
    assert "the archive says" in refused.value.text
    # The import, told to, stores the engine's places, not the archive's.
    done = archive_import(archive=spoilt, slug="gallo-copia", accept_disagreements=True)
    assert [d["field"] for d in done.disagreements] == ["places"]
    assert matches(done.championship) == matches(original)


def test_the_schema_keeps_the_third_side_to_tables(referee):
    _original, archive = gallo_archive("fijo", referee)
    index, _table = _first_table_with_hands(archive)
    two = next(i for i, m in enumerate(archive["matches"]) if "team_c" not in m and m["hands"])
    spoils = [
        # A table without its places, or without a third figure.
        (lambda a: a["matches"][index].pop("places"), f"$.matches[{index}]"),
        (
            lambda a: a["matches"][index]["hands"][0]["score"].pop("C"),
            f"$.matches[{index}].hands[0].score",
        ),
        # A two-sided match with a third side's figure.
        (
            lambda a: a["matches"][two]["hands"][0]["points"].update(C=0),
            f"$.matches[{two}].hands[0].points",
        ),
        (lambda a: a["matches"][two].update(places={}), f"$.matches[{two}]"),
    ]
    for spoil, path in spoils:
        spoilt = copy.deepcopy(archive)
        spoil(spoilt)
        with pytest.raises(ArchiveError) as refused:
            schema_check(spoilt)
        assert refused.value.path == path, refused.value.text
    # A table where Tanteo seats none (teams of two) is refused by the references.
    spoilt = copy.deepcopy(archive)
    spoilt["championship"]["team_size"] = 2
    with pytest.raises(ArchiveError) as refused:
        archive_import(archive=spoilt)
    assert refused.value.path == f"$.matches[{_tables(archive)[0][0]}].team_c"
