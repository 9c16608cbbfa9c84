"""Public pages published as files for the proxy (``PUBLISHED_PAGES_DIR``): a file is the
page Django served, and a write renews (or removes) exactly the files of the pages that
show it, as it renews their cache keys; what is not the same for every reader is never
published."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.urls import ResolverMatch, reverse

from tests.tournaments.conftest import chico_hand
from tests.tournaments.published_pages.conftest import _file
from tests.tournaments.test_page_cache import _league, _warm
from tournaments.live import pagecache, published, topics
from tournaments.results import drafts
from tournaments.results import services as result_services


@pytest.mark.page_cache
def test_a_page_django_serves_from_the_cache_is_published_as_served(client, db, commit, pages):
    league = _league("Copa Rosario", commit)
    for url in league["urls"].values():
        response = client.get(url)
        assert _file(pages, url).read_bytes() == response.content, url
    english = client.get(league["urls"]["match"], HTTP_ACCEPT_LANGUAGE="en")
    assert _file(pages, league["urls"]["match"], "en").read_bytes() == english.content
    assert english.content != _file(pages, league["urls"]["match"]).read_bytes()


def _published(pages: Path, urls) -> dict[str, bytes | None]:
    files = {url: _file(pages, url) for url in urls}
    return {url: (file.read_bytes() if file.exists() else None) for url, file in files.items()}


@pytest.mark.page_cache
def test_a_hand_renews_exactly_the_files_of_the_pages_that_show_it(
    client, db, commit, pages, referee
):
    leagues = (_league("Copa Rosario", commit), _league("Liga Tandil", commit))
    everything = [url for league in leagues for url in league["urls"].values()]
    _warm(client, everything)
    before = _published(pages, everything)
    league = leagues[0]
    match = league["match"]

    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )

    after = _published(pages, everything)
    # As the cache's keys: the round and the match show the hand, nothing else does.
    changed = {url for url in everything if after[url] != before[url]}
    assert changed == {league["urls"]["round"], league["urls"]["match"]}
    # Rendered again by the write itself (here outside a request, so at once): the next
    # reader, through the proxy or Django, gets the page with the hand.
    for url in changed:
        assert after[url] == client.get(url).content
    assert b'data-games-side="A">1</span>' in after[league["urls"]["match"]]


@pytest.mark.page_cache
def test_a_tap_renews_only_its_match_page(client, db, commit, pages, referee):
    league = _league("Copa Rosario", commit)
    _warm(client, league["urls"].values())
    before = _published(pages, league["urls"].values())
    match = league["match"]
    mano = chico_hand(match, "A")["events"][0]["by"]

    commit(
        drafts.draft_save,
        match=match,
        number=1,
        record={"events": [{"by": mano, "call": "envido"}]},
        device="tablet-1",
        revision=0,
        by=referee,
    )

    after = _published(pages, league["urls"].values())
    assert {url for url in after if after[url] != before[url]} == {league["urls"]["match"]}
    assert b"hand-now__lines" in after[league["urls"]["match"]]


@pytest.mark.page_cache
def test_beyond_what_a_write_renders_again_its_pages_are_removed(
    client, db, commit, pages, referee, monkeypatch
):
    league = _league("Copa Rosario", commit)
    _warm(client, league["urls"].values())
    monkeypatch.setattr(pagecache, "REPUBLISH_MAX", 0)
    match = league["match"]
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )
    gone = {url for url in league["urls"].values() if not _file(pages, url).exists()}
    assert gone == {league["urls"]["round"], league["urls"]["match"]}


@pytest.mark.page_cache
def test_the_pages_of_a_renewal_left_unfinished_are_removed_later(client, db, commit, pages):
    """A process that dies between withdrawing pages and renewing them leaves their
    registrations behind; a later write removes those pages (their next readers render
    them), never leaving them stale."""
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    client.get(url)
    renewal = published.withdraw([topics.match_topic(league["match"].pk)])  # then "dies"
    assert renewal.pages == [_file(pages, url).relative_to(pages).as_posix()]
    unrelated = topics.match_topic(999_999)  # a write that renews nothing
    published.withdraw([unrelated]).done()
    assert _file(pages, url).exists()  # in time: its writer may still be at it

    (journal,) = renewal.journals
    journal.rename(journal.with_name(f"{int(time.time()) - published.RECOVER_AFTER - 1}-x"))
    published.withdraw([unrelated]).done()

    assert not _file(pages, url).exists()
    assert not any((pages.parent / "renewing").iterdir())


@pytest.mark.page_cache
def test_a_page_that_fails_to_render_again_is_left_to_its_next_reader(
    client, db, commit, pages, referee, monkeypatch, caplog
):
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    client.get(url)

    def broken(*args, **kwargs):
        raise RuntimeError("a template broke")

    broken.uncached = broken
    monkeypatch.setattr(pagecache, "resolve", lambda path: ResolverMatch(broken, (), {}))
    match = league["match"]
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )

    assert match.hands.count() == 1  # the write stands
    assert not _file(pages, url).exists()
    assert "could not render" in caplog.text
    monkeypatch.undo()
    assert b'data-games-side="A">1</span>' in client.get(url).content
    assert _file(pages, url).exists()


@pytest.mark.page_cache
def test_what_is_not_the_same_for_every_reader_is_not_published(
    client, db, commit, pages, django_user_model
):
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    client.get(url + "?tv=1")
    client.head(url)
    user = django_user_model.objects.create_user("organiser", password="x")
    client.force_login(user)
    client.get(url)
    assert not pages.exists() or not any(path.is_file() for path in pages.rglob("*"))


@pytest.mark.page_cache
def test_another_release_starts_from_no_page(client, db, commit, pages):
    league = _league("Copa Rosario", commit)
    client.get(league["urls"]["match"])
    assert _file(pages, league["urls"]["match"]).exists()

    published.register("es/index.html", [topics.SITE], code="another release")

    assert not _file(pages, league["urls"]["match"]).exists()


@pytest.mark.page_cache
def test_a_result_puts_back_the_pages_the_hall_reads_before_the_teams_pages(
    client, db, commit, pages, referee, monkeypatch
):
    """A result withdraws every team's page of the championship (each shows its
    standing): past ``REPUBLISH_MAX`` the writer removes pages, and those must be the
    teams' (read by few), never the championship's page or its standings, whose readers
    would all reach Django until one of them is served."""
    league = _league("Copa Rosario", commit)
    slug = league["championship"].slug
    teams = [
        reverse("tournaments:team", args=[slug, pk])
        for pk in league["championship"].teams.values_list("pk", flat=True)
    ]
    hall = [league["urls"][name] for name in ("championship", "standings", "round", "match")]
    _warm(client, [*teams, *hall])
    monkeypatch.setattr(pagecache, "REPUBLISH_MAX", len(hall))
    match = league["match"]
    for _chico in range(2):  # the second decides the match
        commit(
            result_services.hand_record,
            match=match,
            record=chico_hand(match, "A"),
            recorded_by=referee,
        )

    match.refresh_from_db()
    assert match.is_decided
    assert {url: _file(pages, url).exists() for url in teams} == dict.fromkeys(teams, False)
    for url in hall:
        assert _file(pages, url).read_bytes() == client.get(url).content, url
