"""A match's games, scores and winner are derived from its hand records by the engine."""

import pytest
from django.utils import translation

from tests.tournaments.conftest import chico_hand
from tournaments.errors import TournamentError
from tournaments.models import Game, Hand, Match
from tournaments.results import records
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.fixture
def match(championship, make_teams):
    make_teams(championship, 2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


def mazo(*players):
    return {"events": [{"by": player, "mazo": True} for player in players]}


def test_a_hand_scores_points_and_keeps_the_game_open(match, referee):
    a1, b1, a2, b2 = match.seats
    hand = result_services.hand_record(match=match, record=mazo(b1, b2), recorded_by=referee)

    hand.refresh_from_db()
    match.refresh_from_db()
    # Going to the mazo at once: the truco value plus the envido point (docs/rules.md).
    assert (hand.points_a, hand.points_b, hand.status) == (2, 0, "complete")
    assert (hand.number, hand.recorded_by, hand.order) == (1, referee, [a1, b1, a2, b2])
    assert match.status == Match.Status.IN_PROGRESS
    assert match.winner is None
    game = Game.objects.get(match=match)
    assert (game.number, game.score_a, game.score_b, game.winner) == (1, 2, 0, None)


def test_the_mano_rotates_and_the_winner_is_derived(match, referee):
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=referee)
    result_services.hand_record(match=match, record=chico_hand(match, "B"), recorded_by=referee)
    result_services.hand_record(match=match, record=chico_hand(match, "B"), recorded_by=referee)

    match.refresh_from_db()
    hands = list(match.hands.order_by("number"))
    assert [h.order[0] for h in hands] == match.seats[:3]
    assert [(g.number, g.winner_id) for g in match.games.order_by("number")] == [
        (1, match.team_a_id),
        (2, match.team_b_id),
        (3, match.team_b_id),
    ]
    assert match.status == Match.Status.FINISHED
    assert match.winner_id == match.team_b_id
    assert (match.chicos_a, match.chicos_b, match.tantos_a, match.tantos_b) == (1, 2, 30, 60)
    # The match is over: a further hand is refused and nothing is stored.
    with pytest.raises(TournamentError):
        result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=referee)
    assert match.hands.count() == 3


def test_a_correction_derives_the_result_again(match, referee):
    # The match's own referee may correct it (until a side confirms the result).
    result_services.match_assign(match=match, referee=referee)
    first = result_services.hand_record(
        match=match, record=chico_hand(match, "A"), recorded_by=referee
    )
    result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=referee)
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id

    fixed = dict(first.record, events=[*first.record["events"][:2], {"envido_winner": "B"}])
    result_services.hand_correct(
        hand=first, record=fixed, corrected_by=referee, reason="Mal anotada"
    )

    match.refresh_from_db()
    assert match.winner is None
    assert match.status == Match.Status.IN_PROGRESS
    assert (match.chicos_a, match.chicos_b) == (1, 1)
    first.refresh_from_db()
    assert first.corrected_at is not None and first.points_b == 30

    result_services.hand_delete_last(match=match)
    match.refresh_from_db()
    assert (match.chicos_a, match.chicos_b, match.hands.count()) == (0, 1, 1)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "It is not {player}'s turn to play a card: {expected} plays next."),
        ("es", "No es el turno de {player} para jugar una carta: juega {expected}."),
    ],
)
def test_an_illegal_hand_stores_nothing_and_says_why(match, referee, language, text):
    _a1, b1, a2, b2 = match.seats
    result_services.hand_record(match=match, record=mazo(b1, b2), recorded_by=referee)
    names = records.names(match)
    # Hand 2: b1 is mano; a2 plays out of turn.
    bad = {
        "cards": {b1: ["1E", "7O", "4C"], a2: ["3B", "2C", "5O"]},
        "events": [{"by": a2, "play": "3B"}],
    }
    before = list(Hand.objects.values_list("pk", "points_a", "points_b"))

    with pytest.raises(TournamentError) as error:
        result_services.hand_record(match=match, record=bad, recorded_by=referee)

    assert error.value.code == "not_your_turn"
    assert (error.value.hand, error.value.event) == (2, 0)
    with translation.override(language):
        assert error.value.text == text.format(player=names[a2], expected=names[b1])
    assert list(Hand.objects.values_list("pk", "points_a", "points_b")) == before
    match.refresh_from_db()
    assert (match.tantos_a, match.tantos_b) == (2, 0)


def test_a_record_that_is_not_an_object_is_refused(match, referee):
    with pytest.raises(TournamentError) as error:
        result_services.hand_record(match=match, record=["mazo"], recorded_by=referee)
    assert error.value.code == "bad_record"
    assert not Hand.objects.exists()


def test_walkover_and_forfeit(match, referee):
    result_services.hand_record(match=match, record=chico_hand(match, "B"), recorded_by=referee)
    with pytest.raises(TournamentError):
        result_services.match_walkover(match=match, winner=match.team_a, reason="No se presentó")
    result_services.match_walkover(
        match=match, winner=match.team_a, reason="Abandonó", forfeit=True, recorded_by=referee
    )
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER
    assert match.outcome == Match.Outcome.FORFEIT
    assert (match.chicos_a, match.chicos_b, match.winner_id) == (2, 1, match.team_a_id)
    with pytest.raises(TournamentError):
        result_services.hand_record(match=match, record=chico_hand(match, "A"), recorded_by=referee)
