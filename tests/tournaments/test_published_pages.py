"""Public pages published as files for the proxy (``PUBLISHED_PAGES_DIR``): a file is the
page Django served, and a write deletes the files of the pages that show it, as it
renews their cache keys; the proxy's rules choose the language as Django does.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from io import BytesIO, StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import CommandError, call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory
from django.urls import ResolverMatch
from django.utils import translation
from hypothesis import example, given
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from tests.conftest import start_nginx
from tests.tournaments.conftest import chico_hand
from tests.tournaments.test_page_cache import _league, _warm
from tournaments.live import announce, pagecache, published, topics
from tournaments.management import proxy
from tournaments.models import HandDraft, Match
from tournaments.results import drafts
from tournaments.results import services as result_services


@pytest.fixture
def pages(settings, tmp_path) -> Path:
    settings.PUBLISHED_PAGES_DIR = str(tmp_path / "published")
    return tmp_path / "published" / "pages"


def _file(pages: Path, url: str, language: str = "es") -> Path:
    return pages / language / url.lstrip("/") / "index.html"


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
    def failing(renewal):
        raise OSError("disk full")

    monkeypatch.setattr(pagecache, "republish", failing)
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
    original = pagecache._render_again

    def render_again(relative):
        seen.append(_file(pages, url).read_bytes() if _file(pages, url).exists() else None)
        return original(relative)

    monkeypatch.setattr(pagecache, "_render_again", render_again)
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


@pytest.mark.page_cache
def test_another_release_starts_from_no_page(client, db, commit, pages):
    league = _league("Copa Rosario", commit)
    client.get(league["urls"]["match"])
    assert _file(pages, league["urls"]["match"]).exists()

    published.register("es/index.html", [topics.SITE], code="another release")

    assert not _file(pages, league["urls"]["match"]).exists()


# --- The proxy's language: never another one than Django's -------------------------------


def _proxy_language(accept: str, cookie: str) -> str | None:
    """The language the generated nginx maps choose (None: Django is asked), read with
    the same patterns in the same order."""
    for pattern, value in proxy.cookie_patterns():
        flags = re.ASCII | (re.IGNORECASE if pattern.startswith("~*") else 0)
        found = re.search(pattern.removeprefix("~*").removeprefix("~"), cookie, flags)
        if found:
            return found["tanteo_cookie"] if value == "$tanteo_cookie" else None
    if not accept:
        return settings.LANGUAGE_CODE
    found = re.search(proxy.accept_language_pattern(), accept, re.ASCII)
    return found["tanteo_accepted"] if found else None


def _django_language(accept: str, cookie: str) -> str:
    request = RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE=accept, HTTP_COOKIE=cookie)
    return translation.get_language_from_request(request)


_PIECES = [
    "es", "ca", "en", "es-AR", "en-US", "ca-ES-valencia", "EN", "Es", "de", "fr-CA", "*",
    "zh-Hant-TW", "x" * 9, "es_ES", ";q=0.5", ";q=1", "; q=1.000", ";q=0", ";q=1.5", ";Q=1",
    ",", " , ", ",,", " ", "\t", "@", "-", "en-" + "a" * 9,
]  # fmt: skip
_COOKIES = [
    "", "django_language=en", "django_language=ca", "django_language=", "django_language=EN",
    "django_language=de", "DJANGO_LANGUAGE=ca", "django_language=en; django_language=es",
    "sessionid=x; django_language=ca", "django_language = es ;csrftoken=y",
    'django_language="en"', "django_languages=en", "x=1",
]  # fmt: skip
_HEADER_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@given(
    accept=st.one_of(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join), _HEADER_TEXT),
    cookie=st.one_of(st.sampled_from(_COOKIES), _HEADER_TEXT),
)
@example(accept="es-AR,es;q=0.9,en;q=0.8", cookie="")
@example(accept="en, @@@", cookie="")  # Django finds it malformed: its default
@example(accept="es;q=0.5,en", cookie="")  # Django sorts: English
@example(accept="en," * 200 + "es", cookie="")  # over Django's 500 characters
def test_the_proxy_chooses_a_language_only_as_django_would(accept, cookie):
    chosen = _proxy_language(accept, cookie)
    if chosen is not None:
        assert chosen == _django_language(accept, cookie)


@pytest.mark.parametrize(
    ("accept", "cookie", "language"),
    [
        ("", "", "es"),
        ("es-AR,es;q=0.9,en;q=0.8", "", "es"),
        ("en-US,en;q=0.9", "", "en"),
        ("ca-ES,ca;q=0.9,es;q=0.8,en;q=0.7", "", "ca"),
        ("de-DE,de;q=0.9", "django_language=ca", "ca"),
        ("en", "csrftoken=x; django_language=es", "es"),
    ],
)
def test_the_proxy_serves_what_browsers_send(accept, cookie, language):
    """The rules are not so careful that they never decide: the usual browsers' headers
    and the language chosen on the site get their file."""
    assert _proxy_language(accept, cookie) == language == _django_language(accept, cookie)


# --- The configuration, and nginx serving it ----------------------------------------------


def test_the_configuration_needs_a_folder(settings):
    settings.PUBLISHED_PAGES_DIR = ""
    with pytest.raises(CommandError, match="PUBLISHED_PAGES_DIR"):
        call_command("proxy_config")


def _configuration(upstream: str, **options: str) -> str:
    out = StringIO()
    call_command("proxy_config", upstream=upstream, stdout=out, **options)
    return out.getvalue()


@pytest.mark.page_cache
def test_each_part_of_the_configuration_alone(transactional_db, pages):
    """One file for nginx's http block, one for the site's server block: each is only
    what goes there."""
    http = _configuration("http://127.0.0.1:8000", part="http")
    server = _configuration("http://127.0.0.1:8000", part="server")
    assert http.lstrip().startswith("map ") and "location" not in http
    assert server.lstrip().startswith("location / {") and "map " not in server
    assert f"root {pages.resolve()};" in server
    assert "proxy_pass http://127.0.0.1:8000;" in server
    assert 'add_header Content-Security-Policy "' in server and "object-src 'none'" in server


@pytest.mark.page_cache
def test_several_nodes_share_the_requests_the_files_do_not_answer(transactional_db, pages):
    """One ``--upstream`` per node: nginx sends them the requests in turn
    (docs/configuration.md, "Several nodes"); an address it cannot balance on is a
    sentence, not a configuration nginx refuses later."""
    out = StringIO()
    nodes = ["http://10.0.0.1:8000", "http://web:8000"]
    call_command("proxy_config", upstream=nodes, stdout=out)
    printed = out.getvalue()
    assert "upstream tanteo_nodes {\n    server 10.0.0.1:8000;\n    server web:8000;\n}" in printed
    assert "proxy_pass http://tanteo_nodes;" in printed

    assert "proxy_set_header X-Forwarded-Proto $scheme;" in printed
    # Behind a TLS proxy (the compose file's nginx): what that proxy said is passed on.
    out = StringIO()
    call_command("proxy_config", upstream=nodes, forwarded_proto="incoming", stdout=out)
    assert "proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;" in out.getvalue()

    with pytest.raises(CommandError, match=r"http://host:puerto.*http://10\.0\.0\.3:8000/site/"):
        call_command("proxy_config", upstream=[*nodes, "http://10.0.0.3:8000/site/"])


@pytest.fixture
def nginx(live_server, pages, tmp_path, settings):
    """nginx on a port of its own, configured by ``proxy_config``, in front of the live
    server."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    http = _configuration(live_server.url, part="http")
    server = _configuration(live_server.url, part="server")
    process, url = start_nginx(tmp_path / "nginx", http, server)
    yield url
    process.terminate()
    process.wait(10)


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


_PROXY_OWN = {"date", "content-length", "etag", "last-modified", "server", "accept-ranges"}


def _comparable(headers: dict[str, str]) -> dict[str, object]:
    found: dict[str, object] = {
        name.lower(): value for name, value in headers.items() if name.lower() not in _PROXY_OWN
    }
    found.pop("connection", None)
    policy = found.get("content-security-policy")
    if isinstance(policy, str):  # the same directives, in any order
        found["content-security-policy"] = {part.strip() for part in policy.split(";")}
    return found


def test_nginx_serves_the_published_page_as_django_would_and_asks_django_otherwise(
    nginx, pages, commit, referee
):
    league = _league("Copa Rosario", commit)
    url = league["urls"]["match"]

    status, from_django, page = _get(nginx + url)
    assert status == 200
    file = _file(pages, url)
    assert file.read_bytes() == page
    # From now on the proxy answers from the file, with Django's headers.
    file.write_bytes(page.replace(b"</body>", b"<!-- the file --></body>"))
    status, from_file, served = _get(nginx + url)
    assert status == 200 and b"<!-- the file -->" in served
    assert _comparable(from_file) == _comparable(from_django)

    # Whatever Django would decide otherwise is Django's.
    assert b"<!-- the file -->" not in _get(nginx + url, **{"Accept-Language": "de"})[2]
    assert b"<!-- the file -->" not in _get(nginx + url, Cookie="sessionid=abc")[2]
    assert b"<!-- the file -->" not in _get(nginx + url + "?tv=1")[2]
    assert b"<!-- the file -->" not in _get(nginx + url, Cookie="django_language=en")[2]
    english = _file(pages, url, "en")
    assert english.exists()
    status, headers, _page = _get(nginx + url, Cookie="django_language=en")
    assert headers["Content-Language"] == "en"

    # A hand: the write renders the page again, and the proxy serves the new one.
    commit(
        result_services.hand_record,
        match=league["match"],
        record=chico_hand(league["match"], "A"),
        recorded_by=referee,
    )
    status, _headers, page = _get(nginx + url)
    assert b'data-games-side="A">1</span>' in page and b"<!-- the file -->" not in page
    assert page == file.read_bytes()
