"""Corrections with history and confirmed results, through the results services.

Every change of a result (a hand recorded, corrected or removed, a walkover, a side's
confirmation or dispute) leaves a ``HandRevision``; the match, its bracket and the
standings follow a correction, and a correction the engine refuses stores nothing.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import (
    ChampionshipFactory,
    RefereeFactory,
    StaffFactory,
    TeamFactory,
)
from tournaments.errors import TournamentError
from tournaments.models import Hand, HandRevision, Match, MatchConfirmation
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors

POINT_A = {"events": [{"trick": "A"}, {"trick": "A"}]}
POINT_B = {"events": [{"trick": "B"}, {"trick": "B"}]}


def five_hands(match: Match, referee=None) -> list[Hand]:
    """A point to A, a chico to A, a point to B, a point to A, a chico to A: A wins 2-0."""
    hands = []
    for make in (
        lambda: POINT_A,
        lambda: chico_hand(match, "A"),
        lambda: POINT_B,
        lambda: POINT_A,
        lambda: chico_hand(match, "A"),
    ):
        hands.append(result_services.hand_record(match=match, record=make(), recorded_by=referee))
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id
    return hands


def to_b(hand: Hand) -> dict:
    """The same chico hand, the envido given to B instead."""
    events = [*hand.record["events"][:2], {"envido_winner": "B"}]
    return dict(hand.record, events=events)


def wins(stage) -> dict[int, int]:
    lines = standing_selectors.stage_standings(stage=stage, use_snapshot=False)
    return {line.team.pk: line.wins for line in lines}


@pytest.fixture
def organiser(db):
    return StaffFactory(username="organitzadora")


@pytest.fixture
def match(db, referee, organiser):
    championship = ChampionshipFactory()
    championship.organisers.add(organiser)
    TeamFactory(championship=championship, seed=1)
    TeamFactory(championship=championship, seed=2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_assign(match=match, referee=referee)
    return result_services.match_start(match=match)


def test_correcting_hand_2_of_5_replays_the_match_and_keeps_the_revision(match, referee, organiser):
    hands = five_hands(match, referee)
    assert wins(match.stage)[match.team_a_id] == 1
    base = result_selectors.last_revision(match=match)

    result_services.hand_correct(
        hand=hands[1],
        record=to_b(hands[1]),
        corrected_by=organiser,
        reason="The envido went to B: both captains agree.",
        expected_revision=base,
    )

    match.refresh_from_db()
    assert (match.chicos_a, match.chicos_b, match.winner_id) == (1, 1, None)
    assert match.status == Match.Status.IN_PROGRESS
    assert wins(match.stage)[match.team_a_id] == 0
    revision = result_selectors.match_revisions(match=match).last()
    assert revision.action == HandRevision.Action.CORRECTED
    assert revision.number == 2 and revision.by == organiser
    assert revision.reason == "The envido went to B: both captains agree."
    assert revision.before["record"] == hands[1].record
    assert revision.after["record"] == to_b(hands[1])
    assert revision.before["points"]["A"] > 0 and revision.after["points"]["B"] > 0
    # Five recorded, one corrected: the history has them all, in order.
    actions = [r.action for r in result_selectors.match_revisions(match=match)]
    assert actions == ["recorded"] * 5 + ["corrected"]
    assert Hand.objects.get(match=match, number=2).corrected_at is not None


def test_a_correction_needs_a_reason_and_an_illegal_one_stores_nothing(match, organiser):
    hands = five_hands(match)
    count = HandRevision.objects.count()
    with pytest.raises(TournamentError) as blank:
        result_services.hand_correct(
            hand=hands[1], record=to_b(hands[1]), corrected_by=organiser, reason="  "
        )
    assert blank.value.code == "reason_missing"
    illegal = {"events": [{"by": "p999999", "call": "truco"}]}
    with pytest.raises(TournamentError):
        result_services.hand_correct(
            hand=hands[1], record=illegal, corrected_by=organiser, reason="Typo"
        )
    assert HandRevision.objects.count() == count
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id
    assert Hand.objects.get(match=match, number=2).record == hands[1].record


def test_removing_a_middle_hand_renumbers_the_later_ones(match, organiser):
    hands = five_hands(match)
    result_services.hand_remove(hand=hands[0], removed_by=organiser, reason="Never played")
    assert list(match.hands.order_by("number").values_list("pk", flat=True)) == [
        h.pk for h in hands[1:]
    ]
    assert list(match.hands.values_list("number", flat=True)) == [1, 2, 3, 4]
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id
    # The old hand 2 is hand 1 now, played from 0–0 instead of after A's point.
    assert hands[1].score_before_a == 1
    assert Hand.objects.get(pk=hands[1].pk).score_before_a == 0
    revision = HandRevision.objects.last()
    assert (revision.action, revision.number, revision.after) == ("removed", 1, None)
    assert revision.before["record"] == POINT_A


def test_the_referee_corrects_until_a_side_confirms_then_only_the_organiser(
    match, referee, organiser
):
    hands = five_hands(match, referee)
    other = RefereeFactory(championships=[match.stage.championship])
    with pytest.raises(TournamentError) as stranger:
        result_services.hand_correct(
            hand=hands[0], record=POINT_B, corrected_by=other, reason="Wrong side"
        )
    assert stranger.value.code == "not_match_referee"
    result_services.hand_correct(
        hand=hands[0], record=POINT_B, corrected_by=referee, reason="Wrong side"
    )
    result_services.match_confirm(match=match, side="A", by=referee)
    with pytest.raises(TournamentError) as confirmed:
        result_services.hand_correct(
            hand=hands[0], record=POINT_A, corrected_by=referee, reason="Back"
        )
    assert confirmed.value.code == "result_confirmed"
    with pytest.raises(TournamentError):
        result_services.hand_delete_last(match=match, deleted_by=referee)
    # The organiser may; the side's confirmation of the old result is dropped.
    result_services.hand_correct(hand=hands[0], record=POINT_A, corrected_by=organiser, reason="B")
    assert not MatchConfirmation.objects.filter(match=match).exists()


def test_both_sides_confirm_and_the_result_is_no_longer_provisional(match, referee, organiser):
    five_hands(match, referee)
    match.refresh_from_db()
    assert match.is_provisional
    captain_a = match.team_a.memberships.first().player
    player_b = match.team_b.memberships.last().player
    with pytest.raises(TournamentError) as wrong:
        result_services.match_confirm(match=match, side="A", by=referee, player=player_b)
    assert wrong.value.code == "not_in_team"
    result_services.match_confirm(match=match, side="A", by=referee, player=captain_a)
    match.refresh_from_db()
    assert match.is_provisional  # one side is not enough
    with pytest.raises(TournamentError) as twice:
        result_services.match_confirm(match=match, side="A", by=referee, player=captain_a)
    assert twice.value.code == "already_answered"
    result_services.match_confirm(match=match, side="B", by=referee, player=player_b)
    match.refresh_from_db()
    assert not match.is_provisional and match.confirmed_at is not None
    confirmations = result_selectors.match_confirmations(match=match)
    assert confirmations["A"].player == captain_a and not confirmations["A"].on_behalf
    actions = list(HandRevision.objects.filter(side__in="AB").values_list("action", "side"))
    assert actions == [("confirmed", "A"), ("confirmed", "B")]


def test_a_dispute_goes_to_the_organisers_queue_until_he_confirms_for_the_side(
    match, referee, organiser
):
    five_hands(match, referee)
    with pytest.raises(TournamentError) as silent:
        result_services.match_dispute(match=match, side="B", comment=" ", by=referee)
    assert silent.value.code == "comment_missing"
    result_services.match_confirm(match=match, side="A", by=referee)
    result_services.match_dispute(match=match, side="B", comment="Hand 2 was ours", by=referee)
    championship = match.stage.championship
    (dispute,) = result_selectors.disputed_matches(championship=championship)
    assert (dispute.match_id, dispute.comment) == (match.pk, "Hand 2 was ours")
    match.refresh_from_db()
    assert match.is_provisional
    result_services.match_confirm(match=match, side="B", by=organiser)
    assert not result_selectors.disputed_matches(championship=championship).exists()
    match.refresh_from_db()
    assert not match.is_provisional
    assert result_selectors.match_confirmations(match=match)["B"].on_behalf


def test_an_unfinished_match_is_not_confirmed(match, referee):
    result_services.hand_record(match=match, record=POINT_A, recorded_by=referee)
    with pytest.raises(TournamentError) as early:
        result_services.match_confirm(match=match, side="A", by=referee)
    assert early.value.code == "not_finished"


def test_a_stale_page_cannot_correct(match, organiser):
    hands = five_hands(match)
    seen = result_selectors.last_revision(match=match)
    result_services.hand_correct(
        hand=hands[0], record=POINT_B, corrected_by=organiser, reason="1", expected_revision=seen
    )
    with pytest.raises(TournamentError) as stale:
        result_services.hand_remove(
            hand=hands[2], removed_by=organiser, reason="2", expected_revision=seen
        )
    assert stale.value.code == "stale_result"
    assert match.hands.count() == 5


def test_the_tablets_undo_and_a_walkover_are_in_the_history(match, referee):
    result_services.hand_record(match=match, record=POINT_A, recorded_by=referee)
    result_services.hand_delete_last(match=match, deleted_by=referee)
    result_services.hand_record(match=match, record=POINT_B, recorded_by=referee)
    result_services.match_walkover(
        match=match, winner=match.team_b, reason="Se retiraron", forfeit=True, recorded_by=referee
    )
    rows = list(
        result_selectors.championship_revisions(championship=match.stage.championship).values_list(
            "action", "number", "reason"
        )
    )
    assert rows == [
        ("walkover", None, "Se retiraron"),
        ("recorded", 1, ""),
        ("removed", 1, ""),
        ("recorded", 1, ""),
    ]
    match.refresh_from_db()
    assert not match.is_provisional  # the organiser's decision is final


def test_a_bracket_winner_changes_only_while_the_next_match_has_no_hand(db, organiser):
    championship = ChampionshipFactory()
    championship.organisers.add(organiser)
    for seed in range(1, 5):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="single_elimination")
    semis = stage_services.round_generate(stage=stage)
    first, second = semis
    for semi in semis:
        result_services.match_start(match=semi)
        for _ in range(2):
            result_services.hand_record(match=semi, record=chico_hand(semi, "A"), recorded_by=None)
    final = Match.objects.get(stage=stage, bracket_id__startswith="W2")
    assert first.team_a_id in (final.team_a_id, final.team_b_id)

    # No hand in the final yet: the corrected semi-final puts the other team in.
    opening = first.hands.get(number=1)
    result_services.hand_correct(
        hand=opening, record=to_b(opening), corrected_by=organiser, reason="Envido to B"
    )
    result_services.hand_record(match=first, record=chico_hand(first, "B"), recorded_by=None)
    final = Match.objects.get(stage=stage, bracket_id__startswith="W2")
    assert first.team_b_id in (final.team_a_id, final.team_b_id)

    # Once the final has a hand, a correction that changes who plays it is refused whole.
    result_services.match_start(match=final)
    result_services.hand_record(match=final, record=POINT_A, recorded_by=None)
    count = HandRevision.objects.count()
    last = second.hands.get(number=2)
    with pytest.raises(TournamentError) as refused:
        result_services.hand_correct(
            hand=last, record=to_b(last), corrected_by=organiser, reason="Envido to B"
        )
    assert refused.value.code == "bracket_conflict"
    assert HandRevision.objects.count() == count
    second.refresh_from_db()
    assert second.winner_id == second.team_a_id


@pytest.mark.django_db(transaction=True)
def test_two_organisers_correcting_one_match_at_once_one_is_told_it_changed():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    organisers = [StaffFactory(username=f"org{n}") for n in range(2)]
    championship = ChampionshipFactory()
    championship.organisers.add(*organisers)
    TeamFactory(championship=championship, seed=1)
    TeamFactory(championship=championship, seed=2)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    result_services.match_start(match=match)
    hands = five_hands(match)
    seen = result_selectors.last_revision(match=match)
    # Both opened the page at once; one corrects hand 1, the other hand 2.
    changes = [(hands[0], POINT_B), (hands[1], to_b(hands[1]))]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def correct(n: int) -> None:
        hand, record = changes[n]
        try:
            barrier.wait()
            result_services.hand_correct(
                hand=hand,
                record=record,
                corrected_by=organisers[n],
                reason=f"Organiser {n}",
                expected_revision=seen,
            )
            outcomes.append("stored")
        except TournamentError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=correct, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # The match lock serialises them; the second finds the match changed under its page.
    assert sorted(outcomes) == ["stale_result", "stored"]
    assert HandRevision.objects.filter(action="corrected").count() == 1
    corrected = HandRevision.objects.get(action="corrected")
    stored = Hand.objects.get(match=match, number=corrected.number)
    assert stored.record == corrected.after["record"]


def test_a_bye_is_never_provisional_nor_confirmed(db, organiser):
    championship = ChampionshipFactory()
    championship.organisers.add(organiser)
    for seed in range(1, 4):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    bye = next(m for m in stage_services.round_generate(stage=stage) if m.is_bye)
    assert bye.status == Match.Status.FINISHED and not bye.is_provisional
    with pytest.raises(TournamentError) as refused:
        result_services.match_confirm(match=bye, side="A", by=organiser)
    assert refused.value.code == "not_finished"
    assert not result_selectors.provisional_matches(championship=championship).exists()
