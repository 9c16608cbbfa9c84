"""Two organisers calling the same round at the same moment (PostgreSQL, threads behind a
barrier): each team is told once, whoever called first; the same for one message sent
twice at once."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable

import pytest
from django.core import mail
from django.db import connection, connections
from django.utils import timezone

from tests.tournaments.factories import ChampionshipFactory, UserFactory
from tests.tournaments.notices.conftest import round_of
from tournaments.models import Notice, NoticeMark, Scorekeeping
from tournaments.notices import services


def _race(*acts: Callable[[], list]) -> list[int]:
    """Run ``acts`` at once; how many notices each queued."""
    barrier = threading.Barrier(len(acts))
    told = [0] * len(acts)

    def run(index: int, act: Callable[[], list]) -> None:
        try:
            barrier.wait()
            told[index] = len(act())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, act)) for i, act in enumerate(acts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return told


@pytest.fixture
def called_round(transactional_db, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every writer anyway)")
    # Each notice written a little slowly: the first caller is still inside its
    # transaction when the second decides (what the race is about), not already done.
    tell = services.tell

    def slow_tell(*args, **kwargs):
        time.sleep(0.02)
        return tell(*args, **kwargs)

    monkeypatch.setattr(services, "tell", slow_tell)
    championship = ChampionshipFactory(scorekeeping=Scorekeeping.RESULTS)
    organisers = [UserFactory(), UserFactory()]
    championship.organisers.add(*organisers)
    matches = round_of(championship, ["es", "ca", "en", "es", "ca", "en", "es", "ca"])
    return championship, matches[0].round, organisers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("called_before", [False, True, True])
def test_two_organisers_calling_the_same_round_at_once_tell_each_team_once(
    called_round, called_before
):
    _championship, round_, (first, second) = called_round
    if called_before:
        # Called a while ago: the marks exist, and both callers find them old.
        services.round_call(round_=round_, by=first)
        NoticeMark.objects.update(last_at=timezone.now() - dt.timedelta(minutes=5))
        Notice.objects.all().delete()
        mail.outbox.clear()
    told = _race(
        lambda: services.round_call(round_=round_, by=first),
        lambda: services.round_call(round_=round_, by=second),
    )
    assert sorted(told) == [0, 8]
    assert Notice.objects.count() == 8
    assert Notice.objects.values("team").distinct().count() == 8
    # Sent once each, after the winner's commit (eager: in its thread).
    assert len(mail.outbox) == 8
    assert len({m.to[0] for m in mail.outbox}) == 8


@pytest.mark.django_db(transaction=True)
def test_one_message_sent_twice_at_once_reaches_each_team_once(called_round):
    championship, _round, (first, second) = called_round
    told = _race(
        lambda: services.message_send(championship=championship, text="Final: 20 h", by=first),
        lambda: services.message_send(championship=championship, text="Final: 20 h", by=second),
    )
    assert sorted(told) == [0, 8]
    assert len(mail.outbox) == 8
