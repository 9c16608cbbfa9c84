"""What a match stores is what the engine's MatchResult says: order, scores, games, winner.

The Django side never derives a mano, a score before a hand or a game from the hands
itself; these tests read back every stored field and compare it with the engine's result
for the same record, on the demo championships and on random matches.
"""

import contextlib
import random

import pytest

from tournaments import demo as demo_data
from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError
from tournaments.models import Hand, Match
from tournaments.results import records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


def assert_stored_as_the_engine_says(match: Match) -> None:
    match = result_selectors.match_detail(pk=match.pk)
    hands = list(match.hands.order_by("number"))
    result = records.score(match, [h.record for h in hands])
    assert len(result.hands) == len(hands)
    for hand, scored in zip(hands, result.hands, strict=True):
        assert hand.number == scored.number
        assert hand.order == list(scored.order), hand.number
        assert hand.order[0] == scored.mano
        before = {"A": hand.score_before_a, "B": hand.score_before_b}
        assert before == dict(scored.score_before), hand.number
        assert {"A": hand.points_a, "B": hand.points_b} == dict(scored.points)
        assert {"A": hand.score_a, "B": hand.score_b} == dict(scored.score)
        assert hand.status == scored.status
        assert hand.game.number == scored.game
    finished = [g for g in match.games.all() if g.winner_id is not None]
    side = {match.team_a_id: "A", match.team_b_id: "B"}
    assert [(side[g.winner_id], {"A": g.score_a, "B": g.score_b}) for g in finished] == [
        (g.winner, dict(g.score)) for g in result.games
    ]
    assert (side[match.winner_id] if match.winner_id else None) == result.winner
    # The state the next save goes on from is the replay's.
    assert match.state == result.state.to_dict()


def test_every_demo_match_stores_the_engines_context(demo):
    # The demo's tables of three are checked by tests/tournaments/test_gallo_tables.py:
    # this comparison reads two sides.
    played = Match.objects.filter(hands__isnull=False, team_c__isnull=True).distinct()
    assert played.count() >= 20
    assert Hand.objects.count() >= 500
    for match in played:
        assert_stored_as_the_engine_says(match)


@pytest.mark.parametrize(
    ("preset", "team_size", "seed"),
    [
        ("argentine", 1, 1),
        ("argentine", 2, 2),
        ("argentine_flor", 2, 3),
        ("trucardo", 1, 4),
        ("catalan", 1, 5),
        ("catalan", 3, 6),
    ],
)
def test_random_matches_store_the_engines_context(db, preset, team_size, seed):
    rng = random.Random(seed)
    championship = championship_services.championship_create(
        name=f"Azar {seed}",
        slug=f"azar-{seed}",
        start_date="2026-11-22",
        preset=preset,
        team_size=team_size,
    )
    for name in ("Norte", "Sur"):
        players = [f"{name} {i}" for i in range(1, team_size + 1)]
        championship_services.team_create(
            championship=championship,
            name=name,
            players=players,
            captain=players[0] if team_size > 1 and preset == "catalan" else None,
        )
    championship_services.championship_set_status(championship=championship, status="registration")
    championship_services.championship_set_status(championship=championship, status="running")
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    match = result_selectors.match_detail(pk=match.pk)
    entries = demo_data.play_match_hands(rng, match)
    # Recorded one at a time, as a referee does, with a correction of an early hand and an
    # undo on the way: the stored context must follow every time.
    for entry in entries:
        result_services.hand_record(match=match, record=entry, recorded_by=None)
    assert_stored_as_the_engine_says(match)
    result_services.hand_delete_last(match=match)
    assert_stored_as_the_engine_says(match)
    first = match.hands.get(number=1)
    # Quick entry: side A takes the first two tricks. Later hands may no longer fit (the
    # chico ends earlier): then the correction is refused and nothing changes.
    with contextlib.suppress(TournamentError):
        result_services.hand_correct(
            hand=first,
            record={"events": [{"trick": "A"}, {"trick": "A"}]},
            corrected_by=None,
            reason="Mal anotada",
        )
    assert_stored_as_the_engine_says(match)
