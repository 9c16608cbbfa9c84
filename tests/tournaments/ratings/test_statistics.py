"""Statistics from the hands: a match whose every count is known by hand, kept as hands are
recorded, corrected and removed, rebuilt the same by ``manage.py stats_rebuild``."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.models import HandPlayerStat, HandSideStat, Player
from tournaments.ratings import statistics_selectors as stats
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services


@pytest.fixture
def match(db):
    championship = ChampionshipFactory(
        rules={"preset": "argentine_flor", "falta_envido": "whole_chico"}
    )
    for seed in (1, 2):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


def known_hands(seats):
    """Five hands whose facts a scorer counts by hand (seats a1 b1 a2 b2, quick entry)."""
    a1, b1, a2, b2 = seats
    return [
        # 1: a1's envido accepted by b1 and won by A (2); b1's truco raised to retruco by
        # a2, refused by b2: A takes the truco at its first step (2). A 4, B 0.
        {
            "events": [
                {"by": a1, "call": "envido"},
                {"by": b1, "answer": "quiero"},
                {"envido_winner": "A"},
                {"by": b1, "call": "truco"},
                {"by": a2, "call": "retruco"},
                {"by": b2, "answer": "no_quiero"},
            ]
        },
        # 2: a1 sings flor (3), then B goes to the mazo (1). A 8, B 0.
        {
            "events": [
                {"by": a1, "call": "flor"},
                {"by": b1, "mazo": True},
                {"by": b2, "mazo": True},
            ]
        },
        # 3: a penalty to B (2), then B takes two tricks (1). A 8, B 3.
        {
            "events": [
                {"penalty": {"to": "B", "points": 2, "reason": "cards shown"}},
                {"trick": "B"},
                {"trick": "B"},
            ]
        },
        # 4: a penalty to A (12), A takes two tricks (1). A 21 (buenas), B 3 (malas).
        {
            "events": [
                {"penalty": {"to": "A", "points": 12, "reason": "cards shown"}},
                {"trick": "A"},
                {"trick": "A"},
            ]
        },
        # 5: a1's falta envido accepted by b1, won by B: the rest of the chico (27), won from
        # the malas.
        {
            "events": [
                {"by": a1, "call": "falta_envido"},
                {"by": b1, "answer": "quiero"},
                {"envido_winner": "B"},
            ]
        },
    ]


def record_all(match, hands):
    for hand in hands:
        result_services.hand_record(match=match, record=hand, recorded_by=None)


def player(key):
    return Player.objects.get(pk=int(key[1:]))


def test_every_count_of_a_match_known_by_hand(match):
    record_all(match, known_hands(match.seats))
    a1, b1, a2, b2 = match.seats
    team_a = stats.team_statistics(team=match.team_a)
    team_b = stats.team_statistics(team=match.team_b)

    assert (team_a.hands, team_b.hands) == (5, 5)
    assert (team_a.points, team_a.envido_points, team_a.flor_points) == (21, 2, 3)
    assert (team_a.truco_points_0, team_a.truco_points_1, team_a.mazo_points) == (1, 2, 1)
    assert (team_a.penalty_points, team_a.penalties, team_a.points_per_hand) == (12, 1, 4.2)
    assert (team_b.points, team_b.envido_points, team_b.penalty_points) == (30, 27, 2)
    assert team_b.truco_points_0 == 1
    # The envido: A opened three (one accepted and won, the falta envido lost), B none.
    assert (team_a.envido_called, team_b.envido_called) == (2, 0)
    assert (team_b.envido_accepted, team_a.envido_accepted, team_a.envido_refused) == (2, 0, 0)
    assert (team_a.envido_played, team_a.envido_won, team_b.envido_won) == (2, 1, 1)
    # The truco: B's call raised by A; A's retruco refused by B.
    assert (team_b.truco_calls, team_b.truco_raised, team_b.truco_accepted) == (1, 1, 0)
    assert (team_a.truco_calls, team_a.truco_refused, team_a.truco_answers) == (1, 1, 1)
    assert (team_a.flor_sung, team_b.mazos, team_a.mazos) == (1, 1, 0)
    assert (team_b.chicos_won, team_b.comebacks, team_a.comebacks) == (1, 1, 0)

    # A person: his own calls, his side's points in the hands he played.
    first = stats.person_statistics(person=player(a1).person)
    assert (first.hands, first.points, first.envido_called, first.flor_sung) == (5, 21, 2, 1)
    second = stats.person_statistics(person=player(b1).person)
    assert (second.envido_accepted, second.truco_calls, second.truco_raised) == (2, 1, 1)
    assert (second.mazos, second.comebacks, second.points) == (1, 1, 30)
    assert stats.person_statistics(person=player(a2).person).truco_refused == 1
    assert stats.person_statistics(person=player(b2).person).truco_answers == 1

    found = stats.championship_statistics(championship=match.stage.championship)
    assert (found.totals.hands, found.totals.points, found.totals.comebacks) == (5, 51, 1)
    assert [row.team for row in found.teams] == [match.team_b, match.team_a]
    assert len(found.people) == 4
    assert (found.biggest_hand.number, found.biggest_hand.points) == (5, 27)
    assert found.biggest_hand.team == match.team_b
    assert (found.longest_match.match, found.longest_match.hands) == (match, 5)


def test_a_correction_and_a_removal_change_the_counts(match):
    hands = known_hands(match.seats)
    record_all(match, hands)
    third = match.hands.get(number=3)
    result_services.hand_correct(
        hand=third,
        record={"events": [{"trick": "B"}, {"trick": "B"}]},
        corrected_by=None,
        reason="no penalty",
    )
    team_b = stats.team_statistics(team=match.team_b)
    assert (team_b.penalties, team_b.penalty_points, team_b.points, team_b.hands) == (0, 0, 30, 5)
    assert team_b.comebacks == 1

    result_services.hand_remove(hand=match.hands.get(number=2), removed_by=None, reason="twice")
    team_a = stats.team_statistics(team=match.team_a)
    assert (team_a.hands, team_a.flor_sung, team_a.flor_points, team_a.points) == (4, 0, 0, 17)
    assert stats.team_statistics(team=match.team_b).mazos == 0
    assert HandSideStat.objects.filter(match=match).count() == 8
    assert HandPlayerStat.objects.filter(hand__match=match).count() == 16


def test_the_rebuild_gives_what_was_kept(match):
    record_all(match, known_hands(match.seats))
    kept = sorted(HandSideStat.objects.values_list("hand__number", "side", "points", "comeback"))
    HandSideStat.objects.all().delete()
    assert stats.team_statistics(team=match.team_a).hands == 0

    call_command("stats_rebuild")

    again = sorted(HandSideStat.objects.values_list("hand__number", "side", "points", "comeback"))
    assert again == kept
    assert HandPlayerStat.objects.count() == 20
