"""Standings snapshots: replaced rather than dropped, never served stale, repaired by beat.

The races need PostgreSQL (SQLite serialises every writer anyway).
"""

from __future__ import annotations

import logging
import threading

import pytest
from django.db import connection, connections
from django.db.models import F
from kombu.exceptions import OperationalError

from tests.tournaments.conftest import play
from tests.tournaments.factories import ChampionshipFactory, TeamFactory
from tournaments import tasks
from tournaments.models import Match, Stage, StandingsSnapshot
from tournaments.results import services as result_services
from tournaments.stages import services as stage_services
from tournaments.standings import selectors as standing_selectors
from tournaments.standings import services as standing_services


def _round_robin(championship, count: int) -> Stage:
    for seed in range(1, count + 1):
        TeamFactory(championship=championship, seed=seed)
    stage = stage_services.stage_create(championship=championship, format="round_robin")
    for _ in range(count - 1 + count % 2):
        stage_services.round_generate(stage=stage)
    return stage


def _open(stage: Stage) -> list[Match]:
    return list(stage.matches.filter(team_b__isnull=False, winner__isnull=True).order_by("pk"))


def _current(stage: Stage, group=None) -> StandingsSnapshot | None:
    stage.refresh_from_db()
    return StandingsSnapshot.objects.filter(
        stage=stage, group=group, version=stage.results_version
    ).first()


def _served(stage: Stage) -> list[tuple[int, float]]:
    return [(line.team.pk, line.points) for line in standing_selectors.stage_standings(stage=stage)]


def _computed(stage: Stage) -> list[tuple[int, float]]:
    lines = standing_selectors.stage_standings(stage=stage, use_snapshot=False)
    return [(line.team.pk, line.points) for line in lines]


def test_a_result_is_saved_even_when_its_refresh_cannot_be_queued(
    championship, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    stage = _round_robin(championship, 4)
    first, second, *_ = _open(stage)
    with django_capture_on_commit_callbacks(execute=True):
        play(first, first.team_a)
    before = _current(stage)
    assert before is not None

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.refresh_standings, "delay", broker_down)
    with (
        caplog.at_level(logging.ERROR, logger="tournaments.tasks"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        play(second, second.team_b)  # the deciding save does not raise

    second.refresh_from_db()
    assert (second.status, second.winner_id) == (Match.Status.FINISHED, second.team_b_id)
    assert f"for stage {stage.pk}" in caplog.text
    # The old snapshot is kept, but is not served: the page computes the new standings.
    kept = StandingsSnapshot.objects.get(stage=stage, group=None)
    assert kept.rows == before.rows and _current(stage) is None
    assert _served(stage) == _computed(stage)
    assert second.team_b_id in [team for team, points in _served(stage) if points > 0]

    # The beat task finds the stale stage and refreshes it; a second run has nothing to do.
    assert tasks.repair_standings() == 1
    assert _current(stage) is not None
    assert tasks.repair_standings() == 0
    assert _served(stage) == _computed(stage)


def test_the_repair_finds_missing_and_stale_snapshots_only(championship, make_teams):
    current, stale, missing = (_round_robin(ChampionshipFactory(), 2) for _ in range(3))
    groups = stage_services.stage_create(
        championship=championship,
        format="groups_knockout",
        teams=make_teams(championship, 8),
        settings={"group_count": 2},
    )
    stage_services.round_generate(stage=groups)
    for stage in (current, stale, groups):
        standing_services.standings_refresh(stage=stage)
    StandingsSnapshot.objects.filter(stage=missing).delete()
    (match,) = _open(stale)
    result_services.match_walkover(match=match, winner=match.team_a, reason="No vino")
    assert standing_selectors.stages_needing_refresh() == sorted([stale.pk, missing.pk])

    # One group snapshot stale is enough for a stage with groups.
    group = groups.groups.first()
    Stage.objects.filter(pk=groups.pk).update(results_version=F("results_version") + 1)
    groups.refresh_from_db()
    others = StandingsSnapshot.objects.filter(stage=groups).exclude(group=group)
    others.update(version=groups.results_version)
    assert standing_selectors.stages_needing_refresh() == sorted([stale.pk, missing.pk, groups.pk])

    assert standing_services.standings_repair() == 3
    assert standing_selectors.stages_needing_refresh() == []
    for stage in (stale, missing):
        assert _current(stage) is not None
    assert all(_current(groups, g) for g in groups.groups.all())


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")


@pytest.mark.django_db(transaction=True)
def test_a_slow_refresh_never_writes_an_older_snapshot_over_a_newer_one(monkeypatch):
    _needs_postgres()
    stage = _round_robin(ChampionshipFactory(), 4)
    first, second, *_ = _open(stage)
    play(first, first.team_a)  # eager refresh on commit: a current snapshot
    stage.refresh_from_db()
    old_version = stage.results_version

    computed = threading.Event()
    release = threading.Event()
    compute = standing_services.stage_standings

    def slow_for_the_old_refresh(**kwargs):
        lines = compute(**kwargs)
        if threading.current_thread().name == "old":
            computed.set()
            assert release.wait(30)
        return lines

    monkeypatch.setattr(standing_services, "stage_standings", slow_for_the_old_refresh)
    written: list[int] = []

    def old_refresh() -> None:
        try:
            written.append(
                standing_services.standings_refresh(stage=Stage.objects.get(pk=stage.pk))
            )
        finally:
            connections.close_all()

    old = threading.Thread(target=old_refresh, name="old")
    old.start()
    assert computed.wait(30)  # it read the version, and the results, before this result
    play(second, second.team_b)  # a newer result, refreshed at once (eager)
    newer = _current(stage)
    assert newer is not None and newer.version > old_version
    release.set()
    old.join(30)

    assert written == [0]  # the old refresh saw the newer snapshot and left it
    assert _current(stage).rows == newer.rows
    assert _served(stage) == _computed(stage)


@pytest.mark.django_db(transaction=True)
def test_concurrent_results_and_refreshes_end_on_a_current_snapshot():
    _needs_postgres()
    stage = _round_robin(ChampionshipFactory(), 8)
    matches = _open(stage)[:6]
    barrier = threading.Barrier(len(matches) * 2)
    errors: list[str] = []

    def run(action) -> None:
        try:
            barrier.wait()
            action()
        except Exception as error:  # reported by the assertion below
            errors.append(repr(error))
        finally:
            connections.close_all()

    def decide(match: Match):
        # A walkover decides at once; its refresh runs in this thread after the commit.
        return lambda: result_services.match_walkover(
            match=match, winner=match.team_a, reason="No vino"
        )

    def refresh():
        return standing_services.standings_refresh(stage=Stage.objects.get(pk=stage.pk))

    actions = [decide(m) for m in matches] + [refresh] * len(matches)
    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert errors == []
    stage.refresh_from_db()
    assert stage.results_version >= len(matches)
    snapshot = _current(stage)
    assert snapshot is not None  # the last refresh wrote the newest results
    assert _served(stage) == _computed(stage)
    assert sum(line["wins"] for line in snapshot.rows) == len(matches)
