"""Two tablets sending hand 1 of a table of three at once: one is recorded (PostgreSQL)."""

import random
import threading

import pytest
from django.db import IntegrityError, connection, connections

import scoring
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments.demo import play_hand
from tournaments.errors import TournamentError
from tournaments.models import Hand, HandDraft, Match
from tournaments.results import drafts, records
from tournaments.results import selectors as result_selectors
from tournaments.results import services as result_services
from tournaments.results.numbering import hand_record_numbered
from tournaments.stages import services as stage_services


def _started_table(gallo: str) -> Match:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    championship = ChampionshipFactory(
        rules={"preset": "argentine", "gallo": gallo, "falta_envido": "whole_chico"}, team_size=1
    )
    for seed in (1, 2, 3):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="tables_round_robin")
    (match,) = stage_services.round_generate(stage=stage)
    return result_services.match_start(match=match)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("gallo", ["por_turno", "fijo"])
def test_two_hands_numbered_one_at_a_table_of_three(gallo):
    match = _started_table(gallo)
    head = records.match_record(result_selectors.match_detail(pk=match.pk), [])
    context = dict(scoring.score_match_result(head).next.record)
    # Two different legal first hands, as two tablets holding different sheets would send.
    sent = [play_hand(random.Random(seed), context) for seed in (1, 2)]
    assert sent[0] != sent[1]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def tablet(record: dict) -> None:
        try:
            barrier.wait()
            hand_record_numbered(match=match, number=1, record=record, recorded_by=None)
            outcomes.append("stored")
        except (TournamentError, IntegrityError) as error:
            outcomes.append(getattr(error, "code", type(error).__name__))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(record,)) for record in sent]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["hand_exists", "stored"]
    (hand,) = Hand.objects.filter(match=match)
    assert hand.number == 1 and hand.record in [records.hand_entry(r) for r in sent]
    match = Match.objects.get(pk=match.pk)
    assert match.state["hands"] == 1
    assert match.status == Match.Status.IN_PROGRESS or match.places


@pytest.mark.django_db(transaction=True)
def test_two_tablets_drafting_hand_one_of_a_table_one_holds_it():
    """The draft of a hand at a table of three is held by one device, as at two sides: two
    tablets starting hand 1 at once, one stores its draft, the other is refused."""
    match = _started_table("por_turno")
    first, _second, gallo = match.seats
    sent = {
        "tab-1": {"events": [{"by": first, "call": "truco"}]},
        "tab-2": {"events": [{"by": gallo, "call": "envido"}]},
    }
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def device(name: str) -> None:
        try:
            barrier.wait()
            drafts.draft_save(
                match=match, number=1, record=sent[name], device=name, revision=0, by=None
            )
            outcomes[name] = "stored"
        except TournamentError as error:
            outcomes[name] = error.code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=device, args=(name,)) for name in sent]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes.values()) == ["draft_other_device", "stored"]
    winner = next(name for name, outcome in outcomes.items() if outcome == "stored")
    draft = HandDraft.objects.get(match=match)
    assert (draft.device, draft.revision, draft.record) == (winner, 1, sent[winner])
