"""Championships of tables of three (gallo): rounds of tables, hands through the services,
places by the engine, standings by placement points (docs/tournaments.md "Tables of three")."""

import random
from collections import Counter
from itertools import combinations

import pytest
from django.utils import translation

import scoring
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.demo import play_match_hands
from tournaments.errors import TournamentError
from tournaments.models import Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors
from tournaments.standings.tables import PlacementPoints

POR_TURNO = {
    "preset": "argentine",
    "gallo": "por_turno",
    "falta_envido": "whole_chico",
    "target": 15,
}
FIJO = {**POR_TURNO, "gallo": "fijo"}


def gallo_championship(count: int, rules: dict = POR_TURNO):
    championship = ChampionshipFactory(rules=dict(rules), team_size=1)
    teams = [TeamFactory(championship=championship, seed=n) for n in range(1, count + 1)]
    return championship, teams


def play_table(match: Match, rng: random.Random, *, one_by_one: bool = False, referee=None):
    """Play a whole table with the engine's random walk (the demo's), then record it."""
    match = result_selectors.match_detail(pk=match.pk)
    entries = play_match_hands(rng, match)
    if one_by_one:
        for entry in entries:
            result_services.hand_record(match=match, record=entry, recorded_by=referee)
    else:
        result_services.match_hands_import(match=match, records=entries, recorded_by=referee)
    match.refresh_from_db()
    return match, entries


def engine_places(match: Match, entries: list) -> dict[str, int]:
    """The places as the engine ranks the match record: the test's own reading."""
    match = result_selectors.match_detail(pk=match.pk)
    record = records.match_record(match, entries)
    result = scoring.score_match_result(record)
    place = {p.side: p.place for p in scoring.table_placement(result)}
    sides = {"A": match.team_a_id, "B": match.team_b_id, "C": match.team_c_id}
    if "C" not in place:  # fijo: the pair is B
        place["C"] = place["B"]
    return {str(sides[side]): place[side] for side in "ABC"}


def test_the_organiser_picks_gallo_through_the_rules_service(db):
    from tournaments.championships import services as championship_services

    championship = ChampionshipFactory(team_size=1)
    assert not championship.plays_gallo and championship.table_size == 2
    championship_services.championship_update_rules(
        championship=championship, preset="argentine", options={"gallo": "por_turno"}
    )
    championship.refresh_from_db()
    assert championship.rules == {"preset": "argentine", "gallo": "por_turno"}
    assert championship.plays_gallo and championship.table_size == 3
    pairs = ChampionshipFactory(team_size=2)
    with translation.override("en"):
        with pytest.raises(TournamentError) as error:
            championship_services.championship_update_rules(
                championship=pairs, preset="argentine", options={"gallo": "fijo"}
            )
        assert error.value.code == "gallo_team_size"
        assert "single players" in error.value.text
    with translation.override("en"), pytest.raises(TournamentError) as error:
        championship_services.championship_update_rules(
            championship=championship, preset="catalan", options={"gallo": "fijo"}
        )
    assert error.value.code  # the engine's refusal, translated


def test_the_rules_form_offers_gallo_to_single_players_and_stores_it(db):
    from tournaments.web.organiser.forms import ChampionshipRulesForm

    championship = ChampionshipFactory(team_size=1)
    form = ChampionshipRulesForm(championship=championship)
    assert form.fields["gallo"].initial == ""  # two sides until chosen
    data = {"preset": "argentine", "gallo": "por_turno", "tiebreak_1": "points"}
    form = ChampionshipRulesForm(data, championship=championship)
    assert form.is_valid(), form.errors
    assert form.service_kwargs()["options"]["gallo"] == "por_turno"  # the default, stored
    assert "gallo" not in ChampionshipRulesForm(championship=ChampionshipFactory()).fields
    # A new championship: the gallo with teams of more than one is refused.
    from tournaments.web.organiser.forms import ChampionshipCreateForm

    new = {"name": "Gallo", "start_date": "2026-06-01", "preset": "argentine", "gallo": "fijo"}
    with translation.override("en"):
        pairs = ChampionshipCreateForm({**new, "team_size": "2", "tiebreak_1": "points"})
        assert not pairs.is_valid()
        assert "choose teams of 1" in str(pairs.errors["gallo"])
    single = ChampionshipCreateForm({**new, "team_size": "1", "tiebreak_1": "points"})
    assert single.is_valid(), single.errors
    assert single.service_kwargs()["options"] == {"gallo": "fijo"}
    # The stage form offers the table formats to it, and only to such a championship.
    from tournaments.web.organiser.forms import StageForm

    championship.rules = {"preset": "argentine", "gallo": "fijo"}
    offered = [key for key, _label in StageForm(championship=championship).fields["format"].choices]
    assert {"tables_swiss", "tables_round_robin", "final_table"} <= set(offered)
    pairs = StageForm(championship=ChampionshipFactory()).fields["format"].choices
    assert not {"tables_swiss", "final_table"} & {key for key, _label in pairs}


def test_a_round_robin_of_nine_players_to_its_end(referee):
    championship, teams = gallo_championship(9)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    rng = random.Random(25)
    met: Counter = Counter()
    whole = None
    for _round in range(4):
        created = stage_services.round_generate(stage=stage)
        assert len(created) == 3 and all(m.is_table_of_three for m in created)
        for match in created:
            met.update(frozenset(p) for p in combinations(records.side_team_ids(match).values(), 2))
            one_by_one = whole is None  # the first table hand by hand, as a referee
            played, entries = play_table(match, rng, one_by_one=one_by_one, referee=referee)
            whole = whole or played
            assert played.status == Match.Status.FINISHED
            assert played.places == engine_places(played, entries)
            assert sorted(played.places.values())[0] == 1
            winner_place = played.places[str(played.winner_id)]
            assert winner_place == 1
            assert played.chicos_a + played.chicos_b + played.chicos_c >= 2
            hands = list(played.hands.order_by("number"))
            assert len(hands) == len(entries)
            assert hands[-1].score_c == played.games.order_by("-number")[0].score_c
    # The affine plane: every pair of the nine met exactly once.
    assert set(met) == {frozenset(p) for p in combinations([t.pk for t in teams], 2)}
    assert set(met.values()) == {1}
    with pytest.raises(TournamentError) as error:
        stage_services.round_generate(stage=stage)
    assert error.value.code == "no_round_left"

    lines = standing_selectors.stage_standings(stage=stage, use_snapshot=False)
    scheme = PlacementPoints()
    expected: Counter = Counter()
    for match in stage.matches.all():
        for team, value in scheme.for_places({int(k): v for k, v in match.places.items()}).items():
            expected[team] += value
    assert {line.team.pk: line.points for line in lines} == dict(expected)
    assert [line.points for line in lines] == sorted((line.points for line in lines), reverse=True)
    assert all(line.played == 4 for line in lines)
    assert set(lines[0].metrics) == {"points", "tantos", "opponents", "lots"}
    assert [c.key for c in standing_selectors.stage_tiebreak_columns(stage)] == [
        "points", "tantos", "opponents", "lots"
    ]  # fmt: skip
    # The snapshot serves the same lines.
    from tournaments.standings import services as standing_services

    standing_services.standings_refresh(stage=stage)
    cached = standing_selectors.stage_standings(stage=stage)
    assert [(c.team.pk, c.points) for c in cached] == [(x.team.pk, x.points) for x in lines]


@pytest.mark.parametrize("rules", [POR_TURNO, FIJO], ids=["por_turno", "fijo"])
@pytest.mark.parametrize(
    ("count", "remainder"),
    [(7, "table_of_two"), (8, "table_of_two"), (7, "bye"), (8, "bye")],
)
def test_swiss_tables_with_a_remainder(referee, rules, count, remainder):
    championship, teams = gallo_championship(count, rules)
    stage = stage_services.stage_create(
        championship=championship,
        format="tables_swiss",
        settings={"rounds": 2, "remainder": remainder, "bye_points": 1.5},
    )
    rng = random.Random(count)
    for _ in range(2):
        created = stage_services.round_generate(stage=stage)
        sizes = Counter(3 if m.is_table_of_three else (2 if not m.is_bye else 1) for m in created)
        threes, extra = divmod(count, 3)
        if remainder == "bye":
            assert sizes == Counter({3: threes, 1: extra})
        else:
            assert sizes[2] == (2 if extra == 1 else 1)
        seated = Counter(
            t for m in created for t in (m.team_a_id, m.team_b_id, m.team_c_id) if t is not None
        )
        assert set(seated) == {t.pk for t in teams} and set(seated.values()) == {1}
        for match in created:
            if match.is_bye:
                assert match.outcome == Match.Outcome.BYE
                continue
            played, entries = play_table(match, rng, referee=referee)
            assert played.status == Match.Status.FINISHED
            if played.is_table_of_three:
                assert played.places == engine_places(played, entries)
                if rules is FIJO:  # the pair shares its place and figures
                    assert (
                        played.places[str(played.team_b_id)] == played.places[str(played.team_c_id)]
                    )
                    assert (played.chicos_b, played.tantos_b) == (
                        played.chicos_c,
                        played.tantos_c,
                    )
    lines = standing_selectors.stage_standings(stage=stage, use_snapshot=False)
    assert len(lines) == count
    if remainder == "bye":
        byes = [line for line in lines if line.byes]
        assert len(byes) == 2 * (count % 3)  # different players each round
    # No one met the same player twice while it could be avoided (with 7 and byes, one of
    # round 1's tables of three stays whole after the bye: a repeat is unavoidable).
    if (count, remainder) == (7, "bye"):
        return
    pairs: Counter = Counter()
    for match in stage.matches.exclude(team_b=None):
        seated = [t for t in (match.team_a_id, match.team_b_id, match.team_c_id) if t]
        pairs.update(frozenset(p) for p in combinations(seated, 2))
    assert max(pairs.values()) == 1


def test_a_final_table_of_the_best_three(referee):
    championship, _teams = gallo_championship(6)
    first = stage_services.stage_create(
        championship=championship, format="tables_swiss", settings={"rounds": 1}
    )
    rng = random.Random(3)
    for match in stage_services.round_generate(stage=first):
        play_table(match, rng, referee=referee)
    best = [line.team.pk for line in standing_selectors.stage_standings(stage=first)][:3]
    final = stage_services.stage_create(championship=championship, format="final_table")
    (match,) = stage_services.round_generate(stage=final)
    assert [match.team_a_id, match.team_b_id, match.team_c_id] == best
    played, _entries = play_table(match, rng, one_by_one=True, referee=referee)
    lines = standing_selectors.stage_standings(stage=final, use_snapshot=False)
    assert lines[0].team.pk == played.winner_id
    assert [line.points for line in lines][:1] == [3]


def test_tables_need_a_gallo_championship(championship, make_teams):
    make_teams(championship, 6)
    stage = stage_services.stage_create(championship=championship, format="tables_swiss")
    with translation.override("en"):
        with pytest.raises(TournamentError) as error:
            stage_services.round_generate(stage=stage)
        assert error.value.code == "not_gallo"
        assert "single players with gallo rules" in error.value.text


def _table(rules=POR_TURNO):
    championship, _teams = gallo_championship(3, rules)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return match


def test_refusals_are_the_engines_translated(referee):
    match = _table()
    names = records.names(result_selectors.match_detail(pk=match.pk))
    cases = [
        # A two-player (pica-pica) hand at a table of three.
        (
            {"pica_pica": [{"order": ["x", "y"], "events": []}], "events": []},
            "redondo_expected",
            "Hand 1 is a redondo hand: everyone plays it together.",
        ),
        # A player who is not at the table.
        (
            {"events": [{"by": "p999999", "call": "truco"}]},
            "unknown_player",
            "p999999 is not a player of this hand.",
        ),
    ]
    for record, code, sentence in cases:
        with translation.override("en"):
            with pytest.raises(TournamentError) as error:
                result_services.hand_record(match=match, record=record, recorded_by=referee)
            assert error.value.code == code
            assert sentence in error.value.text
    # A gallo out of turn: the dealer (the third seat before the first mano) is the gallo.
    mano = f"p{match.team_a.memberships.get().player_id}"
    gallo = names[f"p{match.team_c.memberships.get().player_id}"]
    with translation.override("en"):
        with pytest.raises(TournamentError) as error:
            result_services.hand_record(
                match=match, record={"gallo": mano, "events": []}, recorded_by=referee
            )
        assert error.value.code == "gallo_mismatch"
        assert f"The gallo of this hand is {gallo}, not {names[mano]}" in error.value.text
    assert not match.hands.exists()


def test_a_fijo_table_refuses_a_side_it_does_not_have(referee):
    match = _table(FIJO)
    with translation.override("en"):
        with pytest.raises(TournamentError) as error:
            result_services.hand_record(
                match=match, record={"events": [{"trick": "C"}]}, recorded_by=referee
            )
        assert error.value.code == "unknown_side"
        assert "is not a side of this hand" in error.value.text


def test_places_follow_the_hands_undone(referee):
    match = _table()
    rng = random.Random(11)
    played, entries = play_table(match, rng, referee=referee)
    assert played.places
    result_services.hand_delete_last(match=played, deleted_by=None)
    played.refresh_from_db()
    assert played.status == Match.Status.IN_PROGRESS and played.winner_id is None
    assert played.places == engine_places(played, entries[:-1])
    for _ in entries[:-1]:
        result_services.hand_delete_last(match=played, deleted_by=None)
    played.refresh_from_db()
    assert played.places == {} and (played.chicos_c, played.tantos_c) == (0, 0)


def test_swiss_tables_seat_only_the_players_checked_in(referee):
    championship, teams = gallo_championship(7)
    stage = stage_services.stage_create(
        championship=championship, format="tables_swiss", settings={"rounds": 1}
    )
    stage_services.check_in_all(stage=stage)
    stage_services.check_in_set(stage=stage, team=teams[0], present=False)
    created = stage_services.round_generate(stage=stage)
    seated = {t for m in created for t in (m.team_a_id, m.team_b_id, m.team_c_id) if t}
    assert seated == {t.pk for t in teams[1:]}  # six present: two tables of three
    assert sorted(m.is_table_of_three for m in created) == [True, True]
    assert created[0].round.absent == [teams[0].pk]
    lines = standing_selectors.stage_standings(stage=stage, use_snapshot=False)
    absent = next(line for line in lines if line.team == teams[0])
    assert (absent.played, absent.byes, absent.points) == (0, 0, 0)  # sat out, no result
