"""When a write renews its published pages: after the server closes its answer (or on
the thread's next request), readers keeping the old file until the new one replaces it,
and a reader publishing while a hand commits never leaving the old page."""

from __future__ import annotations

import json
from io import BytesIO

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from rest_framework.authtoken.models import Token

from tests.tournaments.conftest import chico_hand
from tests.tournaments.published_pages.conftest import _file
from tests.tournaments.test_page_cache import _league
from tournaments.live import announce, pagecache, published, renewing
from tournaments.models import HandDraft, Match
from tournaments.results import drafts
from tournaments.results import services as result_services


@pytest.fixture
def after_response():
    """Whatever a test leaves for after an answer is never left to the next test in this
    thread (which would then renew nothing itself)."""
    yield
    announce._after_response.pending = None


def _wsgi_environ(method: str, path: str, body: bytes, **headers: str) -> dict:
    return {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": BytesIO(body),
        "wsgi.url_scheme": "http",
        **{f"HTTP_{name.upper()}": value for name, value in headers.items()},
    }


@pytest.mark.page_cache
def test_a_write_answers_first_and_renews_its_pages_when_the_server_closes_the_answer(
    client,
    db,
    pages,
    referee,
    commit,
    django_capture_on_commit_callbacks,
    monkeypatch,
    after_response,
):
    """The referee's tap does not wait for the page spectators read: Django hands the
    answer to the server (the WSGI contract), which writes it and then closes it; the
    match page is rendered again and the change broadcast only on that close."""
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    match = league["match"]
    Match.objects.filter(pk=match.pk).update(referee=referee)  # its referee's tablet
    old = client.get(url).content
    mano = chico_hand(match, "A")["events"][0]["by"]
    broadcasts = []
    monkeypatch.setattr(announce, "broadcast", lambda topics, what: broadcasts.append(what))
    token, _created = Token.objects.get_or_create(user=referee)
    body = json.dumps(
        {
            "number": 1,
            "record": {"events": [{"by": mano, "call": "envido"}]},
            "device": "tablet-1",
            "revision": 0,
            "takeover": False,
        }
    ).encode()
    statuses = []
    # As Django's test client does: the test's transaction must outlive the request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            answer = WSGIHandler()(
                _wsgi_environ(
                    "PUT",
                    f"/api/v1/matches/{match.pk}/draft/",
                    body,
                    authorization=f"Token {token.key}",
                ),
                lambda status, headers: statuses.append(status),
            )
        # Answered (and committed), not yet closed: the readers still get the old page.
        assert statuses == ["200 OK"], b"".join(answer)
        assert HandDraft.objects.get(match=match).revision == 1
        assert _file(pages, url).read_bytes() == old
        assert broadcasts == []
        answer.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert broadcasts == ["draft"]
    renewed = _file(pages, url).read_bytes()
    assert b"hand-now__lines" in renewed
    assert renewed == client.get(url).content


@pytest.mark.page_cache
def test_renewals_left_by_a_request_never_closed_are_done_by_the_next_one(
    client, db, commit, pages, referee, monkeypatch, caplog, after_response
):
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    old = client.get(url).content
    match = league["match"]
    announce.request_started(sender=None)
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )
    assert _file(pages, url).read_bytes() == old  # left for after the answer
    # The answer was never closed (its handler failed): the thread's next request.
    announce.request_started(sender=None)
    assert b'data-games-side="A">1</span>' in _file(pages, url).read_bytes()

    # A renewal that fails after the answer is logged, never raised into the server.
    def failing(renewal, topics):
        raise OSError("disk full")

    monkeypatch.setattr(renewing, "republish", failing)
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )
    announce.request_finished(sender=None)
    assert "renewal of hand" in caplog.text
    assert getattr(announce._after_response, "pending", None) is None


@pytest.mark.page_cache
def test_readers_keep_the_old_page_until_the_write_replaces_it(
    client, db, commit, pages, referee, monkeypatch
):
    """No reader falls through to Django while the write renders: the old file stays
    until the new one replaces it whole."""
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    old = client.get(url).content
    seen = []
    original = pagecache.render_again

    def render_again(relative):
        seen.append(_file(pages, url).read_bytes() if _file(pages, url).exists() else None)
        return original(relative)

    monkeypatch.setattr(pagecache, "render_again", render_again)
    match = league["match"]
    commit(
        result_services.hand_record, match=match, record=chico_hand(match, "A"), recorded_by=referee
    )

    assert old in seen
    assert b'data-games-side="A">1</span>' in _file(pages, url).read_bytes()


@pytest.mark.page_cache
def test_a_page_changed_again_while_the_write_renders_it_is_rendered_once_more(
    client, db, commit, pages, referee, monkeypatch
):
    """A second tap lands while the first one's write renders the match page: the page
    the first write put in place misses the second tap, so it renders the page again
    rather than leave it missing."""
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    match = league["match"]
    client.get(url)
    mano, other = (event["by"] for event in chico_hand(match, "A")["events"][:2])
    envido = [{"by": mano, "call": "envido"}]

    original = published.register

    def the_second_tap_lands(*args, **kwargs):
        original(*args, **kwargs)
        if pagecache._renewing.get():
            monkeypatch.setattr(published, "register", original)
            # Stored and announced as another request's commit would (the test's
            # capture of on-commit callbacks would announce it twice).
            answered = [*envido, {"by": other, "answer": "quiero"}]
            HandDraft.objects.filter(match=match).update(record={"events": answered})
            announce.on_changed(
                None,
                championship_id=league["championship"].pk,
                what="draft",
                stage_id=match.stage_id,
                match_id=match.pk,
                slug=league["championship"].slug,
            )

    monkeypatch.setattr(published, "register", the_second_tap_lands)
    commit(
        drafts.draft_save,
        match=match,
        number=1,
        record={"events": envido},
        device="tablet-1",
        revision=0,
        by=referee,
    )

    page = _file(pages, url).read_bytes()
    assert b"quiero" in page


def _a_hand_commits_at(moment, league, commit, referee, monkeypatch):
    """Let a hand of the league's match commit (announced, so its pages are renewed) as
    a reader's request publishes the page: just after it registers the page, or just
    before it puts the file in place."""
    name = {"registered": "register", "placing": "place"}[moment]
    original = getattr(published, name)
    match = league["match"]

    def a_hand_commits(*args, **kwargs):
        monkeypatch.setattr(published, name, original)
        if moment == "registered":
            original(*args, **kwargs)
        commit(
            result_services.hand_record,
            match=match,
            record=chico_hand(match, "A"),
            recorded_by=referee,
        )
        if moment == "placing":
            return original(*args, **kwargs)
        return None

    monkeypatch.setattr(published, name, a_hand_commits)


HAND = b'data-games-side="A">1</span>'


@pytest.mark.page_cache
@pytest.mark.parametrize("moment", ["registered", "placing"])
def test_a_result_recorded_while_a_reader_publishes_never_leaves_the_old_page(
    client, db, commit, pages, referee, monkeypatch, moment
):
    """A reader rendered the page before a hand; the hand commits (and renews the page)
    once the reader has registered it, or just before he puts it in place: the file is
    then the new page, or none (the next reader publishes it), never the old one."""
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]
    _a_hand_commits_at(moment, league, commit, referee, monkeypatch)

    old = client.get(url).content
    assert HAND not in old  # rendered before the hand

    file = _file(pages, url)
    if moment == "registered":
        # Seen changed before it was put in place: the write's new page stays.
        assert HAND in file.read_bytes()
    else:
        # Seen changed after: removed, whatever file it replaced.
        assert not file.exists() or HAND in file.read_bytes()
    assert HAND in client.get(url).content
    assert HAND in file.read_bytes()
