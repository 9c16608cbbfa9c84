"""Brackets and rounds under concurrent writers: one match per bracket slot, one round each.

The races need PostgreSQL (SQLite serialises every writer anyway); threads wait behind a
barrier so their deciding saves reach the database at the same moment.
"""

from __future__ import annotations

import datetime
import threading
from collections import Counter
from collections.abc import Callable

import pytest
from django.db import connection, connections

from referees import services as referee_services
from tests.tournaments.conftest import chico_hand
from tests.tournaments.factories import ChampionshipFactory, RefereeFactory, TeamFactory
from tournaments.championships import services as championship_services
from tournaments.errors import TournamentError
from tournaments.models import Championship, Match, Stage
from tournaments.results import services as result_services
from tournaments.stages import selectors as stage_selectors
from tournaments.stages import services as stage_services
from tournaments.stages.rounds import bracket_sync

REPEAT = 3


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")


def at_once(actions: list[Callable[[], object]]) -> list[str]:
    """Run ``actions`` in threads released together; what each did: "ok" or its error."""
    barrier = threading.Barrier(len(actions))
    outcomes: list[str] = []

    def run(action: Callable[[], object]) -> None:
        try:
            barrier.wait()
            action()
            outcomes.append("ok")
        except TournamentError as error:
            outcomes.append(error.code)
        except Exception as error:  # any other error is what the test reports
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def favourite(match: Match):
    return match.team_a if match.team_a.seed < match.team_b.seed else match.team_b


def deciding_save(match: Match, index: int, referee) -> Callable[[], object]:
    """Bring ``match`` to one result from its end; return the save that decides it.

    Every other match is decided by a walkover instead of a referee's last hand, so both
    ways a result reaches the bracket race each other.
    """
    winner = favourite(match)
    if index % 2:
        return lambda: result_services.match_walkover(match=match, winner=winner, reason="No vino")
    result_services.match_start(match=match)
    side = "A" if winner.pk == match.team_a_id else "B"
    for _ in range(match.best_of // 2):
        result_services.hand_record(
            match=match, record=chico_hand(match, side), recorded_by=referee
        )
    record = chico_hand(match, side)
    number = match.hands.count() + 1
    return lambda: referee_services.hand_save(
        match=match, number=number, record=record, recorded_by=referee
    )


def assert_one_match_per_slot(stage: Stage) -> None:
    stage = Stage.objects.get(pk=stage.pk)
    stored = Counter(stage.matches.exclude(bracket_id="").values_list("bracket_id", flat=True))
    assert [slot for slot, count in stored.items() if count > 1] == []
    decided = list(
        stage.matches.exclude(bracket_id="").filter(
            status__in=[Match.Status.FINISHED, Match.Status.WALKOVER]
        )
    )
    bracket = stage_selectors.bracket_state(stage, decided)
    # Every slot whose two teams are known has its match, and no other slot has one.
    expected = {slot.id for slot in bracket.ready()} | {m.bracket_id for m in decided}
    assert set(stored) == expected
    labels = Counter(stage.rounds.exclude(label="").values_list("label", flat=True))
    assert [label for label, count in labels.items() if count > 1] == []
    numbers = sorted(stage.rounds.values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))


def play_bracket_in_waves(stage: Stage, referee) -> int:
    """Decide every playable match of the bracket at once, wave after wave, to the end."""
    waves = 0
    while True:
        ready = list(
            stage.matches.filter(status=Match.Status.SCHEDULED)
            .exclude(bracket_id="")
            .select_related("team_a", "team_b")
            .order_by("bracket_id")
        )
        if not ready:
            return waves
        saves = [deciding_save(match, index, referee) for index, match in enumerate(ready)]
        assert at_once(saves) == ["ok"] * len(saves)
        assert_one_match_per_slot(stage)
        waves += 1


def new_stage(format: str, teams: int = 8, referee=None, **settings) -> Stage:
    championship = ChampionshipFactory()
    if referee is not None:
        championship_services.referee_add(championship=championship, user=referee, added_by=None)
    for seed in range(1, teams + 1):
        TeamFactory(championship=championship, seed=seed)
    return stage_services.stage_create(championship=championship, format=format, settings=settings)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("format", ["single_elimination", "double_elimination"])
def test_results_feeding_the_same_slots_at_once_create_each_next_match_once(format):
    _needs_postgres()
    referee = RefereeFactory()
    for _ in range(REPEAT):
        stage = new_stage(format, referee=referee)
        stage_services.round_generate(stage=stage)
        waves = play_bracket_in_waves(stage, referee)
        assert waves >= 3
        stage.refresh_from_db()
        bracket = stage_selectors.bracket_state(stage, stage.matches.all())
        assert bracket.finished and bracket.champion == stage.teams.get(seed=1).pk


@pytest.mark.django_db(transaction=True)
def test_knockout_after_groups_advances_once_per_slot_under_concurrent_results():
    _needs_postgres()
    referee = RefereeFactory()
    for _ in range(REPEAT):
        stage = new_stage("groups_knockout", referee=referee, group_count=2, advance=2)
        while not stage.matches.exclude(bracket_id="").exists():
            for match in stage_services.round_generate(stage=stage):
                if not match.is_bye and not match.bracket_id:
                    result_services.match_walkover(
                        match=match, winner=favourite(match), reason="No"
                    )
        play_bracket_in_waves(stage, referee)
        stage.refresh_from_db()
        bracket = stage_selectors.bracket_state(stage, stage.matches.exclude(bracket_id=""))
        assert bracket.finished


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("format", ["round_robin", "swiss", "single_elimination"])
def test_generate_round_pressed_many_times_at_once_generates_one_round(format):
    _needs_postgres()
    stage = new_stage(format)
    outcomes = at_once([lambda: stage_services.round_generate(stage=stage, number=1)] * 5)
    assert sorted(outcomes) == ["ok"] + ["round_exists"] * 4
    assert stage.rounds.count() == 1
    assert stage.matches.count() == 4


def test_bracket_sync_again_changes_nothing(championship, make_teams):
    make_teams(championship, 8)
    stage = stage_services.stage_create(championship=championship, format="double_elimination")
    for match in stage_services.round_generate(stage=stage):
        result_services.match_walkover(match=match, winner=favourite(match), reason="No vino")
    before = sorted(
        stage.matches.values_list("pk", "bracket_id", "round_id", "team_a_id", "team_b_id")
    )
    rounds = sorted(stage.rounds.values_list("pk", "number", "label"))
    assert len(before) == 8  # W1 decided; W2 and L1 created by the results

    assert bracket_sync(stage=stage) == []
    assert bracket_sync(stage=stage) == []
    after = sorted(
        stage.matches.values_list("pk", "bracket_id", "round_id", "team_a_id", "team_b_id")
    )
    assert after == before
    assert sorted(stage.rounds.values_list("pk", "number", "label")) == rounds


@pytest.mark.django_db(transaction=True)
def test_the_same_team_or_stage_sent_at_once_is_created_once():
    _needs_postgres()
    championship = ChampionshipFactory()

    def add_team() -> None:
        championship_services.team_create(
            championship=championship, name="Los Anchos", players=["A", "B"]
        )

    def add_stage() -> None:
        stage_services.stage_create(championship=championship, format="swiss", name="Suizo")

    # Without the championship lock the second insert hits the unique name (a 500), or
    # creates a second stage at the next order.
    assert sorted(at_once([add_team] * 4)) == ["ok"] + ["team_name_taken"] * 3
    assert sorted(at_once([add_stage] * 4)) == ["ok"] + ["stage_name_taken"] * 3
    assert championship.teams.get().memberships.count() == 2
    assert championship.stages.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_championship_sent_at_once_is_created_once(django_user_model):
    _needs_postgres()
    organiser = django_user_model.objects.create_user("olga", password="x-Very-long-1")

    def create() -> None:
        championship_services.championship_create(
            name="Copa Simultánea",
            slug="copa-simultanea",
            start_date=datetime.date(2026, 12, 5),
            organisers=[organiser],
        )

    # Both pass the check for the short name, then the unique slug refuses one insert:
    # without handling it, that organiser got a 500.
    for _ in range(REPEAT):
        Championship.objects.filter(slug="copa-simultanea").delete()
        assert sorted(at_once([create] * 4)) == ["ok"] + ["slug_taken"] * 3
        assert Championship.objects.get(slug="copa-simultanea").organisers.get() == organiser
