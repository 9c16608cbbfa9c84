"""A match recorded as its result: reported by a team, typed at the desk, confirmed,
disputed, corrected, and what follows from it (tournaments/results/services/reported.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.errors import TournamentError
from tournaments.models import (
    Championship,
    HandRevision,
    Match,
    MatchConfirmation,
    Scorekeeping,
)
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings.selectors import stage_standings

WON_2_1 = [
    {"score": {"A": 30, "B": 25}},
    {"score": {"A": 18, "B": 30}},
    {"score": {"A": 30, "B": 12}},
]


def _scores(*pairs):
    return [{"score": {"A": a, "B": b}} for a, b in pairs]


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user(username="organiser")


def _match(organiser, *, scorekeeping=Scorekeeping.RESULTS, rules=None, teams=2, **extra) -> Match:
    championship = ChampionshipFactory(
        scorekeeping=scorekeeping,
        rules=rules or {"preset": "argentine"},
        **extra,
    )
    championship.organisers.add(organiser)
    for seed in range(1, teams + 1):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    return stage_services.round_generate(stage=stage)[0]


def test_a_reported_result_counts_as_a_match_entered_hand_by_hand(organiser):
    match = _match(organiser)
    answer = result_services.match_result_report(match=match, side="A", games=WON_2_1)
    match.refresh_from_db()
    assert answer.status == MatchConfirmation.Status.CONFIRMED and answer.side == "A"
    assert match.recorded == Match.Recorded.RESULT
    assert match.status == Match.Status.FINISHED and match.winner_id == match.team_a_id
    assert (match.chicos_a, match.chicos_b) == (2, 1)
    assert (match.tantos_a, match.tantos_b) == (78, 67)
    games = list(match.games.order_by("number").values_list("score_a", "score_b", "winner_id"))
    assert games == [
        (30, 25, match.team_a_id),
        (18, 30, match.team_b_id),
        (30, 12, match.team_a_id),
    ]
    assert match.is_provisional  # the other side has not answered yet
    assert match.reported_side == "A" and match.reported_at is not None
    assert not match.hands.exists()
    line = stage_standings(stage=match.stage)[0]
    assert line.team.pk == match.team_a_id and (line.chicos_for, line.tantos_for) == (2, 78)
    revision = match.revisions.get(action=HandRevision.Action.RESULT)
    assert revision.after == {
        "games": [{"A": 30, "B": 25}, {"A": 18, "B": 30}, {"A": 30, "B": 12}],
        "winner": "A",
    }


def test_the_other_side_confirms_and_the_result_is_final(organiser):
    match = _match(organiser)
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    result_services.match_confirm(match=match, side="B", by=None)
    match.refresh_from_db()
    assert match.confirmed_at is not None and not match.is_provisional


def test_the_other_side_reporting_the_same_result_confirms_it(organiser):
    match = _match(organiser)
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    answer = result_services.match_result_report(match=match, side="B", games=WON_2_1)
    match.refresh_from_db()
    assert answer.status == MatchConfirmation.Status.CONFIRMED
    assert match.confirmed_at is not None


def test_another_result_from_the_other_side_is_its_dispute_never_a_second_result(organiser):
    match = _match(organiser)
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    other = _scores((25, 30), (30, 18), (12, 30))
    answer = result_services.match_result_report(match=match, side="B", games=other)
    match.refresh_from_db()
    assert answer.status == MatchConfirmation.Status.DISPUTED
    assert "1–2 (25–30, 30–18, 12–30)" in answer.comment
    assert match.winner_id == match.team_a_id and match.games.count() == 3
    assert match.revisions.filter(action=HandRevision.Action.RESULT).count() == 1


def test_a_side_that_answered_cannot_report_again(organiser):
    match = _match(organiser)
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    with pytest.raises(TournamentError) as caught:
        result_services.match_result_report(match=match, side="A", games=_scores((30, 0)))
    assert caught.value.code == "already_answered"


@pytest.mark.parametrize(
    ("games", "code", "english", "spanish"),
    [
        (_scores((30, 30)), "chico_tied", "reached 30", "llegaron los dos a 30"),
        (_scores((31, 12)), "chico_past_target", "has 31", "tiene 31"),
        (_scores((30, 5), (30, 7), (12, 30)), "chico_after_match", "chico 3", "chico 3"),
        (_scores((30, 5)), "match_not_decided", "not over", "no ha terminado"),
    ],
)
def test_an_impossible_result_is_refused_with_a_sentence_and_nothing_stored(
    organiser, games, code, english, spanish
):
    match = _match(organiser)
    for language, word in (("en", english), ("es", spanish)):
        with translation.override(language):
            with pytest.raises(TournamentError) as caught:
                result_services.match_result_report(match=match, side="A", games=games)
            assert caught.value.code == code
            # A sentence in the reader's language, naming teams, never the engine's A or B.
            sentence = " ".join(caught.value.messages)
            assert word in sentence and " A " not in sentence and " B " not in sentence
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.recorded == Match.Recorded.HANDS
    assert not match.games.exists() and not match.confirmations.exists()


def test_a_catalan_joc_must_end_at_12(organiser):
    match = _match(organiser, rules={"preset": "catalan"}, team_size=3)
    with pytest.raises(TournamentError) as caught:
        result_services.match_result_report(match=match, side="A", games=_scores((12, 12)))
    assert caught.value.code == "chico_tied"
    result_services.match_result_report(
        match=match, side="A", games=_scores((12, 11), (9, 12), (12, 4))
    )
    match.refresh_from_db()
    assert (match.chicos_a, match.chicos_b) == (2, 1)


def test_a_team_reports_nothing_where_the_referees_keep_the_score(organiser):
    match = _match(organiser, scorekeeping=Scorekeeping.REFEREES)
    with pytest.raises(TournamentError) as caught:
        result_services.match_result_report(match=match, side="A", games=WON_2_1)
    assert caught.value.code == "referees_keep_score"


def test_a_stage_may_differ_from_its_championship(organiser):
    match = _match(organiser, scorekeeping=Scorekeeping.REFEREES)
    match.stage.scorekeeping = Scorekeeping.RESULTS
    match.stage.save()
    result_services.match_result_report(match=match, side="B", games=WON_2_1)
    assert Match.objects.get(pk=match.pk).recorded == Match.Recorded.RESULT


def test_the_desk_types_a_result_confirmed_for_both_sides(organiser):
    match = _match(organiser)
    match = result_services.match_result_record(match=match, games=WON_2_1, by=organiser)
    assert match.confirmed_at is not None
    answers = set(match.confirmations.values_list("side", "status", "on_behalf"))
    assert answers == {("A", "confirmed", True), ("B", "confirmed", True)}


def test_the_desk_never_overwrites_another_reported_result(organiser):
    match = _match(organiser)
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    with pytest.raises(TournamentError) as caught:
        result_services.match_result_record(
            match=match, games=_scores((30, 0), (30, 1)), by=organiser
        )
    assert caught.value.code == "result_differs"
    assert "2–1 (30–25, 18–30, 30–12)" in caught.value.messages[0]
    # The same result typed at the desk settles it.
    match = result_services.match_result_record(match=match, games=WON_2_1, by=organiser)
    assert match.confirmed_at is not None


def test_only_the_organiser_types_at_the_desk(organiser):
    match = _match(organiser)
    stranger = get_user_model().objects.create_user(username="stranger")
    with pytest.raises(TournamentError):
        result_services.match_result_record(match=match, games=WON_2_1, by=stranger)
    assert not Match.objects.get(pk=match.pk).games.exists()


def test_the_organiser_corrects_a_disputed_result_with_a_reason(organiser):
    match = _match(organiser)
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    other = _scores((25, 30), (30, 18), (12, 30))
    result_services.match_result_report(match=match, side="B", games=other)
    with pytest.raises(TournamentError) as caught:
        result_services.match_result_correct(match=match, games=other, reason=" ", by=organiser)
    assert caught.value.code == "reason_missing"
    match = result_services.match_result_correct(
        match=match, games=other, reason="The sheet says B won.", by=organiser
    )
    assert match.winner_id == match.team_b_id and match.confirmed_at is not None
    revision = match.revisions.get(action=HandRevision.Action.RESULT_CORRECTED)
    assert revision.before["winner"] == "A" and revision.after["winner"] == "B"
    assert revision.reason == "The sheet says B won." and revision.by == organiser


def test_a_match_kept_hand_by_hand_gets_no_result_and_a_result_gets_no_hands(organiser, referee):
    match = _match(organiser, scorekeeping=Scorekeeping.PLAYERS)
    kept = _match(organiser, scorekeeping=Scorekeeping.PLAYERS)
    from tests.tournaments.conftest import chico_hand

    result_services.match_start(match=kept)
    result_services.hand_record(match=kept, record=chico_hand(kept, "A"), recorded_by=referee)
    with pytest.raises(TournamentError) as caught:
        result_services.match_result_report(match=kept, side="B", games=WON_2_1)
    assert caught.value.code == "kept_hand_by_hand"
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    with pytest.raises(TournamentError) as caught:
        result_services.hand_record(match=match, record=chico_hand(kept, "A"), recorded_by=referee)
    assert caught.value.code == "result_reported"


def test_the_organiser_changes_how_a_match_is_recorded_with_a_reason(organiser, referee):
    from tests.tournaments.conftest import chico_hand

    match = _match(organiser, scorekeeping=Scorekeeping.PLAYERS)
    result_services.match_start(match=match)
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=referee)
    match = result_services.match_recording_change(
        match=match, to=Match.Recorded.RESULT, reason="The phone died.", by=organiser
    )
    assert not match.hands.exists() and match.recorded == Match.Recorded.RESULT
    revision = match.revisions.get(action=HandRevision.Action.CONVERTED)
    assert revision.before["hands"] == 1 and revision.reason == "The phone died."
    result_services.match_result_record(match=match, games=WON_2_1, by=organiser)
    match = result_services.match_recording_change(
        match=match, to=Match.Recorded.HANDS, reason="Kept on paper after all.", by=organiser
    )
    assert match.status == Match.Status.SCHEDULED and not match.games.exists()


def test_a_table_of_three_reports_its_three_scores_and_gets_its_places(organiser):
    championship = ChampionshipFactory(
        scorekeeping=Scorekeeping.RESULTS,
        rules={"preset": "argentine", "gallo": "por_turno", "target": 15, "best_of": 1},
        team_size=1,
    )
    for seed in (1, 2, 3):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    with pytest.raises(TournamentError) as caught:
        result_services.match_result_report(
            match=match, side="C", games=[{"score": {"A": 15, "B": 15, "C": 3}}]
        )
    assert caught.value.code == "chico_winner_needed"
    result_services.match_result_report(
        match=match, side="C", games=[{"score": {"A": 15, "B": 9, "C": 3}}]
    )
    match.refresh_from_db()
    assert match.places == {
        str(match.team_a_id): 1,
        str(match.team_b_id): 2,
        str(match.team_c_id): 3,
    }
    for side in ("A", "B"):
        result_services.match_confirm(match=match, side=side, by=None)
    match.refresh_from_db()
    assert match.confirmed_at is not None


def test_changing_who_keeps_the_score_touches_no_result(organiser):
    match = _match(organiser)
    result_services.match_result_report(match=match, side="A", games=WON_2_1)
    championship = match.stage.championship
    championship.scorekeeping = Scorekeeping.REFEREES
    championship.save()
    match.refresh_from_db()
    assert match.recorded == Match.Recorded.RESULT and match.winner_id == match.team_a_id
    assert Championship.objects.get(pk=championship.pk).scorekeeping == "referees"
