"""A published page renewed at once by a write, then at most once a moment
(``PUBLISHED_RENEW_EVERY``): the writes within the moment renew it once at its end, and
its open readers are told again then (tournaments/live/renewing.py)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections

from tests.tournaments.conftest import chico_hand
from tests.tournaments.published_pages.conftest import _file
from tests.tournaments.test_page_cache import _league, _warm
from tournaments.live import pagecache, published, renewing, topics
from tournaments.models import Match
from tournaments.results import services as result_services

# The live pages' promise (tournaments/live/__init__.py): current within two seconds.
WITHIN = 2.0


@pytest.fixture
def moment(settings, monkeypatch):
    """Renewals coalesced over a moment of one second, the pages rendered counted by their
    published path, and what the renewer tells the open pages kept."""
    settings.PUBLISHED_RENEW_EVERY = 1
    rendered: list[str] = []
    told: list[list[str]] = []
    original = pagecache.render_again

    def render_again(relative: str) -> bool:
        rendered.append(relative)
        return original(relative)

    monkeypatch.setattr(pagecache, "render_again", render_again)
    monkeypatch.setattr(renewing.later, "tell", told.append)
    yield {"rendered": rendered, "told": told}
    renewing.later.now()  # nothing left for the next test


def _relative(url: str) -> str:
    return f"es{url}index.html"


def _stale_once_renewed(pages, client, urls, moment: float = 1) -> list[str]:
    """The pages whose file is not what Django serves now, once the renewer has renewed
    what was left to it (within the live pages' two seconds of a moment of one second).
    Each file is read before Django is asked: a reader Django serves publishes the page
    itself."""
    assert renewing.later.settled(WITHIN - 1 + moment)
    return [url for url in urls if _file(pages, url).read_bytes() != client.get(url).content]


def _record(match: Match, side: str, referee) -> None:
    result_services.hand_record(match=match, record=chico_hand(match, side), recorded_by=referee)


@pytest.mark.page_cache
@pytest.mark.django_db(transaction=True)
def test_the_writes_of_a_moment_renew_a_page_once_at_its_end(
    client, pages, referee, moment, settings
):
    """The renewer's thread reads what the writes committed: a real database transaction.
    A moment of three seconds: the second write lands within it on a busy test machine."""
    settings.PUBLISHED_RENEW_EVERY = 3
    league = _league("Copa Rosario", lambda write, **kwargs: write(**kwargs))
    match_url, round_url = league["urls"]["match"], league["urls"]["round"]
    _warm(client, [match_url, round_url])
    match = league["match"]

    _record(match, "A", referee)  # the first write of the moment: renewed at once
    first = _file(pages, match_url).read_bytes()
    assert b'data-games-side="A">1</span>' in first
    assert moment["rendered"].count(_relative(match_url)) == 1

    _record(match, "B", referee)  # within the moment: the old file until its end
    assert _file(pages, match_url).read_bytes() == first
    assert moment["rendered"].count(_relative(match_url)) == 1

    assert _stale_once_renewed(pages, client, [match_url, round_url], moment=3) == []
    assert b'data-games-side="B">1</span>' in _file(pages, match_url).read_bytes()
    # Twice for two writes here; and its readers, who refetched the old file on the
    # second write's message, told again: the topics of both pages that write changed.
    assert moment["rendered"].count(_relative(match_url)) == 2
    assert moment["rendered"].count(_relative(round_url)) == 2
    shown = {topics.match_topic(match.pk), topics.draft_topic(match.pk)}
    assert moment["told"] == [sorted({*shown, topics.stage_topic(league["stage"].pk)})]
    # The registrations the second write withdrew were kept until the page was renewed.
    assert list((pages.parent / "renewing").iterdir()) == []


@pytest.mark.page_cache
@pytest.mark.django_db(transaction=True)
def test_a_round_written_at_every_table_at_once_is_renewed_once_a_moment(
    client, pages, referee, moment
):
    """Eight hands at four tables at once (threads behind a barrier, each a write of its
    own as the referees' tablets send them): the round shows all of them within two
    seconds, rendered at most once a moment, not once a hand."""
    if connection.vendor != "postgresql":
        pytest.skip("writes from threads at once need PostgreSQL (SQLite serialises them)")
    league = _league("Copa Rosario", lambda write, **kwargs: write(**kwargs), teams=8)
    round_url = league["urls"]["round"]
    matches = list(Match.objects.filter(stage=league["stage"], round__number=1).order_by("pk"))
    assert len(matches) == 4
    _warm(client, [round_url])
    barrier = threading.Barrier(len(matches))
    failures: list[BaseException] = []

    def referee_at(match: Match) -> None:
        try:
            barrier.wait()
            for side in "AB":
                _record(match, side, referee)
        except BaseException as error:  # reported by the test, not lost in the thread
            failures.append(error)
        finally:
            connections.close_all()

    started = time.monotonic()
    threads = [threading.Thread(target=referee_at, args=(match,)) for match in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    written = time.monotonic() - started
    assert failures == []

    assert _stale_once_renewed(pages, client, [round_url]) == []
    for match in matches:
        match.refresh_from_db()
        assert match.hands.count() == 2
    # One render to start the moment, one at the end of each moment the writes spanned.
    assert moment["rendered"].count(_relative(round_url)) <= 2 + int(written)
    assert list((pages.parent / "renewing").iterdir()) == []


@pytest.mark.page_cache
@pytest.mark.django_db(transaction=True)
def test_a_renewal_failing_at_the_moments_end_leaves_its_pages_to_the_recovery(
    client, pages, referee, moment, monkeypatch
):
    """Its journal is kept, not finished as if the page were renewed: the next withdrawal
    after ``RECOVER_AFTER`` removes the stale file, for its next reader to render."""
    league = _league("Copa Rosario", lambda write, **kwargs: write(**kwargs))
    match_url = league["urls"]["match"]
    _warm(client, [match_url])
    match = league["match"]
    _record(match, "A", referee)  # renewed at once

    def broken(relative: str) -> bool:
        raise RuntimeError("the disk is gone")

    monkeypatch.setattr(pagecache, "render_again", broken)
    _record(match, "B", referee)  # left to the moment's end, which fails
    assert renewing.later.settled(WITHIN)
    assert b'data-games-side="B">1</span>' not in _file(pages, match_url).read_bytes()
    assert list((pages.parent / "renewing").iterdir()) != []

    monkeypatch.setattr(published, "RECOVER_AFTER", 0)
    published.withdraw([topics.SITE])  # any later write's withdrawal recovers it
    assert not _file(pages, match_url).exists()
    assert b'data-games-side="B">1</span>' in client.get(match_url).content


class _Away:
    """The cache as ``config.cache`` answers while Redis is away: every call a miss."""

    def add(self, *args, **kwargs) -> bool:
        return False

    def get(self, *args, **kwargs) -> None:
        return None

    def set(self, *args, **kwargs) -> None:
        pass

    def delete(self, *args, **kwargs) -> None:
        pass


@pytest.mark.page_cache
def test_with_no_cache_to_mark_a_moment_every_write_renews_its_pages_at_once(
    client, db, commit, pages, referee, moment, monkeypatch
):
    """A moment nobody can mark is no moment: left to its end, the page would be left to
    nobody (its registration withdrawn, its file stale for good)."""
    league = _league("Copa Rosario", commit)
    match_url = league["urls"]["match"]
    _warm(client, [match_url])
    monkeypatch.setattr(renewing, "cache", _Away())
    match = league["match"]
    for side in "AB":
        commit(_record, match=match, side=side, referee=referee)
        assert f'data-games-side="{side}">1</span>'.encode() in _file(pages, match_url).read_bytes()
    assert moment["rendered"].count(_relative(match_url)) == 2
    assert renewing.later.due == {}
